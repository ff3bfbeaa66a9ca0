"""The real adapters against real HTTP servers on loopback (OpenAI-compatible and Anthropic)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import ssl
import subprocess
from pathlib import Path

import pytest

from dreamgit.errors import ConfigError, ProviderError, UserError
from dreamgit.llm.anthropic import AnthropicAdapter
from dreamgit.llm.base import Message
from dreamgit.llm.http import HttpClient
from dreamgit.llm.openai import OpenAIAdapter
from llm_support import Reply, anthropic_reply, drip_server, loopback, openai_reply

MESSAGES = [Message("system", "be brief"), Message("user", "hello")]


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests must not be sent to a proxy from the developer's environment."""
    for name in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def _client(provider: str, delays: list[float], **kwargs: float) -> HttpClient:
    return HttpClient(provider, sleep=delays.append, **kwargs)  # type: ignore[arg-type]


def test_openai_adapter_sends_chat_completions_and_reads_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """POST /v1/chat/completions with a bearer key, model, messages, max_tokens, temperature 0."""
    monkeypatch.setenv("MY_KEY", "sk-test")
    with loopback([openai_reply('{"proposals": []}')], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter(
            {"model": "gpt-4o-mini", "base_url": server.url + "/v1", "api_key_env": "MY_KEY"}
        )
        completion = adapter.complete(MESSAGES, max_tokens=300)
    assert completion.text == '{"proposals": []}'
    assert (completion.model, completion.input_tokens, completion.output_tokens) == (
        "gpt-test",
        11,
        7,
    )
    [request] = server.received
    assert request["headers"]["authorization"] == "Bearer sk-test"
    assert request["body"] == {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hello"},
        ],
        "max_tokens": 300,
        "temperature": 0.0,
    }


def test_openai_compatible_local_server_needs_no_key() -> None:
    """Ollama, vLLM and LM Studio run without a key: no Authorization header is sent."""
    with loopback([openai_reply("ok")], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter(
            {
                "model": "llama3.2",
                "base_url": server.url + "/v1",
                "max_tokens_param": "max_completion_tokens",
                "extra_body": {"seed": 7},
            }
        )
        assert adapter.complete(MESSAGES, max_tokens=50).text == "ok"
    [request] = server.received
    assert "authorization" not in request["headers"]
    assert request["body"]["max_completion_tokens"] == 50 and request["body"]["seed"] == 7
    assert "max_tokens" not in request["body"]


def test_openai_endpoint_without_a_key_is_a_config_error() -> None:
    """The real OpenAI API needs a key; the message says which variable to set."""
    adapter = OpenAIAdapter({"model": "gpt-4o-mini"})
    with pytest.raises(ConfigError) as info:
        adapter.complete(MESSAGES, max_tokens=10)
    assert info.value.message == "$OPENAI_API_KEY is not set: the OpenAI API needs a key"
    assert info.value.exit_code == 1


def test_anthropic_adapter_sends_messages_with_version_and_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """POST /v1/messages: x-api-key, anthropic-version, system at the top level."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test")
    with loopback([anthropic_reply('{"proposals": []}')], path="/v1/messages") as server:
        adapter = AnthropicAdapter({"model": "claude-sonnet-4-5", "base_url": server.url})
        completion = adapter.complete(MESSAGES, max_tokens=200)
    assert completion.text == '{"proposals": []}'
    assert (completion.input_tokens, completion.output_tokens) == (13, 5)
    [request] = server.received
    assert request["headers"]["x-api-key"] == "ak-test"
    assert request["headers"]["anthropic-version"] == "2023-06-01"
    assert request["body"] == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 200,
        "temperature": 0.0,
        "system": "be brief",
        "messages": [{"role": "user", "content": "hello"}],
    }


def test_anthropic_endpoint_without_a_key_is_a_config_error() -> None:
    """The Anthropic API needs ANTHROPIC_API_KEY."""
    with pytest.raises(ConfigError, match=r"^\$ANTHROPIC_API_KEY is not set"):
        AnthropicAdapter({"model": "claude"}).complete(MESSAGES, max_tokens=10)


def test_429_then_success_waits_as_retry_after_says() -> None:
    """A rate limit with Retry-After: 2 is retried after exactly 2 seconds, then succeeds."""
    delays: list[float] = []
    replies = [
        Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "2"}),
        openai_reply("fine"),
    ]
    with loopback(replies, path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter(
            {"model": "m", "base_url": server.url + "/v1"}, client=_client("openai", delays)
        )
        assert adapter.complete(MESSAGES, max_tokens=10).text == "fine"
    assert server.count == 2
    assert delays == [2.0]


def test_anthropic_overloaded_then_success_backs_off_exponentially() -> None:
    """529 and 503 without Retry-After wait 1 s then 2 s (plus a seeded jitter under 25 %)."""
    delays: list[float] = []
    replies = [
        Reply(529, {"type": "error", "error": {"message": "overloaded"}}),
        Reply(503, {}),
        anthropic_reply("done"),
    ]
    with loopback(replies, path="/v1/messages") as server:
        adapter = AnthropicAdapter(
            {"model": "m", "base_url": server.url}, client=_client("anthropic", delays)
        )
        assert adapter.complete(MESSAGES, max_tokens=10).text == "done"
    assert server.count == 3
    assert 1.0 <= delays[0] < 1.25 and 2.0 <= delays[1] < 2.5
    again: list[float] = []
    with loopback(replies, path="/v1/messages") as server:
        AnthropicAdapter(
            {"model": "m", "base_url": server.url}, client=_client("anthropic", again)
        ).complete(MESSAGES, max_tokens=10)
    assert again == delays


def test_500_forever_gives_up_with_provider_error_exit_4() -> None:
    """Retries run out: ProviderError names provider, host, attempts and status; exit code 4."""
    delays: list[float] = []
    with loopback([Reply(500, {"error": {"message": "boom"}})], path="/v1/chat/completions") as s:
        adapter = OpenAIAdapter(
            {"model": "m", "base_url": s.url + "/v1"}, client=_client("openai", delays, retries=3)
        )
        with pytest.raises(ProviderError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
    host = s.url.removeprefix("http://")
    assert s.count == 4 and len(delays) == 3
    assert info.value.exit_code == 4
    assert info.value.message == (
        f"openai: {host} failed after 4 attempts: HTTP 500 Internal Server Error: boom"
    )
    assert info.value.hint == (
        "the provider is unavailable; dreamgit exits with code 4 so a scheduler can retry "
        "later (llm.timeout and llm.retries set the patience)"
    )


def test_500_with_retries_from_settings() -> None:
    """llm.retries: 0 means one attempt and no waiting."""
    with loopback([Reply(502, {})], path="/v1/messages") as server:
        adapter = AnthropicAdapter({"model": "m", "base_url": server.url, "retries": 0})
        with pytest.raises(ProviderError, match=r"failed after 1 attempt: HTTP 502 Bad Gateway"):
            adapter.complete(MESSAGES, max_tokens=10)
    assert server.count == 1


def test_time_out_is_retried_then_reported() -> None:
    """A server slower than the time-out: each attempt is cut off, then ProviderError."""
    delays: list[float] = []
    with loopback([Reply(delay=1.0, body={})], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter(
            {"model": "m", "base_url": server.url + "/v1"},
            client=_client("openai", delays, timeout=0.2, retries=1),
        )
        with pytest.raises(ProviderError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
        assert server.reached(2) == 2  # the retry's request, read before the server stops
    assert info.value.message.endswith("failed after 2 attempts: timed out after 0.2 s")


def test_retry_after_beyond_patience_gives_up_at_once() -> None:
    """A provider asking to wait an hour is not waited for."""
    delays: list[float] = []
    with loopback([Reply(429, {}, {"Retry-After": "3600"})], path="/v1/messages") as server:
        adapter = AnthropicAdapter(
            {"model": "m", "base_url": server.url}, client=_client("anthropic", delays)
        )
        with pytest.raises(
            ProviderError, match=r"HTTP 429 Too Many Requests \(asked to wait 3600 s\)"
        ):
            adapter.complete(MESSAGES, max_tokens=10)
    assert server.count == 1 and delays == []


def test_retry_after_as_http_date_uses_the_injected_clock() -> None:
    """An HTTP-date Retry-After is turned into seconds from the client's clock."""
    client = HttpClient("x", clock=lambda: 1_700_000_000.0)
    headers = {"Retry-After": "Tue, 14 Nov 2023 22:13:30 GMT"}
    assert client._retry_after(headers) == 10.0  # type: ignore[arg-type]


def test_unauthorized_is_a_user_error_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    """401 cannot be fixed by waiting: exit code 1, the hint names the key variable."""
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    delays: list[float] = []
    with loopback(
        [Reply(401, {"error": {"message": "Incorrect API key provided"}})],
        path="/v1/chat/completions",
    ) as server:
        adapter = OpenAIAdapter(
            {"model": "m", "base_url": server.url + "/v1"},
            client=HttpClient("openai", sleep=delays.append, key_hint="$OPENAI_API_KEY"),
        )
        with pytest.raises(UserError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
    assert server.count == 1 and delays == []
    assert info.value.message.endswith(
        "refused the request: HTTP 401 Unauthorized: Incorrect API key provided"
    )
    assert info.value.hint == "check the API key in $OPENAI_API_KEY"


def test_wrong_path_is_reported_with_the_base_url_hint() -> None:
    """A base_url missing /v1 meets a 404: the hint points at llm.base_url."""
    with loopback([openai_reply("x")], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter({"model": "m", "base_url": server.url})
        with pytest.raises(UserError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
    assert info.value.hint == "check llm.base_url and llm.model"


def test_answer_that_is_not_json_is_a_provider_error() -> None:
    """A web page instead of the API (a wrong base_url) is reported as such."""
    with loopback([Reply(200, b"<html>hi</html>")], path="/v1/messages") as server:
        adapter = AnthropicAdapter({"model": "m", "base_url": server.url})
        with pytest.raises(ProviderError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
    assert "answered with something that is not a JSON object: b'<html>hi</html>'" in str(
        info.value
    )


def test_answer_without_choices_is_a_provider_error() -> None:
    """A JSON object of the wrong shape names what was missing."""
    with loopback([Reply(200, {"object": "list"})], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter({"model": "m", "base_url": server.url + "/v1"})
        with pytest.raises(ProviderError, match=r"answered without choices\[0\]\.message\.content"):
            adapter.complete(MESSAGES, max_tokens=10)


def test_connection_refused_is_retried_then_provider_error() -> None:
    """Nothing listening on the port: a connection failure, retried, then exit code 4."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    delays: list[float] = []
    adapter = OpenAIAdapter(
        {"model": "m", "base_url": f"http://127.0.0.1:{port}/v1"},
        client=_client("openai", delays, retries=2),
    )
    with pytest.raises(ProviderError, match=r"failed after 3 attempts: connection failed: "):
        adapter.complete(MESSAGES, max_tokens=10)
    assert len(delays) == 2


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({}, "llm.model: the openai adapter needs a model"),
        ({"model": "m", "temprature": 0}, "llm.temprature: unknown setting for adapter 'openai'"),
        ({"model": "m", "timeout": 0}, "llm.timeout: expected a positive number, got 0"),
        ({"model": "m", "run_timeout": 0}, "llm.run_timeout: expected a positive number, got 0"),
        ({"model": "m", "retries": -1}, "llm.retries: expected a whole number ≥ 0, got -1"),
        ({"model": "m", "extra_body": [1]}, "llm.extra_body: expected a mapping, got [1]"),
    ],
)
def test_bad_settings_are_config_errors(settings: dict[str, object], message: str) -> None:
    """Misspelt or wrong-typed settings are named, never silently ignored."""
    with pytest.raises(ConfigError) as info:
        OpenAIAdapter(settings)
    assert info.value.message == message


def _answer_bytes() -> bytes:
    return json.dumps(openai_reply('{"proposals": []}').body).encode()


def _tls_context(folder: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A server context for ``localhost`` with a certificate made here, which the client
    trusts through ``SSL_CERT_FILE`` (as a user's own certificate store would)."""
    if shutil.which("openssl") is None:
        pytest.skip("needs openssl to make a certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@pytest.mark.parametrize(
    ("headers_too", "tls"),
    [(False, False), (True, False), (False, True)],
    ids=["body", "status-line", "tls-body"],
)
def test_a_server_dripping_one_byte_at_a_time_is_cut_off_at_the_request_deadline(
    headers_too: bool, tls: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each byte comes well within llm.timeout, yet the whole request gets llm.timeout only;
    over TLS too, where the deadline watches the encrypted connection's socket. (1.5 s, not
    less: on a busy machine the server's thread may not start the answer sooner.)"""
    body = _answer_bytes()
    context = _tls_context(tmp_path, monkeypatch) if tls else None
    with drip_server(body, interval=0.03, headers_too=headers_too, tls=context) as server:
        adapter = OpenAIAdapter(
            {"model": "m", "base_url": server.url + "/v1", "timeout": 1.5, "retries": 0}
        )
        with pytest.raises(ProviderError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
        host = server.url.split("://", 1)[1]
        assert info.value.message == f"openai: {host} failed after 1 attempt: timed out after 1.5 s"
        server.settle(1)
        assert server.requests == 1
        assert 0 < server.sent < len(body)  # the client hung up; it did not read the answer out


def test_the_run_timeout_bounds_all_requests_and_retries_together() -> None:
    """Ten retries allowed, but llm.run_timeout ends them: exit 4 naming the setting."""
    delays: list[float] = []
    with drip_server(_answer_bytes(), interval=0.03) as server:
        client = HttpClient(
            "openai", timeout=0.4, retries=10, backoff=0.01, run_timeout=1.0, sleep=delays.append
        )
        adapter = OpenAIAdapter({"model": "m", "base_url": server.url + "/v1"}, client=client)
        with pytest.raises(ProviderError) as info:
            adapter.complete(MESSAGES, max_tokens=10)
        said = re.search(r"after (\d+) attempts?:", info.value.message)
        attempts = int(said.group(1)) if said else 0
        assert 1 <= attempts < 11  # about 3 of 0.4 s fit in 1 s, never the 11 allowed
        server.settle(attempts)
        assert server.requests == attempts
    host = server.url.removeprefix("http://")
    plural = "s" if attempts != 1 else ""
    assert info.value.message.startswith(
        f"openai: {host}: the run's LLM time is spent (llm.run_timeout 1 s) "
        f"after {attempts} attempt{plural}: timed out after "
    )
    assert info.value.exit_code == 4
    assert info.value.hint == (
        "answers already received are cached, so the next run asks only the rest; dreamgit "
        "exits with code 4 so a scheduler can retry later (raise llm.run_timeout for a slow model)"
    )
    with pytest.raises(ProviderError, match=r"run's LLM time is spent \(llm.run_timeout 1 s\)$"):
        adapter.complete(MESSAGES, max_tokens=10)  # spent: not even one more attempt
    assert server.requests == attempts


def test_the_run_timeout_starts_with_the_first_request_not_when_the_client_is_made() -> None:
    """A run that reads and gathers for longer than llm.run_timeout before it asks still
    gets its answer: the run's LLM time is the model's, counted from the first request."""
    now = [100.0]
    client = HttpClient("openai", timeout=5, retries=0, run_timeout=1.0, monotonic=lambda: now[0])
    now[0] += 30.0  # the run's own work before its first question
    with loopback([openai_reply("an answer")], path="/v1/chat/completions") as server:
        adapter = OpenAIAdapter({"model": "m", "base_url": server.url + "/v1"}, client=client)
        assert adapter.complete(MESSAGES, max_tokens=10).text == "an answer"
        now[0] += 1.5  # past the run's LLM time, counted from that first request
        spent = r"run's LLM time is spent \(llm.run_timeout 1 s\)$"
        with pytest.raises(ProviderError, match=spent):
            adapter.complete(MESSAGES, max_tokens=10)
    assert server.count == 1


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_redirect_to_another_port_is_refused_and_the_key_never_sent_there(
    provider: str, code: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two real servers: the configured one redirects to the other, which gets nothing."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-secret")
    path = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}[provider]
    with loopback([openai_reply("stolen")], path=path) as elsewhere:
        moved = Reply(code, {}, {"Location": elsewhere.url + path})
        with loopback([moved], path=path) as configured:
            adapter: OpenAIAdapter | AnthropicAdapter
            if provider == "openai":
                adapter = OpenAIAdapter({"model": "m", "base_url": configured.url + "/v1"})
            else:
                adapter = AnthropicAdapter({"model": "m", "base_url": configured.url})
            with pytest.raises(UserError) as info:
                adapter.complete(MESSAGES, max_tokens=10)
    assert elsewhere.count == 0 and configured.count == 1
    sent = configured.received[0]["headers"]
    assert sent.get("authorization") == "Bearer sk-secret" or sent.get("x-api-key") == "ak-secret"
    host = configured.url.removeprefix("http://")
    assert info.value.message == (
        f"{provider}: {host} redirected the request to {elsewhere.url} (HTTP {code}); the API "
        "key and the prompt go only to the configured host, so nothing was sent there"
    )
    assert info.value.hint == "if that address serves the provider's API, set llm.base_url to it"


@pytest.mark.parametrize(
    ("adapter", "path", "message", "hint"),
    [
        (
            OpenAIAdapter,
            "/v1/chat/completions",
            "answered without choices[0].message.content",
            "check that llm.base_url serves the OpenAI chat-completions API",
        ),
        (
            AnthropicAdapter,
            "/v1/messages",
            "answered without text content blocks",
            "check that llm.base_url serves the Anthropic messages API",
        ),
    ],
)
def test_answer_of_the_wrong_shape_names_the_url_and_what_was_missing(
    adapter: type[OpenAIAdapter] | type[AnthropicAdapter], path: str, message: str, hint: str
) -> None:
    """A JSON object without the expected fields is a provider error saying which."""
    with loopback([Reply(200, {"object": "list"})], path=path) as server:
        base = server.url + ("/v1" if adapter is OpenAIAdapter else "")
        made = adapter({"model": "m", "base_url": base, "api_key_env": "NO_KEY_NEEDED"})
        with pytest.raises(ProviderError) as info:
            made.complete(MESSAGES, max_tokens=10)
    url = server.url + path
    assert info.value.render() == f"{made.name}: {url} {message}\nhint: {hint}"
