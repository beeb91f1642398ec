"""inspect_ai's side of ``bench/harness_ab.py``: the same workload (N samples x 3 model calls, a
tool call per turn: two ``add`` calls, then ``submit``) through ``basic_agent`` with ``mockllm``,
logging on as inspect does by default. Needs ``pip install inspect_ai`` (not a restgraph
dependency); ``bench/harness_ab.py`` skips this side when it is missing.

    python bench/ab/inspect_task.py --episodes 200 --concurrency 32 --log-dir DIR
"""

from __future__ import annotations

import argparse
import random
import re
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes
from inspect_ai.solver import basic_agent
from inspect_ai.tool import tool


@tool
def add() -> Any:
    async def execute(a: int, b: int) -> int:
        """Add two integers.

        Args:
          a: first integer
          b: second integer
        """
        return a + b

    return execute


def policy(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
    turn = sum(isinstance(m, ChatMessageTool) for m in messages)
    question = next(m for m in messages if m.role == "user").text
    a, b = (int(x) for x in re.findall(r"\d+", question)[:2])
    if turn < 2:
        output = ModelOutput.for_tool_call("mockllm/model", "add", {"a": a, "b": turn})
    else:
        output = ModelOutput.for_tool_call("mockllm/model", "submit", {"answer": str(a + b)})
    # a usage of its own, as restgraph's scripted model reports one (mockllm would otherwise count
    # tokens with tiktoken, which downloads its encoding)
    output.usage = ModelUsage(
        input_tokens=len(question.split()), output_tokens=5, total_tokens=len(question.split()) + 5
    )
    return output


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--log-dir", required=True)
    args = parser.parse_args()
    rng = random.Random(7)
    questions = [(rng.randint(2, 60), rng.randint(2, 40)) for _ in range(args.episodes)]
    task = Task(
        dataset=[
            Sample(input=f"What is {a} + {b}? Reply with the number only.", target=str(a + b))
            for a, b in questions
        ],
        solver=basic_agent(tools=[add()], max_attempts=1),
        scorer=includes(),
    )
    model = get_model("mockllm/model", custom_outputs=policy)
    logs = eval(
        task,
        model=model,
        max_samples=args.concurrency,
        max_connections=args.concurrency,
        display="none",
        log_dir=args.log_dir,
    )
    print(logs[0].results.scores[0].metrics["accuracy"].value if logs[0].results else "no results")


if __name__ == "__main__":
    main()
