"""The code-writer role: show the generated problem to a chat model and extract the function body.

The prompt is the generated problem verbatim (upstream gave it to completion models as a
prefix); the system template (``code_writer_system.txt``) asks a chat model for the whole
function in a fenced block. The reply goes through ``extract_body`` (spec section 7); an answer
without code is recorded as a parse error (``no_code``) and counts as a failed sample.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from langchain_openai.chat_models.base import BaseChatOpenAI
from pydantic import BaseModel

from restgraph.agents.api_use.extract import extract_body, uses_keyword_arguments
from restgraph.tools.events import parse_outcome

ROLE = "code_writer"
_HERE = Path(__file__).parent


class Sample(BaseModel):
    """One model answer and the body extracted from it (``None`` = no code)."""

    raw: str
    body: str | None
    keyword_args: bool = False
    #: the model call failed (after retries); the sample counts as failed
    error: str | None = None


@cache
def _template(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


def build_messages(problem: str) -> list[BaseMessage]:
    return [
        SystemMessage(_template("code_writer_system.txt").strip()),
        HumanMessage(_template("code_writer_user.txt").replace("<<problem>>", problem).rstrip("\n")),
    ]


def sampling_model(
    model: BaseChatModel | Runnable, *, temperature: float | None, seed: int | None
) -> Runnable:
    """Per-call sampling settings. OpenAI-compatible models (the embedded llama.cpp server, vLLM,
    OpenAI) get ``temperature`` and a per-sample ``seed`` bound on the request: without a distinct
    seed per sample, a seeded server returns the same answer N times and pass@k degenerates. Other
    chat models with a ``temperature`` field get a copy with it set (the spec's T=0 default must
    reach every chat model, not only OpenAI's); models without one are used as built."""
    if isinstance(model, BaseChatOpenAI):
        settings = {k: v for k, v in {"temperature": temperature, "seed": seed}.items() if v is not None}
        return model.bind(**settings) if settings else model
    if (
        temperature is not None
        and isinstance(model, BaseChatModel)
        and "temperature" in type(model).model_fields
    ):
        return model.model_copy(update={"temperature": temperature})
    return model


async def write_code(
    model: BaseChatModel | Runnable, problem: str, *, func_name: str, root: str, indent: str
) -> Sample:
    """One model call -> one ``Sample``; the parse outcome is attached to the traced model call."""
    reply = await model.ainvoke(build_messages(problem), config={"metadata": {"role": ROLE}})
    raw = reply.content if isinstance(reply.content, str) else str(reply.content)
    body = extract_body(raw, func_name, root, indent)
    if body is None:
        parse_outcome(reply, parse_error="no_code: the answer holds no function body", role=ROLE)
        return Sample(raw=raw, body=None)
    sample = Sample(raw=raw, body=body, keyword_args=uses_keyword_arguments(body, indent))
    parse_outcome(reply, parsed={"body": body, "keyword_args": sample.keyword_args}, role=ROLE)
    return sample
