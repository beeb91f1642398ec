"""Deterministic derived values: image file paths, credit/review ids, keyword and genre ids.

The fixture files hold facts only; everything here is a pure function of the entity it belongs
to, so a response never changes between runs or machines.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import zlib
from functools import lru_cache

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

MOVIE_GENRES = {
    "Action": 28,
    "Adventure": 12,
    "Animation": 16,
    "Comedy": 35,
    "Crime": 80,
    "Documentary": 99,
    "Drama": 18,
    "Family": 10751,
    "Fantasy": 14,
    "History": 36,
    "Horror": 27,
    "Music": 10402,
    "Mystery": 9648,
    "Romance": 10749,
    "Science Fiction": 878,
    "TV Movie": 10770,
    "Thriller": 53,
    "War": 10752,
    "Western": 37,
}
TV_GENRES = {
    "Action & Adventure": 10759,
    "Animation": 16,
    "Comedy": 35,
    "Crime": 80,
    "Documentary": 99,
    "Drama": 18,
    "Family": 10751,
    "Kids": 10762,
    "Mystery": 9648,
    "News": 10763,
    "Reality": 10764,
    "Sci-Fi & Fantasy": 10765,
    "Soap": 10766,
    "Talk": 10767,
    "War & Politics": 10768,
    "Western": 37,
}

DEPARTMENTS = {
    "Director": "Directing",
    "Screenplay": "Writing",
    "Writer": "Writing",
    "Novel": "Writing",
    "Story": "Writing",
    "Characters": "Writing",
    "Producer": "Production",
    "Executive Producer": "Production",
    "Creator": "Writing",
    "Director of Photography": "Camera",
    "Original Music Composer": "Sound",
    "Editor": "Editing",
    "Host": "Crew",
}


def department(job: str) -> str:
    return DEPARTMENTS.get(job, "Crew")


def _digest(*parts: object) -> bytes:
    return hashlib.sha1(":".join(map(str, parts)).encode()).digest()


@lru_cache(maxsize=1 << 20)
def image_path(kind: str, owner: str, n: int, ext: str = ".jpg") -> str:
    """A TMDB-looking file path (``/<27 base62 chars>.jpg``) for image ``n`` of ``owner``."""
    value = int.from_bytes(_digest(kind, owner, n), "big")
    chars = []
    for _ in range(27):
        value, rem = divmod(value, 62)
        chars.append(_B62[rem])
    return "/" + "".join(chars) + ext


@lru_cache(maxsize=1 << 20)
def hex_id(*parts: object) -> str:
    """A 24-hex-digit id like TMDB's credit and review ids."""
    return _digest(*parts).hex()[:24]


@lru_cache(maxsize=65536)
def keyword_id(name: str) -> int:
    return 100000 + zlib.crc32(name.lower().encode()) % 900000


_QUOTES = re.compile(r"['’`]")
_NOT_WORD = re.compile(r"[^0-9a-z\u3040-\u30ff\u4e00-\u9fff]+")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """Lower case, accents and punctuation dropped, ``&`` read as ``and``: the form searches compare.

    ASCII text has no accents to drop (NFKD leaves it as it is), so it skips the per-character pass:
    99% of the names a search index folds, 0.07 -> 0.02 s of a TMDB run's start-up."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower().replace("&", " and ")
    text = _QUOTES.sub("", text)
    return _NOT_WORD.sub(" ", text).strip()
