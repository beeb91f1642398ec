"""The Ray sweep's limiter (``ConnectionSlots``) and a worker's view of it (``SharedSlots``),
driven without Ray: a stand-in handle runs each ``.remote()`` call as a task on this loop."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from restgraph.agents.connection_limit import SlotProvider, limiting, request_slot
from restgraph.agents.scripted import ScriptedChatModel
from restgraph.evals.sweep.shared_slots import ConnectionSlots, SharedSlots, shared_limit


class LocalHandle:
    """``handle.method.remote(*args)``: an awaitable task of ``target.method(*args)``, like an actor call."""

    def __init__(self, target: Any):
        self.target = target

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.target, name)
        return type(
            "Method", (), {"remote": staticmethod(lambda *args: asyncio.ensure_future(method(*args)))}
        )()


async def _turns(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_slots_are_granted_in_order_and_handed_on_at_release() -> None:
    async def main() -> None:
        slots = ConnectionSlots(2)
        assert await slots.acquire("k", "a", "w0") and await slots.acquire("k", "b", "w1")
        third = asyncio.ensure_future(slots.acquire("k", "c", "w0"))
        other = await slots.acquire("other", "d", "w0")  # another endpoint has its own slots
        await _turns()
        assert other and not third.done()
        await slots.release("a")
        assert await third is True
        stats = await slots.stats()
        assert (
            stats["in_flight"] == {"k": 2, "other": 1} and stats["peak"]["k"] == 2 and stats["granted"] == 4
        )

    asyncio.run(main())


def test_a_dead_workers_leases_go_back_and_its_queued_requests_are_dropped() -> None:
    async def main() -> None:
        slots = ConnectionSlots(2)
        assert await slots.acquire("k", "a", "dead") and await slots.acquire("k", "b", "dead")
        queued_dead = asyncio.ensure_future(slots.acquire("k", "c", "dead"))
        queued_live = asyncio.ensure_future(slots.acquire("k", "d", "live"))
        await _turns()
        assert await slots.release_holder("dead") == 2
        assert (
            await queued_dead is False and await queued_live is True
        )  # the freed slot goes to a live worker
        assert await slots.acquire("k", "e", "dead") is False  # a late request from the dead worker
        stats = await slots.stats()
        assert stats["in_flight"] == {"k": 1} and stats["reclaimed"] == 2

    asyncio.run(main())


def test_a_release_before_or_during_the_wait_withdraws_the_lease() -> None:
    async def main() -> None:
        slots = ConnectionSlots(1)
        assert await slots.acquire("k", "a", "w")
        waiting = asyncio.ensure_future(slots.acquire("k", "b", "w"))
        await _turns()
        await slots.release("b")  # withdrawn while queued
        await slots.release("c")  # released before its acquire arrived: a tombstone
        assert await waiting is False and await slots.acquire("k", "c", "w") is False
        await slots.release("a")
        assert (await slots.stats())["in_flight"] == {"k": 0}

    asyncio.run(main())


def test_a_worker_gives_its_slot_back_when_the_request_fails_or_is_cancelled() -> None:
    async def main() -> dict[str, Any]:
        limiter = ConnectionSlots(1)
        shared = SharedSlots(LocalHandle(limiter), "w0", "10.0.0.5")
        assert isinstance(shared, SlotProvider)
        started = asyncio.Event()

        async def request(fail: bool) -> None:
            async with shared.slot("https://api.example/v1"):
                started.set()
                if fail:
                    raise ConnectionError("endpoint down")
                await asyncio.Event().wait()  # in flight until cancelled

        with pytest.raises(ConnectionError):
            await request(fail=True)
        hung = asyncio.ensure_future(request(fail=False))
        await started.wait()
        queued = asyncio.ensure_future(request(fail=False))  # waits for the slot the hung request holds
        await _turns()
        assert (await limiter.stats())["waiting"] == {"https://api.example/v1": 1}
        for task in (queued, hung):  # an episode timeout cancels both: the waiting one first
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await _turns()
        return await limiter.stats()

    stats = asyncio.run(main())
    assert stats["in_flight"] == {"https://api.example/v1": 0} and stats["waiting"] == {
        "https://api.example/v1": 0
    }


def test_model_requests_lease_through_the_current_shared_slots() -> None:
    async def main() -> dict[str, Any]:
        limiter = ConnectionSlots(3)
        model = ScriptedChatModel(policy=lambda messages: "42", name_="scripted-x")
        from restgraph.agents.retry import RetryPolicy, with_retries

        retrying = with_retries(model, RetryPolicy())
        with limiting(SharedSlots(LocalHandle(limiter), "w0", "10.0.0.5")):
            await asyncio.gather(*(retrying.ainvoke("hi") for _ in range(4)))
        async with request_slot(model):  # outside: nothing leased
            pass
        return await limiter.stats()

    stats = asyncio.run(main())
    assert stats["granted"] == 4 and set(stats["in_flight"].values()) == {0}


def test_loopback_endpoints_are_per_machine_and_the_sweep_limit_is_the_smallest() -> None:
    shared = SharedSlots(None, "w0", "10.0.0.5")
    assert shared.shared_key("http://127.0.0.1:8080/v1") == "10.0.0.5|http://127.0.0.1:8080/v1"
    assert shared.shared_key("http://localhost:8080/v1") == "10.0.0.5|http://localhost:8080/v1"
    assert shared.shared_key("https://api.openai.com/v1") == "https://api.openai.com/v1"
    assert shared.shared_key("scripted:smoke-oracle") == "scripted:smoke-oracle"
    cells = [type("C", (), {"max_connections": m})() for m in (None, 4, 2)]
    assert shared_limit(cells) == 2 and shared_limit(cells[:1]) is None
