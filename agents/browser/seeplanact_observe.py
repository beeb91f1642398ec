"""What SeePlanAct shows the model each step: the cropped screenshot and the candidate elements.

As upstream's step loop does: the interactive elements (``restgraph.tools.browser.elements``) sorted by
their rounded centre (y, then x); a screenshot clip that starts 200 px above the first element
(at most ``page height - 1144``) and is at least 1144 px tall, sized from the dynamic batch size
1600 (Playwright trims a clip to the viewport); the candidates are the elements whose centre lies
inside the clip, each formatted as ``format_choices`` does: ``<tag head id="i">description</tag>``
with the description cut to 30 words (not for selects), ``i`` being the element's index in the
extraction order.

For a model without image input the screenshot is replaced by a text rendering of the same page
(``screenshot="text"``): Playwright's AI-mode aria snapshot, compacted as the aria agent's
observation (visible and nearby lines first, ``max_obs_chars``), element refs removed, after the
line ``TEXT_RENDERING_HEADER``.
"""

from __future__ import annotations

import base64
import re
import time
from dataclasses import dataclass, field
from typing import Any

from restgraph.tools.browser.elements import PageElement, interactive_elements, page_height
from restgraph.tools.browser.observe import compact_snapshot
from restgraph.tools.browser.session import BrowserSession

DYNAMIC_BATCH = 1600
CLIP_MIN_HEIGHT = 1144
CLIP_MARGIN = 200
TEXT_RENDERING_HEADER = (
    "(Text rendering of the screenshot: the page's accessibility tree, for a model without image input)"
)
_REF = re.compile(r" \[ref=\w+\]")


@dataclass
class StepView:
    elements: list[PageElement]
    #: ``[element index as str, choice text]`` per candidate, top to bottom
    choices: list[list[str]] = field(default_factory=list)
    image_b64: str | None = None
    text_rendering: str | None = None
    screenshot_error: str | None = None
    seconds: float = 0.0

    def image_block(self) -> dict[str, Any]:
        """The screenshot as a LangChain content block (or its text rendering)."""
        if self.image_b64 is not None:
            return {"type": "image", "base64": self.image_b64, "mime_type": "image/jpeg"}
        return {"type": "text", "text": f"{TEXT_RENDERING_HEADER}\n{self.text_rendering or ''}"}

    def size(self) -> dict[str, int]:
        return {
            "elements": len(self.elements),
            "candidates": len(self.choices),
            "choices_chars": sum(len(c[1]) for c in self.choices),
            "image_bytes": len(base64.b64decode(self.image_b64)) if self.image_b64 else 0,
            "text_rendering_chars": len(self.text_rendering or ""),
        }


def choice_text(index: int, element: PageElement) -> str:
    words = element.description.split()
    body = (
        element.description
        if element.tag_head == "select" or len(words) < 30
        else " ".join(words[:30]) + "..."
    )
    return f'<{element.tag_head} id="{index}">{body}</{element.tag}>'


async def observe(session: BrowserSession, *, image: bool, step: int) -> StepView:
    started = time.perf_counter()
    page = session.page
    view = StepView(await interactive_elements(page))
    if not view.elements:
        view.seconds = time.perf_counter() - started
        return view
    located = sorted(
        ((i, round(e.center[1]), round(e.center[0])) for i, e in enumerate(view.elements)),
        key=lambda x: (x[1], x[2]),
    )
    n = len(located)
    total = await page_height(page)
    batch = min(n, n // max(round(total / DYNAMIC_BATCH), 1) + 1)
    top, bottom = located[0][1], located[min(batch, n) - 1][1]
    clip_y = min(total - CLIP_MIN_HEIGHT, max(0, top - CLIP_MARGIN))
    clip_h = min(total - clip_y, max(bottom - top + CLIP_MARGIN, CLIP_MIN_HEIGHT))
    width = page.viewport_size["width"] if page.viewport_size else session.config.viewport_width
    view.choices = [
        [str(i), choice_text(i, view.elements[i])]
        for i, y, x in located
        if 0 <= x <= width and clip_y <= y <= clip_y + clip_h
    ]
    if image:
        path = (
            session.screenshot_dir / f"step{step:02d}_seeplanact.jpg"
            if session.screenshot_dir and session.config.screenshots
            else None
        )
        try:
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            shot = await page.screenshot(
                path=str(path) if path else None,
                clip={"x": 0, "y": clip_y, "width": width, "height": clip_h},
                full_page=False,
                type="jpeg",
                quality=100,
                timeout=20_000,
            )
            view.image_b64 = base64.b64encode(shot).decode("ascii")
        except Exception as exc:  # upstream skips the step (a no-op) when the screenshot fails
            view.screenshot_error = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"
    else:
        raw = await session.snapshot()
        tree = compact_snapshot(
            raw, viewport_height=session.config.viewport_height, max_chars=session.config.max_obs_chars
        )
        view.text_rendering = _REF.sub("", tree)
    view.seconds = time.perf_counter() - started
    return view
