"""Speed of the embedded local model: server start, per-call latency and tokens/s.

Prints numbers only (no assertions). Usage: python bench/local_model_speed.py [--calls N] [--concurrency K] [--model PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from pydantic import BaseModel

from restgraph.agents import local_model as lm


class Item(BaseModel):
    name: str
    count: int


async def _timed(model, prompt: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    reply = await model.ainvoke(prompt)
    return time.perf_counter() - t0, int(reply.usage_metadata["output_tokens"])


async def main(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    path = lm.check_gguf(lm.Path(args.model)) if args.model else lm.ensure_default_gguf()
    t_fetch = time.perf_counter() - t0
    model = lm.local_chat_model(str(path), max_tokens=args.max_tokens)
    t_start = time.perf_counter() - t0 - t_fetch
    print(f"model: {path.name}  fetch/verify: {t_fetch:.2f}s  server start: {t_start:.2f}s")
    await model.ainvoke("warm up")
    prompts = [f"Tell me fact number {i} about the ocean." for i in range(args.calls)]
    seq = [await _timed(model, p) for p in prompts]
    lat = [s for s, _ in seq]
    toks = sum(n for _, n in seq)
    print(
        f"sequential: {args.calls} calls  latency median {statistics.median(lat):.2f}s  max {max(lat):.2f}s  "
        f"{toks / sum(lat):.1f} output tokens/s"
    )
    t1 = time.perf_counter()
    par = await asyncio.gather(*[_timed(model, p) for p in (prompts * 2)[: args.concurrency * 2]])
    wall = time.perf_counter() - t1
    print(
        f"concurrent ({args.concurrency} at once, {len(par)} calls): wall {wall:.2f}s  "
        f"{sum(n for _, n in par) / wall:.1f} output tokens/s aggregate"
    )
    for words in (100, 800):  # prompt processing dominates agent prompts of a few thousand tokens
        long_prompt = "Summarise in one line: " + " ".join(f"item{i} alpha" for i in range(words))
        t3 = time.perf_counter()
        reply = await model.ainvoke(long_prompt, max_tokens=16)
        took = time.perf_counter() - t3
        n_in = int(reply.usage_metadata["input_tokens"])
        print(
            f"long prompt: {n_in} input tokens in {took:.2f}s ({n_in / took:.0f} prompt tokens/s incl. 16 output tokens)"
        )
    structured = model.with_structured_output(Item, include_raw=True)
    t2 = time.perf_counter()
    out = await structured.ainvoke("Give me an item from a grocery list.")
    print(
        f"structured call: {time.perf_counter() - t2:.2f}s  parsed={out['parsed']!r}  error={out['parsing_error']}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--model", default=None, help="any GGUF path (default: SmolLM2)")
    asyncio.run(main(parser.parse_args()))
