"""The OpenAI-compatible client against the FAKE server (tests/fake_openai.py): streaming, retries, errors."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from ascendc_lsp.llm.client import (
    Cancelled,
    ChatClient,
    LlmConfig,
    LlmError,
    LlmNotConfigured,
    LlmTimeout,
    LlmUnavailable,
    resolve_config,
)
from ascendc_lsp.settings import LlmSettings
from tests.fake_openai import FakeOpenAIServer, FakeReply

KEY = "sk-client-test-0000-secret"
MSG = [{"role": "user", "content": "write a kernel"}]


def _client(fake: FakeOpenAIServer, **kw: object) -> ChatClient:
    base: dict[str, object] = {"backoff": 0.01, "timeout": 10.0}
    base.update(kw)
    return ChatClient(LlmConfig(base_url=fake.base_url, model="fake-model", api_key=KEY, **base))  # type: ignore[arg-type]


def test_stream_and_plain_replies_with_usage() -> None:
    with FakeOpenAIServer([FakeReply("hello kernel", reasoning="hmm"), FakeReply("plain")]) as fake:
        client = _client(fake)
        pieces: list[str] = []
        r = client.complete(MSG, on_text=pieces.append)
        assert r.text == "hello kernel" and "".join(pieces) == "hello kernel" and r.reasoning == "hmm"
        assert (r.finish_reason, r.prompt_tokens, r.completion_tokens, r.truncated) == ("stop", 120, 80, False)
        r = client.complete(MSG, stream=False)
        assert r.text == "plain" and r.total_tokens == 200
        body = fake.chat_requests()[0].body
        assert body["model"] == "fake-model" and body["stream"] is True and body["messages"] == MSG


def test_500_then_429_then_success_is_retried() -> None:
    with FakeOpenAIServer([FakeReply(status=500), FakeReply(status=429, headers={"Retry-After": "0"}),
                           FakeReply("ok")]) as fake:
        r = _client(fake).complete(MSG)
        assert r.text == "ok" and r.retries == 2 and len(fake.chat_requests()) == 3


def test_persistent_500_gives_a_clear_error() -> None:
    with FakeOpenAIServer(default=FakeReply(status=503, error="overloaded")) as fake, \
            pytest.raises(LlmUnavailable, match=r"not answering \(HTTP 503: overloaded\) after 3 attempt"):
        _client(fake, max_retries=2).complete(MSG)


def test_truncated_stream_returns_partial_text() -> None:
    with FakeOpenAIServer([FakeReply("0123456789abcdef", truncate_after=8, chunk_size=4)]) as fake:
        r = _client(fake).complete(MSG)
        assert r.text == "01234567" and r.truncated and r.finish_reason is None


def test_length_finish_is_truncated() -> None:
    with FakeOpenAIServer([FakeReply("abc", finish_reason="length")]) as fake:
        assert _client(fake).complete(MSG).truncated


def test_timeout() -> None:
    with FakeOpenAIServer(default=FakeReply("late", delay=1.5)) as fake:
        t0 = time.monotonic()
        with pytest.raises(LlmTimeout, match=r"did not answer within 0\.3 s"):
            _client(fake, timeout=0.3, max_retries=1).complete(MSG)
        assert time.monotonic() - t0 < 5


def test_slow_stream_hits_the_overall_deadline() -> None:
    with FakeOpenAIServer(default=FakeReply("x" * 200, chunk_size=2, chunk_delay=0.05)) as fake, \
            pytest.raises(LlmTimeout):
        _client(fake, timeout=0.5, max_retries=0).complete(MSG)


def test_cancellation_between_chunks() -> None:
    cancel = threading.Event()
    with FakeOpenAIServer([FakeReply("y" * 400, chunk_size=4, chunk_delay=0.02)]) as fake:
        seen: list[str] = []

        def on_text(piece: str) -> None:
            seen.append(piece)
            if len(seen) == 3:
                cancel.set()

        with pytest.raises(Cancelled):
            _client(fake).complete(MSG, cancel=cancel, on_text=on_text)
        assert len(seen) == 3


def test_cancellation_during_backoff() -> None:
    cancel = threading.Event()
    with FakeOpenAIServer(default=FakeReply(status=500)) as fake:
        threading.Timer(0.2, cancel.set).start()
        t0 = time.monotonic()
        with pytest.raises(Cancelled):
            _client(fake, backoff=5.0).complete(MSG, cancel=cancel)
        assert time.monotonic() - t0 < 3


def test_refused_key_and_unknown_model_messages_name_the_setting_not_the_key() -> None:
    with FakeOpenAIServer([FakeReply(status=401, error=f"bad key {KEY}"), FakeReply(status=404)]) as fake:
        client = _client(fake)
        with pytest.raises(LlmUnavailable) as e401:
            client.complete(MSG)
        assert "$OPENAI_API_KEY" in str(e401.value) and KEY not in str(e401.value)
        with pytest.raises(LlmUnavailable, match=r"check ascendc\.llm\.model"):
            client.complete(MSG)


def test_bad_request_is_an_llm_error() -> None:
    with FakeOpenAIServer([FakeReply(status=400, error=f"context too long for {KEY}")]) as fake:
        with pytest.raises(LlmError, match="HTTP 400") as err:
            _client(fake).complete(MSG)
        assert KEY not in str(err.value)


def test_connection_refused_says_how_to_configure() -> None:
    client = ChatClient(LlmConfig(base_url="http://127.0.0.1:9/v1", model="m", max_retries=1, backoff=0.01))
    with pytest.raises(LlmUnavailable, match=r"ascendc\.llm\.baseUrl"):
        client.complete(MSG)


def test_resolve_config_from_settings_and_env() -> None:
    with pytest.raises(LlmNotConfigured, match=r"ascendc\.llm\.baseUrl"):
        resolve_config(LlmSettings(), {})
    with pytest.raises(LlmNotConfigured, match="No LLM model"):
        resolve_config(LlmSettings(baseUrl="http://localhost:8000/v1"), {})
    with pytest.raises(LlmNotConfigured, match="not an http"):
        resolve_config(LlmSettings(baseUrl="localhost:8000", model="m"), {})
    cfg = resolve_config(LlmSettings(baseUrl="http://h:1/v1/", model="m", apiKeyEnv="MY_KEY"), {"MY_KEY": KEY})
    assert (cfg.base_url, cfg.model, cfg.api_key, cfg.api_key_env) == ("http://h:1/v1", "m", KEY, "MY_KEY")
    assert KEY not in repr(cfg)
    env = {"OPENAI_BASE_URL": "http://e:2/v1", "OPENAI_API_KEY": "k-env", "OPENAI_MODEL": "em"}
    cfg = resolve_config(LlmSettings(), env)
    assert (cfg.base_url, cfg.model, cfg.api_key) == ("http://e:2/v1", "em", "k-env")
    cfg = resolve_config(None, {"OPENAI_API_KEY": "k", "OPENAI_MODEL": "gpt"})
    assert cfg.base_url == "https://api.openai.com/v1"


def test_key_is_redacted_from_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with FakeOpenAIServer([FakeReply(status=500, error=f"echo {KEY}"), FakeReply("ok")]) as fake:
        _client(fake).complete(MSG)
        logging.getLogger("ascendc_lsp.llm").warning("oops %s", KEY)
    assert KEY not in caplog.text
