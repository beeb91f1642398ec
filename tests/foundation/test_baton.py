"""Run-to-I/O scheduling (``restgraph.tools.baton``): turns in arrival order, handed on around real waits,
never a deadlock, and nothing at all outside a run or for waits that do not suspend."""

from __future__ import annotations

import asyncio

from restgraph.tools.baton import Baton, Hold, io_wait, reset_hold, set_hold

WAIT = 10  # seconds before a test fails instead of hanging


async def _in_episode(baton: Baton, body, *args):
    """What the runner does around an episode: a hold in the context, a turn first, released after."""
    hold = Hold(baton)
    token = set_hold(hold)
    try:
        await baton.acquire(hold)
        return await body(hold, *args)
    finally:
        baton.release(hold)
        reset_hold(token)


async def test_a_real_wait_hands_the_turn_on_and_queues_for_it_after() -> None:
    baton = Baton(slots=1)
    baton.engaged = True
    log: list[str] = []
    model_reply = asyncio.Event()
    b_started = asyncio.Event()

    async def a(hold: Hold) -> None:
        log.append("a: before the call")
        async with io_wait():
            await model_reply.wait()  # the model is thinking: B must get the turn meanwhile
        log.append(f"a: after the call, holds={baton.holds(hold)}")

    async def b(hold: Hold) -> None:
        b_started.set()
        log.append("b: runs while a waits")
        model_reply.set()
        await asyncio.sleep(0)  # a's wait is over, but the turn is b's until it ends
        log.append("b: still before a")

    first = asyncio.ensure_future(_in_episode(baton, a))
    await asyncio.sleep(0)  # a takes the turn first
    second = asyncio.ensure_future(_in_episode(baton, b))
    await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    assert log == [
        "a: before the call",
        "b: runs while a waits",
        "b: still before a",
        "a: after the call, holds=True",
    ]


async def test_turns_go_in_arrival_order() -> None:
    baton = Baton(slots=1)
    baton.engaged = True
    holder = Hold(baton)
    await baton.acquire(holder)
    order: list[int] = []

    async def waiter(i: int) -> None:
        hold = Hold(baton)
        await baton.acquire(hold)
        order.append(i)
        baton.release(hold)

    waiters = [asyncio.ensure_future(waiter(i)) for i in range(5)]
    await asyncio.sleep(0)
    baton.release(holder)
    await asyncio.wait_for(asyncio.gather(*waiters), WAIT)
    assert order == [0, 1, 2, 3, 4]


async def test_a_holder_blocked_on_another_episode_cannot_deadlock_the_run() -> None:
    """The holder waits (not marked as I/O) for something only the next episode does: its lease
    runs out and the next episode gets the turn."""
    baton = Baton(slots=1, lease_s=0.01)
    baton.engaged = True
    handed = asyncio.Event()

    async def blocked(hold: Hold) -> str:
        await handed.wait()  # e.g. a pool slot the other episode holds
        return "blocked one finished"

    async def other(hold: Hold) -> str:
        handed.set()
        return "other finished"

    first = asyncio.ensure_future(_in_episode(baton, blocked))
    await asyncio.sleep(0)
    second = asyncio.ensure_future(_in_episode(baton, other))
    assert await asyncio.wait_for(asyncio.gather(first, second), WAIT) == [
        "blocked one finished",
        "other finished",
    ]


async def test_waits_that_never_suspend_do_not_engage_it() -> None:
    """A zero-latency model returns without suspending: no hand-over, no limit on turns."""
    baton = Baton(slots=1)
    hold = Hold(baton)
    token = set_hold(hold)
    try:
        await baton.acquire(hold)
        async with io_wait():
            pass  # the "call" returned at once
        await asyncio.sleep(0)
        assert baton.holds(hold) and not baton.engaged
        others = [Hold(baton) for _ in range(3)]
        await asyncio.wait_for(asyncio.gather(*(baton.acquire(h) for h in others)), WAIT)  # nobody queues
        assert all(baton.holds(h) for h in others)
    finally:
        reset_hold(token)


async def test_a_cancelled_waiter_leaves_the_line() -> None:
    baton = Baton(slots=1)
    baton.engaged = True
    holder, quitter, next_one = Hold(baton), Hold(baton), Hold(baton)
    await baton.acquire(holder)
    quitting = asyncio.ensure_future(baton.acquire(quitter))
    waiting = asyncio.ensure_future(baton.acquire(next_one))
    await asyncio.sleep(0)
    quitting.cancel()
    await asyncio.gather(quitting, return_exceptions=True)
    baton.release(holder)
    await asyncio.wait_for(waiting, WAIT)
    assert baton.holds(next_one) and not baton.holds(quitter)


async def test_io_wait_outside_a_run_does_nothing() -> None:
    async with io_wait():
        await asyncio.sleep(0)


def test_a_run_hands_the_turn_on_during_model_calls(tmp_path) -> None:
    """Wired in: inside a run, a model call that really waits has given its episode's turn away."""
    from restgraph.agents.scripted import register_scripted
    from restgraph.evals.benchmark import RunOptions
    from restgraph.evals.runner import run_sync
    from restgraph.tools import baton as baton_module

    seen: list[tuple[bool, bool, bool]] = []

    def policy_factory(task, params):
        def policy(messages) -> str:
            hold = baton_module._HOLD.get()
            seen.append(
                (
                    hold is not None,
                    hold is not None and hold.baton.engaged,
                    hold is not None and hold.baton.holds(hold),
                )
            )
            return "42"

        return policy

    register_scripted("test-baton-probe", policy_factory)
    options = RunOptions(
        benchmark="smoke",
        agent="chat",
        model="scripted:test-baton-probe?latency=0.001",
        concurrency=3,
        bench_options={"n": 6},
    )
    summary = run_sync(options, tmp_path / "run", progress=False)
    assert summary["n"] == 6
    assert seen and all(s == (True, True, False) for s in seen), seen


def test_a_model_calls_latency_leaves_out_the_wait_for_the_next_turn(monkeypatch) -> None:
    """The reply came after 6 s, then the episode waited 5 s in line for its next turn: the trace
    says the model took 1 s (the wait is the harness's, not the model's)."""
    from uuid import uuid4

    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.outputs import ChatGeneration, LLMResult

    import restgraph.evals.recording as recording

    now = [100.0]
    monkeypatch.setattr(recording.time, "perf_counter", lambda: now[0])

    async def main() -> float:
        hold = Hold(Baton())
        token = set_hold(hold)
        try:
            recorder = recording.EpisodeRecorder(model_name="m")
            run_id = uuid4()
            recorder.model_started(run_id, [HumanMessage("q")])
            now[0] = 106.0
            hold.queued_s += 5.0
            recorder.model_ended(run_id, LLMResult(generations=[[ChatGeneration(message=AIMessage("a"))]]))
            return recorder.close_step("answer").model_calls[0].latency_s
        finally:
            reset_hold(token)

    assert asyncio.run(main()) == 1.0
