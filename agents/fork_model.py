"""A model that answers an episode's first calls with recorded outputs, then hands over to another.

This is the model side of a counterfactual fork (``restgraph run --fork-from RUN --fork-at STEP``,
``restgraph.evals.fork``): the first ``len(recorded)`` calls get the source episode's outputs, in
order (a strict replay: the outputs, not a policy, so the graph reaches exactly the state the source
episode was in), and every later call goes to ``then``, the model being tried from that state.

By composition, like ``restgraph.agents.retry.RetryingChatModel``: generation is delegated under
this model's own run (the recorder sees one call per call, whichever model answered it), and tool
binding and structured output are ``then``'s own, re-pointed at this model, so the roles pick the
protocol the continuation model supports and the prefix is replayed through that same protocol.
The recorded prefix is text (``raw_output``): a prefix recorded with provider-side tool calls
cannot be replayed here (as with ``replay:RUN_DIR``).

``on_switch`` runs once, just before the first call that ``then`` answers; the harness checks
there that the replayed prefix reproduced the recorded environment (and stops the episode if not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable
from pydantic import ConfigDict, Field, PrivateAttr

from restgraph.agents.retry import repoint
from restgraph.agents.scripted import ScriptedChatModel, strict_replay_policy


class ForkedChatModel(BaseChatModel):
    """``recorded`` outputs first, then ``then``: one episode's model (build one per episode)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    recorded: list[str]
    then: BaseChatModel
    #: where the outputs came from (said in the error when the graph asks for more than were recorded)
    source: str = "the recorded prefix"
    on_switch: Callable[[], None] | None = Field(default=None, exclude=True)
    _calls: int = PrivateAttr(default=0)
    _prefix: ScriptedChatModel | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return f"fork:{self.then._llm_type}"

    @property
    def replayed(self) -> int:
        """Calls answered so far from the recording."""
        return min(self._calls, len(self.recorded))

    def _replay(self) -> ScriptedChatModel:
        if self._prefix is None:
            self._prefix = ScriptedChatModel(
                policy=strict_replay_policy(self.recorded, self.source), name_="fork-prefix"
            )
        return self._prefix

    def _next(self) -> BaseChatModel:
        """The model that answers this call: the recording while it lasts, then ``then``."""
        index, self._calls = self._calls, self._calls + 1
        if index < len(self.recorded):
            return self._replay()
        if index == len(self.recorded) and self.on_switch is not None:
            self.on_switch()
        return self.then

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        model = self._next()
        if model is self.then:
            return model._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return model._generate(messages, stop=stop)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        model = self._next()
        if model is self.then:
            return await model._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)
        return await model._agenerate(messages, stop=stop)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        return repoint(self.then.bind_tools(tools, **kwargs), self.then, self)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[LanguageModelInput, Any]:
        return repoint(self.then.with_structured_output(schema, **kwargs), self.then, self)
