"""text-davinci-003's tokenizer (p50k_base), loaded from a pinned, sha256-checked table.

RestGPT cuts caller docs, parser schemas, JSON samples and parser output by text-davinci-003
tokens (restbench.md §3.5); cutting with the same tokenizer is what makes a cut fall where the
original's fell. The BPE table is resolved like every data file (``$RESTGRAPH_DATA_DIR/tokenizers/``,
the user cache, then a sha256-checked download through ``restgraph.tools.datafiles``): tiktoken's own implicit
download (unpinned cache location, no project-level offline story) is never used.
"""

from __future__ import annotations

import base64
from functools import cache, lru_cache

import tiktoken
from tiktoken_ext.openai_public import r50k_pat_str

from restgraph.tools.datafiles import DataFile, resolve

P50K_BASE = DataFile(
    "tokenizers",
    "p50k_base.tiktoken",
    "https://openaipublic.blob.core.windows.net/encodings/p50k_base.tiktoken",
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
)


@cache
def p50k_base() -> tiktoken.Encoding:
    """The encoding tiktoken calls ``p50k_base`` (what ``encoding_for_model('text-davinci-003')`` returns)."""
    ranks: dict[bytes, int] = {}
    for line in resolve(P50K_BASE).read_bytes().splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return tiktoken.Encoding(
        name="p50k_base",
        pat_str=r50k_pat_str,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": 50256},
        explicit_n_vocab=50281,
    )


def encode(text: str) -> list[int]:
    # Special-token text in a response is ordinary text here (upstream's default would raise).
    return p50k_base().encode(text, disallowed_special=())


#: texts remembered by ``n_tokens`` and ``cut``: an episode cuts the same docs, schemas and (across
#: epochs) the same response bodies again; p50k encoding of them was ~5 ms of a RestGPT episode
#: (bench/restgpt_episode_cost.py). Bounded: a padded TMDB body is ~10-100 KB.
CACHED_TEXTS = 512


@lru_cache(maxsize=CACHED_TEXTS)
def n_tokens(text: str) -> int:
    return len(encode(text))


@lru_cache(maxsize=CACHED_TEXTS)
def cut(text: str, limit: int, suffix: str = "") -> str:
    """``text`` when it has at most ``limit`` tokens, else its first ``limit`` tokens decoded plus ``suffix``."""
    tokens = encode(text)
    if len(tokens) <= limit:
        return text
    return p50k_base().decode(tokens[:limit]) + suffix
