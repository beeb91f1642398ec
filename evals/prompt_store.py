"""Prompts stored once per run: model-call messages as content-addressed chunks.

Why: an agent re-sends the same templates, API lists, response schemas and few-shot examples in
every call, so prompts stored inline were ~60% of a RestGPT ``traces.jsonl``, and nearly every
message is distinct as a whole (a growing scratchpad), so whole-message dedup saves nothing. Each
message's content is therefore cut into chunks at content-defined line boundaries (the same text
cuts the same way wherever it sits in a prompt), each distinct chunk is stored once per run in
``prompts.jsonl.gz`` under the hash of its text, and a stored call keeps ``message_refs``: per
message its fields with ``content`` replaced by ``content_refs``, the hashes whose texts joined
are the content. Loading puts the messages back exactly (``resolve``); scoring never needs them.

File format: gzip members, appended one per trace that brought new chunks, each holding JSON
lines ``{"h": hash, "t": text}``. The chunks a trace needs are written and fsynced before its
line in ``traces.jsonl``: a crash can orphan chunks, never leave a line whose chunk is missing. A
torn last member (killed mid-write) is ignored by readers and cut off before the next append.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from restgraph.tools.trace_schema import Trace

FILENAME = "prompts.jsonl.gz"
#: a chunk ends at a line at least this many characters in (shorter ones cost more in refs than they save) ...
MIN_CHUNK_CHARS = 64
#: ... that is blank or whose hash is 0 modulo this (content-defined: about one line in eight)
BOUNDARY_EVERY = 8
HASH_CHARS = 16


class PromptMissing(ValueError):
    """A stored call names a chunk that ``prompts.jsonl.gz`` does not hold."""


def _line_hash(line: str) -> int:
    """A line's CRC-32, mixed (Fibonacci hashing) and its high bits kept: CRC-32 is linear, so lines
    that differ in one digit share their low bits, and ``crc % 8`` would put no boundary in a run
    of numbered lines."""
    return ((zlib.crc32(line.encode("utf-8", "surrogatepass")) * 2654435761) & 0xFFFFFFFF) >> 16


def chunks(text: str) -> list[str]:
    """``text`` cut at content-defined line boundaries; ``"".join(chunks(text)) == text``."""
    out: list[str] = []
    current: list[str] = []
    size = 0
    for line in text.splitlines(keepends=True):
        current.append(line)
        size += len(line)
        if size >= MIN_CHUNK_CHARS and (not line.strip() or _line_hash(line) % BOUNDARY_EVERY == 0):
            out.append("".join(current))
            current, size = [], 0
    if current:
        out.append("".join(current))
    return out


def chunk_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]


def _members(fh: IO[bytes]) -> Iterator[tuple[bytes, int]]:
    """Each complete gzip member's payload and the file offset where it ends; stops at a torn one."""
    end = 0
    decoder = zlib.decompressobj(wbits=31)
    parts: list[bytes] = []
    pending = b""
    while True:
        data = pending or fh.read(1 << 16)
        pending = b""
        if not data:
            return
        try:
            parts.append(decoder.decompress(data))
        except zlib.error:
            return  # garbage after a torn member: nothing readable follows
        if decoder.eof:
            pending = decoder.unused_data
            end += len(data) - len(pending)
            yield b"".join(parts), end
            decoder, parts = zlib.decompressobj(wbits=31), []
        else:
            end += len(data)


def _records(payload: bytes) -> Iterator[tuple[str, str]]:
    for line in payload.splitlines():
        if line.strip():
            record = orjson.loads(line)
            yield record["h"], record["t"]


def pack_refs(traces: list[dict[str, Any]], known: set[str]) -> dict[str, str]:
    """Turn trace dicts' ``messages`` into ``message_refs`` (in place); return the chunks they
    use that ``known`` lacks (key -> text), to be stored before the traces' lines."""
    new: dict[str, str] = {}
    for data in traces:
        for step in data.get("steps") or []:
            for call in step.get("model_calls") or []:
                messages = call.pop("messages", None)
                if messages is not None:
                    call["message_refs"] = [_refs(message, known, new) for message in messages]
    return new


def _refs(message: dict[str, Any], known: set[str], new: dict[str, str]) -> dict[str, Any]:
    content = message.get("content")
    if not isinstance(content, str):
        return message  # not text: kept inline
    keys = []
    for piece in chunks(content):
        key = chunk_key(piece)
        if key not in known:
            new[key] = piece
        keys.append(key)
    return {**{k: v for k, v in message.items() if k != "content"}, "content_refs": keys}


class PromptStore:
    """One run folder's chunk store: ``pack`` on the way to disk, ``resolve`` on the way back."""

    def __init__(self, run_dir: str | Path):
        self.path = Path(run_dir) / FILENAME
        self._known: set[str] | None = None  # keys on disk (the writer's view)
        self._texts: dict[str, str] = {}  # key -> text, for reading
        self._read_upto = 0  # bytes of the file already read into _texts

    # -- writing ----------------------------------------------------------------------------------
    def pack(self, traces: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Turn trace dicts' ``messages`` into ``message_refs`` (in place), storing their new chunks
        first: one gzip member and one fsync for the lot."""
        self.add(pack_refs(traces, self._known_keys()))
        return traces

    def add(self, new: dict[str, str]) -> None:
        """Store the chunks of ``new`` not stored yet (one gzip member, one fsync); what episode
        worker processes packed against their own view (``pack_refs``) arrives here."""
        known = self._known_keys()
        new = {key: text for key, text in new.items() if key not in known}
        if new:
            self._write(new)
            known.update(new)

    def _write(self, new: dict[str, str]) -> None:
        payload = b"".join(orjson.dumps({"h": key, "t": text}) + b"\n" for key, text in new.items())
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "ab") as fh:
            fh.write(gzip.compress(payload, compresslevel=6, mtime=0))
            fh.flush()
            os.fsync(fh.fileno())

    def _known_keys(self) -> set[str]:
        """The keys already stored; the first call also cuts off a torn last member."""
        if self._known is None:
            self._known = set()
            if self.path.exists():
                good = 0
                with open(self.path, "rb") as fh:
                    for payload, end in _members(fh):
                        self._known.update(key for key, _ in _records(payload))
                        good = end
                if good < self.path.stat().st_size:
                    with open(self.path, "rb+") as fh:
                        fh.truncate(good)
        return self._known

    # -- reading ----------------------------------------------------------------------------------
    def text(self, key: str) -> str:
        if key not in self._texts:
            self._read_new()
        try:
            return self._texts[key]
        except KeyError:
            raise PromptMissing(f"{self.path} holds no prompt chunk {key!r}") from None

    def _read_new(self) -> None:
        """Read what was appended since the last read (a live run keeps appending)."""
        if not self.path.exists():
            return
        with open(self.path, "rb") as fh:
            start = fh.seek(self._read_upto)
            for payload, end in _members(fh):
                self._texts.update(_records(payload))
                self._read_upto = start + end

    def messages(self, refs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Stored ``message_refs`` back into the messages as recorded."""
        out = []
        for ref in refs:
            keys = ref.get("content_refs")
            if keys is None:
                out.append(ref)
                continue
            rest = {k: v for k, v in ref.items() if k not in ("type", "content_refs")}
            head = {"type": ref["type"]} if "type" in ref else {}
            out.append({**head, "content": "".join(self.text(k) for k in keys), **rest})
        return out

    def resolve(self, trace: Trace) -> Trace:
        """Fill ``messages`` of every call stored with refs (in place; older traces pass unchanged)."""
        for call in trace.model_calls():
            if call.message_refs is not None:
                call.messages, call.message_refs = self.messages(call.message_refs), None
        return trace

    def resolve_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        """The same for a trace read as a plain dict (the viewer's documents)."""
        for step in data.get("steps") or []:
            for call in step.get("model_calls") or []:
                refs = call.pop("message_refs", None)
                if refs is not None:
                    call["messages"] = self.messages(refs)
        return data


@functools.lru_cache(maxsize=16)
def reader(run_dir: str) -> PromptStore:
    """A long-lived reading store per run folder (the viewer resolves episode after episode; each
    lookup reads only what was appended since)."""
    return PromptStore(run_dir)
