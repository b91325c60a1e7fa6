"""OpenAI-compatible chat client: configuration, retries with backoff, streaming, cancellation, redaction.

Works against any endpoint speaking the chat-completions protocol (OpenAI, vLLM, Ollama, LM Studio...):

    config = resolve_config(settings.llm)          # raises LlmNotConfigured with a how-to message
    client = ChatClient(config)
    reply = client.complete([{"role": "user", "content": "..."}], cancel=event, on_text=print)

Every failure surfaces as an `LlmError` whose message is meant for the user (never a traceback), and the API key
never reaches a log line, an error message or a trajectory file (`redact`, `SecretFilter`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from ascendc_lsp.errors import Cancelled

if TYPE_CHECKING:
    from ascendc_lsp.settings import LlmSettings

log = logging.getLogger(__name__)

DEFAULT_OPENAI_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "EMPTY"  # what vLLM / Ollama / LM Studio accept when they need no key

CONFIG_HELP = (
    "Configure an OpenAI-compatible endpoint: set `ascendc.llm.baseUrl` (e.g. http://localhost:8000/v1 for vLLM, "
    "http://localhost:11434/v1 for Ollama) and `ascendc.llm.model` in the editor settings or in an "
    "ascendc-lsp.toml ([llm] baseUrl = \"...\", model = \"...\"), and put the API key in the environment variable "
    "named by `ascendc.llm.apiKeyEnv` (default OPENAI_API_KEY). OPENAI_BASE_URL, OPENAI_API_KEY and "
    "OPENAI_MODEL are used when the settings leave them empty."
)


class LlmError(Exception):
    """A user-facing problem with the LLM endpoint; `str()` is the message to show."""


class LlmNotConfigured(LlmError):
    """No endpoint or no model: the message says how to configure one."""


class LlmUnavailable(LlmError):
    """The endpoint refused (connection refused, 401/403, unknown model, persistent 5xx/429)."""


class LlmTimeout(LlmError):
    """The endpoint did not answer within the timeout (after the retries)."""


# ------------------------------------------------------------------------------------------- secrets


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every secret (of 4+ characters) replaced by `***`."""
    for secret in secrets:
        if secret and len(secret) >= 4 and secret != PLACEHOLDER_KEY:
            text = text.replace(secret, "***")
    return text


def redact_obj(value: Any, secrets: Iterable[str]) -> Any:
    """`value` (JSON-like: dicts, lists, strings) with every secret redacted from its strings."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: redact_obj(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_obj(v, secrets) for v in value]
    return value


class SecretFilter(logging.Filter):
    """A logging filter that redacts known secrets from records (message, args and exception text)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets: set[str] = {s for s in secrets if s}

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:
            return True
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg = redact(message, self.secrets)
        record.args = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        return True


_FILTER = SecretFilter()
_FILTERED_LOGGERS = ("ascendc_lsp", "ascendc_lsp.llm", "openai", "httpx", "httpcore")
_filter_lock = threading.Lock()


def protect_secret(secret: str) -> None:
    """Register `secret` with the redacting filter on our, openai's and httpx's loggers."""
    if not secret or secret == PLACEHOLDER_KEY:
        return
    with _filter_lock:
        _FILTER.secrets.add(secret)
        for name in _FILTERED_LOGGERS:
            logger = logging.getLogger(name)
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)
            for handler in logger.handlers:
                if _FILTER not in handler.filters:
                    handler.addFilter(_FILTER)
        for handler in logging.getLogger().handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)


# ------------------------------------------------------------------------------------------- config


@dataclass(frozen=True)
class LlmConfig:
    base_url: str
    model: str
    api_key: str = field(default=PLACEHOLDER_KEY, repr=False)
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 180.0  # seconds for a whole reply
    connect_timeout: float = 10.0
    max_retries: int = 3  # on 429, 5xx, connection errors and timeouts
    backoff: float = 1.0  # first delay in seconds; doubles each retry, with jitter
    backoff_max: float = 30.0
    temperature: float | None = 0.2
    max_tokens: int | None = None
    stream: bool = True

    def describe(self) -> str:
        """Where requests go, for progress lines (no key)."""
        return f"{self.model} at {self.base_url}"

    def secrets(self) -> tuple[str, ...]:
        return (self.api_key,) if self.api_key and self.api_key != PLACEHOLDER_KEY else ()


def _is_local(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    return host in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or host.endswith(".local")


def resolve_config(
    settings: LlmSettings | None = None,
    env: Mapping[str, str] | None = None,
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str | None = None,
    **overrides: Any,
) -> LlmConfig:
    """The endpoint from explicit arguments, then settings, then the OPENAI_* environment variables.

    Raises LlmNotConfigured (with CONFIG_HELP) when no base URL or no model can be found.
    """
    env = os.environ if env is None else env
    key_env = api_key_env or (settings.apiKeyEnv if settings is not None else "") or "OPENAI_API_KEY"
    url = base_url or (settings.baseUrl if settings is not None else "") or env.get("OPENAI_BASE_URL", "")
    key = env.get(key_env, "") or env.get("OPENAI_API_KEY", "")
    name = model or (settings.model if settings is not None else "") or env.get("OPENAI_MODEL", "")
    if not url and key:
        url = DEFAULT_OPENAI_URL
    if not url:
        raise LlmNotConfigured(f"No LLM endpoint is configured. {CONFIG_HELP}")
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise LlmNotConfigured(f"The LLM base URL {url!r} is not an http(s) URL. {CONFIG_HELP}")
    if not name:
        raise LlmNotConfigured(f"No LLM model is configured for {url}. {CONFIG_HELP}")
    if not key and not _is_local(url):
        log.info("no API key in $%s or $OPENAI_API_KEY; sending requests to %s without one", key_env, url)
    cfg = LlmConfig(base_url=url.rstrip("/"), model=name, api_key=key or PLACEHOLDER_KEY, api_key_env=key_env)
    if overrides:
        from dataclasses import replace

        cfg = replace(cfg, **overrides)
    protect_secret(cfg.api_key)
    return cfg


# ------------------------------------------------------------------------------------------- client


@dataclass
class Completion:
    text: str
    reasoning: str = ""  # `reasoning_content` some servers (vLLM, DeepSeek) send beside the answer
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0
    retries: int = 0
    truncated: bool = False  # the stream ended without a finish reason, or with "length"

    @property
    def total_tokens(self) -> int | None:
        if self.prompt_tokens is None and self.completion_tokens is None:
            return None
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)


Message = Mapping[str, Any]


class ChatClient:
    """Blocking chat completions with our own retry/backoff loop (the openai client's is turned off)."""

    def __init__(self, config: LlmConfig, *, sleep: Callable[[float], None] | None = None) -> None:
        self.config = config
        self._client: Any = None
        self._sleep = sleep
        protect_secret(config.api_key)

    def _openai(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError as exc:  # pragma: no cover - openai is a dependency
                raise LlmUnavailable(f"the openai package is not installed ({exc}); pip install openai") from None
            self._client = openai.OpenAI(
                base_url=self.config.base_url,
                api_key=self.config.api_key,
                max_retries=0,
                timeout=openai.Timeout(self.config.timeout, connect=self.config.connect_timeout),
            )
        return self._client

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client = None

    def _wait(self, seconds: float, cancel: threading.Event | None) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
            return
        if cancel is not None:
            if cancel.wait(seconds):
                raise Cancelled()
        else:
            time.sleep(seconds)

    def _message(self, text: str) -> str:
        return redact(text, self.config.secrets())

    def complete(
        self,
        messages: Sequence[Message],
        *,
        cancel: threading.Event | None = None,
        on_text: Callable[[str], None] | None = None,
        stream: bool | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Completion:
        """One reply. Raises Cancelled, LlmTimeout, LlmUnavailable or LlmError (user-facing messages)."""
        import openai

        cfg = self.config
        use_stream = cfg.stream if stream is None else stream
        attempts = max(0, cfg.max_retries) + 1
        last_problem = ""
        for attempt in range(attempts):
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            started = time.monotonic()
            retry_after: float | None = None
            try:
                result = self._once(messages, use_stream, cancel, on_text, max_tokens, temperature, started)
                result.retries = attempt
                return result
            except Cancelled:
                raise
            except _PartialStream as partial:
                partial.completion.retries = attempt
                return partial.completion
            except openai.AuthenticationError:
                raise LlmUnavailable(
                    f"The LLM endpoint {cfg.base_url} refused the API key (HTTP 401). Put a valid key in the "
                    f"environment variable ${cfg.api_key_env} (named by ascendc.llm.apiKeyEnv)."
                ) from None
            except openai.PermissionDeniedError:
                raise LlmUnavailable(
                    f"The LLM endpoint {cfg.base_url} denied access (HTTP 403) for model {cfg.model!r}; check the "
                    f"key in ${cfg.api_key_env} and the model's permissions."
                ) from None
            except openai.NotFoundError as exc:
                raise LlmUnavailable(
                    f"The LLM endpoint {cfg.base_url} answered 404 for model {cfg.model!r} "
                    f"({self._message(_error_text(exc))}); check ascendc.llm.model and that baseUrl ends in /v1."
                ) from None
            except openai.RateLimitError as exc:
                last_problem = f"rate limited (HTTP 429): {self._message(_error_text(exc))}"
                retry_after = _retry_after(exc)
            except openai.APITimeoutError:
                last_problem = f"no answer within {cfg.timeout:g} s"
                if attempt + 1 >= attempts:
                    raise LlmTimeout(
                        f"The LLM endpoint {cfg.base_url} did not answer within {cfg.timeout:g} s "
                        f"({attempts} attempt(s))."
                    ) from None
            except _Deadline:
                last_problem = f"the reply took longer than {cfg.timeout:g} s"
                if attempt + 1 >= attempts:
                    raise LlmTimeout(
                        f"The LLM endpoint {cfg.base_url} did not finish its reply within {cfg.timeout:g} s "
                        f"({attempts} attempt(s))."
                    ) from None
            except openai.APIConnectionError as exc:
                last_problem = f"cannot connect: {self._message(str(exc.__cause__ or exc))}"
            except _Transport as exc:
                last_problem = f"the connection broke: {self._message(str(exc))}"
            except openai.APIStatusError as exc:
                if exc.status_code < 500 and exc.status_code not in (408, 409):
                    raise LlmError(
                        f"The LLM endpoint {cfg.base_url} rejected the request (HTTP {exc.status_code}): "
                        f"{self._message(_error_text(exc))}"
                    ) from None
                last_problem = f"HTTP {exc.status_code}: {self._message(_error_text(exc))}"
            except openai.OpenAIError as exc:
                raise LlmError(f"LLM request failed: {self._message(str(exc))}") from None
            if attempt + 1 < attempts:
                delay = min(cfg.backoff_max, cfg.backoff * (2**attempt)) * (0.75 + 0.5 * random.random())
                if retry_after is not None:
                    delay = min(cfg.backoff_max, max(retry_after, 0.0))
                log.info("LLM request failed (%s); retry %d/%d in %.1f s", last_problem, attempt + 1,
                         attempts - 1, delay)
                self._wait(delay, cancel)
        raise LlmUnavailable(
            f"The LLM endpoint {cfg.base_url} is not answering ({last_problem}) after {attempts} attempt(s). "
            f"{CONFIG_HELP if 'connect' in last_problem else ''}".rstrip()
        )

    def _once(
        self,
        messages: Sequence[Message],
        stream: bool,
        cancel: threading.Event | None,
        on_text: Callable[[str], None] | None,
        max_tokens: int | None,
        temperature: float | None,
        started: float,
    ) -> Completion:
        cfg = self.config
        kwargs: dict[str, Any] = {"model": cfg.model, "messages": [dict(m) for m in messages]}
        temp = cfg.temperature if temperature is None else temperature
        if temp is not None:
            kwargs["temperature"] = temp
        limit = max_tokens or cfg.max_tokens
        if limit:
            kwargs["max_tokens"] = limit
        client = self._openai()
        if not stream:
            response = client.chat.completions.create(**kwargs)
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            choices = getattr(response, "choices", None) or []
            if not choices:
                raise LlmError(f"The LLM endpoint {cfg.base_url} sent a reply without choices.")
            msg = choices[0].message
            text = (getattr(msg, "content", None) or "") if msg is not None else ""
            reasoning = (getattr(msg, "reasoning_content", None) or "") if msg is not None else ""
            usage = getattr(response, "usage", None)
            finish = getattr(choices[0], "finish_reason", None)
            if on_text is not None and text:
                on_text(text)
            return Completion(
                text=text,
                reasoning=reasoning,
                finish_reason=finish,
                prompt_tokens=getattr(usage, "prompt_tokens", None) if usage else None,
                completion_tokens=getattr(usage, "completion_tokens", None) if usage else None,
                seconds=time.monotonic() - started,
                truncated=finish == "length",
            )
        parts: list[str] = []
        reasoning_parts: list[str] = []
        finish_reason: str | None = None
        usage_obj: Any = None
        chunks = client.chat.completions.create(stream=True, **kwargs)
        try:
            try:
                for chunk in chunks:
                    if cancel is not None and cancel.is_set():
                        raise Cancelled()
                    if time.monotonic() - started > cfg.timeout:
                        raise _Deadline()
                    if getattr(chunk, "usage", None):
                        usage_obj = chunk.usage
                    for choice in getattr(chunk, "choices", None) or []:
                        delta = getattr(choice, "delta", None)
                        piece = (getattr(delta, "content", None) or "") if delta is not None else ""
                        thought = (getattr(delta, "reasoning_content", None) or "") if delta is not None else ""
                        if piece:
                            parts.append(piece)
                            if on_text is not None:
                                on_text(piece)
                        if thought:
                            reasoning_parts.append(thought)
                        if getattr(choice, "finish_reason", None):
                            finish_reason = choice.finish_reason
            except (Cancelled, _Deadline):
                raise
            except Exception as exc:
                import openai

                if (parts and isinstance(exc, openai.APIError | ConnectionError | OSError)) or (
                    parts and type(exc).__module__.startswith(("httpx", "httpcore"))
                ):
                    log.info("the LLM stream broke after %d characters: %s", sum(map(len, parts)),
                             self._message(str(exc)))
                    raise _PartialStream(
                        Completion(
                            text="".join(parts),
                            reasoning="".join(reasoning_parts),
                            finish_reason=None,
                            seconds=time.monotonic() - started,
                            truncated=True,
                        )
                    ) from None
                if type(exc).__module__.startswith(("httpx", "httpcore")):
                    raise _Transport(str(exc)) from None
                raise
        finally:
            with contextlib.suppress(Exception):
                chunks.close()
        return Completion(
            text="".join(parts),
            reasoning="".join(reasoning_parts),
            finish_reason=finish_reason,
            prompt_tokens=getattr(usage_obj, "prompt_tokens", None) if usage_obj else None,
            completion_tokens=getattr(usage_obj, "completion_tokens", None) if usage_obj else None,
            seconds=time.monotonic() - started,
            truncated=finish_reason in (None, "length"),
        )


class _PartialStream(Exception):
    def __init__(self, completion: Completion) -> None:
        super().__init__("partial stream")
        self.completion = completion


class _Deadline(Exception):
    pass


class _Transport(Exception):
    pass


def _error_text(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:300]
        if isinstance(err, str):
            return err[:300]
    message = getattr(exc, "message", None) or str(exc)
    return str(message)[:300]


def _retry_after(exc: Exception) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name in ("retry-after-ms", "retry-after"):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            value = float(raw)
        except ValueError:
            continue
        return value / 1000.0 if name.endswith("-ms") else value
    return None


__all__ = [
    "CONFIG_HELP",
    "Cancelled",
    "ChatClient",
    "Completion",
    "LlmConfig",
    "LlmError",
    "LlmNotConfigured",
    "LlmTimeout",
    "LlmUnavailable",
    "SecretFilter",
    "protect_secret",
    "redact",
    "redact_obj",
    "resolve_config",
]
