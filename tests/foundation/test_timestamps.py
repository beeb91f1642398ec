"""Trace timestamps: ``now_iso`` is UTC in ``datetime.isoformat``'s form, to the millisecond."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from restgraph.tools.trace_schema import now_iso


def test_now_iso_is_utc_isoformat_to_the_millisecond() -> None:
    before = datetime.now(UTC) - timedelta(milliseconds=1)  # stamps cut to the millisecond
    stamps = [now_iso() for _ in range(2000)]
    after = datetime.now(UTC)
    for stamp in stamps:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", stamp), stamp
        assert before <= datetime.fromisoformat(stamp) <= after
