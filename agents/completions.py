"""The completions protocol (``-M api=completions``): the raw prompt to ``POST /v1/completions``.

Why: the original RestGPT called the *completions* API (``langchain.OpenAI(model_name=
"text-davinci-003", ...)``): the prompt text went as it is, and the model continued it ("Plan step
1: ...") instead of answering a chat turn wrapped in the server's chat template. The paper's models
are retired; the rows still rerunnable are open models (Llama2-13B, Vicuna-13B) behind vLLM or
llama.cpp, whose ``/v1/completions`` is what the original code would have called. So the roles
keep talking to a LangChain chat model, and this one sends what the original sent: ``prompt``
(the messages' text; one message for RestGPT's roles), ``max_tokens``, ``temperature``, ``stop``
and the rest of ``BaseOpenAI``'s published parameters (``top_p`` 1, penalties 0, ``n`` 1,
``logit_bias`` {}), through the OpenAI SDK (its errors are the ones the retry policy knows).

``chat`` stays the default for chat models; completion-only model names (text-davinci-003,
gpt-3.5-turbo-instruct, davinci-002...) default to ``completions`` (:func:`default_api`).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field, SecretStr

Api = Literal["chat", "completions"]
APIS: tuple[str, ...] = ("chat", "completions")

#: models served only by the completions endpoint (OpenAI's, as the original called them)
COMPLETION_ONLY = re.compile(
    r"(text-(davinci|curie|babbage|ada)-\d{3}|davinci(-\d{3})?|curie|babbage(-\d{3})?|ada"
    r"|gpt-3\.5-turbo-instruct(-\d{4})?)"
)


def default_api(spec: str) -> Api:
    """``completions`` where the original would have used it (a completion-only model), else ``chat``."""
    name = spec.strip().partition("?")[0].partition(":")[2]
    return "completions" if COMPLETION_ONLY.fullmatch(name) else "chat"


def prompt_text(messages: list[BaseMessage]) -> str:
    """The prompt a completions call sends: the one message's text as it is (RestGPT's roles send
    one user message); several messages are joined by a blank line, in order."""
    parts = [m.content if isinstance(m.content, str) else str(m.content) for m in messages]
    return parts[0] if len(parts) == 1 else "\n\n".join(parts)


class CompletionsChatModel(BaseChatModel):
    """A chat model whose every call is one ``/v1/completions`` request (see the module doc)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, populate_by_name=True)

    model_name: str = Field(alias="model")
    #: the endpoint (``.../v1``); None: OpenAI's own. Named as ``ChatOpenAI`` names it, so the
    #: per-endpoint request limit (``restgraph.agents.connection_limit``) keys it the same way
    openai_api_base: str | None = Field(default=None, alias="base_url")
    api_key: SecretStr | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    #: BaseOpenAI's published defaults, sent as the original sent them
    top_p: float = 1.0
    frequency_penalty: float = 0.0
    presence_penalty: float = 0.0
    stop: list[str] | None = None
    seed: int | None = None
    timeout: float = 120.0
    model_kwargs: dict[str, Any] = Field(default_factory=dict)
    #: clients the OpenAI SDK should use (tests pass in-process transports); None: its own
    http_client: Any = Field(default=None, exclude=True)
    http_async_client: Any = Field(default=None, exclude=True)

    @property
    def _llm_type(self) -> str:
        return "openai-completions"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        """What the trace records as the call's settings (and the stuck-call watch compares)."""
        return {
            "model_name": self.model_name,
            "api": "completions",
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }

    def request(self, messages: list[BaseMessage], stop: list[str] | None) -> dict[str, Any]:
        """The request body's parameters (``prompt`` included), as ``langchain.OpenAI`` built them."""
        body: dict[str, Any] = {
            "model": self.model_name,
            "prompt": prompt_text(messages),
            "temperature": 0.0 if self.temperature is None else self.temperature,
            "top_p": self.top_p,
            "frequency_penalty": self.frequency_penalty,
            "presence_penalty": self.presence_penalty,
            "n": 1,
            "logit_bias": {},
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        stop = stop if stop is not None else self.stop
        if stop:  # the original omitted it when a role had none (the parser's calls)
            body["stop"] = list(stop)
        if self.seed is not None:
            body["seed"] = self.seed
        return {**body, **self.model_kwargs}

    def _client_kwargs(self) -> dict[str, Any]:
        key = self.api_key.get_secret_value() if self.api_key is not None else None
        return {
            "api_key": key or ("not-needed" if self.openai_api_base else None),
            "base_url": self.openai_api_base,
            "max_retries": 0,  # the retry policy retries (restgraph.agents.retry)
            "timeout": self.timeout,
        }

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        import openai

        with openai.OpenAI(**self._client_kwargs(), http_client=self.http_client) as client:
            response = client.completions.create(**self.request(messages, stop), **kwargs)
        return _result(response)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        import openai

        client = openai.AsyncOpenAI(**self._client_kwargs(), http_client=self.http_async_client)
        try:
            response = await client.completions.create(**self.request(messages, stop), **kwargs)
        finally:
            if self.http_async_client is None:  # a client of our own: its sockets belong to this loop
                await client.close()
        return _result(response)


def _result(response: Any) -> ChatResult:
    choice = response.choices[0]
    usage = response.usage
    message = AIMessage(
        content=choice.text or "",
        response_metadata={
            "finish_reason": choice.finish_reason,
            "model_name": response.model,
            "api": "completions",
        },
        usage_metadata={
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "total_tokens": usage.total_tokens,
        }
        if usage is not None
        else None,
    )
    return ChatResult(generations=[ChatGeneration(message=message)])
