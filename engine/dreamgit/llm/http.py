"""One small JSON-over-HTTP client for the LLM adapters, on the standard library.

Both provider APIs dreamgit speaks are a single JSON POST, so ``urllib.request``
is enough and adds no dependency. What matters is failure handling: every
request has a deadline (``llm.timeout``, for the whole request however slowly the
server sends), every run a total (``llm.run_timeout``, across all its requests,
retries and waits); 429, 408, 5xx, time-outs and dropped connections are
retried with exponential back-off and a deterministic jitter, honouring
``Retry-After``; when the retries run out the client raises
:class:`~dreamgit.errors.ProviderError` (exit code 4, so a scheduler retries
later). Other 4xx answers are the user's to fix (a key, a model name) and raise
:class:`~dreamgit.errors.UserError` at once. The sleep and the clock are
injectable so tests never wait.
"""

from __future__ import annotations

import http.client
import json
import math
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from email.message import Message as HeaderMessage
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

from dreamgit.errors import InternalSignal, ProviderError, UserError
from dreamgit.llm.transport import Deadline, Opener, RedirectRefused, show_origin
from dreamgit.version import __version__

__all__ = ["HttpClient"]

_RETRY_STATUS = frozenset({408, 409, 425, 429})
_REASONS = {
    400: "check the request: a smaller prompt group or another model may be needed",
    401: "check the API key",
    403: "check the API key and that it may use this model",
    404: "check llm.base_url and llm.model",
}


class _Transient(InternalSignal):
    """A failure worth retrying that produced no HTTP status (time-out, dropped connection)."""


class HttpClient:
    """POST JSON, get JSON, with time-outs and bounded retries."""

    def __init__(
        self,
        provider: str,
        *,
        timeout: float = 60.0,
        retries: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 120.0,
        seed: int = 0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        key_hint: str | None = None,
        run_timeout: float | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.provider = provider
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.clock = clock
        self.key_hint = key_hint
        self._jitter = random.Random(seed)
        # The default opener honours the usual *_proxy variables, as users expect.
        self.run_timeout = run_timeout
        self.monotonic = monotonic
        # The run's LLM time starts with its first request (``post_json``), not when the
        # client is made: what a run does before it asks (reading, gathering) is not the
        # model's time.
        self._run_ends = math.inf
        # Proxies from the environment are honoured, as users expect; see transport.py.
        self._opener = Opener()

    def post_json(
        self, url: str, body: Mapping[str, Any], headers: Mapping[str, str] | None = None
    ) -> dict[str, Any]:
        """POST ``body`` as JSON to ``url`` and return the JSON object answered."""
        host = urlsplit(url).netloc or url
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        all_headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"dreamgit/{__version__}",
            **(headers or {}),
        }
        failure = ""
        attempts = 0
        if self.run_timeout is not None and self._run_ends == math.inf:
            self._run_ends = self.monotonic() + self.run_timeout
        for attempt in range(self.retries + 1):
            if self._run_left() <= 0:
                raise self._out_of_time(host, attempts, failure)
            attempts = attempt + 1
            retry_after: float | None = None
            try:
                status, payload, reply_headers = self._send(url, data, all_headers)
            except _Transient as exc:
                failure = str(exc)
            else:
                if 200 <= status < 300:
                    return self._decode(host, payload)
                failure = f"HTTP {status} {_reason(status)}{_detail(payload)}"
                if status not in _RETRY_STATUS and status < 500:
                    raise UserError(
                        f"{self.provider}: {host} refused the request: {failure}",
                        hint=self._hint(status),
                    )
                retry_after = self._retry_after(reply_headers)
                if retry_after is not None and retry_after > self.max_retry_after:
                    failure += f" (asked to wait {retry_after:.0f} s)"
                    break
            if attempt == self.retries:
                break
            delay = self._delay(attempt, retry_after)
            if delay >= self._run_left():
                raise self._out_of_time(host, attempts, failure)
            self.sleep(delay)
        raise ProviderError(
            f"{self.provider}: {host} failed after {attempts} attempt"
            f"{'s' if attempts != 1 else ''}: {failure}",
            hint="the provider is unavailable; dreamgit exits with code 4 so a scheduler can "
            "retry later (llm.timeout and llm.retries set the patience)",
        )

    def _out_of_time(self, host: str, attempts: int, failure: str) -> ProviderError:
        """The error when the run's LLM time (``llm.run_timeout``) is spent."""
        tried = f" after {attempts} attempt{'s' if attempts != 1 else ''}: {failure}"
        return ProviderError(
            f"{self.provider}: {host}: the run's LLM time is spent "
            f"(llm.run_timeout {self.run_timeout:g} s){tried if attempts else ''}",
            hint="answers already received are cached, so the next run asks only the rest; "
            "dreamgit exits with code 4 so a scheduler can retry later "
            "(raise llm.run_timeout for a slow model)",
        )

    def _send(
        self, url: str, data: bytes, headers: Mapping[str, str]
    ) -> tuple[int, bytes, HeaderMessage]:
        request = urllib.request.Request(url, data=data, headers=dict(headers), method="POST")
        limit = min(self.timeout, self._run_left())
        deadline = Deadline(limit)
        try:
            with deadline:
                reply = self._opener.open(request, timeout=self.timeout, deadline=deadline)
        except RedirectRefused as refused:
            raise UserError(
                f"{self.provider}: {urlsplit(url).netloc} redirected the request to "
                f"{show_origin(refused.target)} (HTTP {refused.code}); the API key and the "
                "prompt go only to the configured host, so nothing was sent there",
                hint="if that address serves the provider's API, set llm.base_url to it",
            ) from None
        except (OSError, http.client.HTTPException) as err:
            if deadline.expired or _timed_out(err):
                raise _Transient(f"timed out after {limit:g} s") from None
            reason = err.reason if isinstance(err, urllib.error.URLError) else err
            raise _Transient(f"connection failed: {reason}") from None
        if deadline.expired:
            # A reply cut short by the deadline may still parse: it is never used.
            raise _Transient(f"timed out after {limit:g} s")
        return reply

    def _run_left(self) -> float:
        """Seconds left of the run's LLM time (``llm.run_timeout``)."""
        return max(0.0, self._run_ends - self.monotonic())

    def _decode(self, host: str, payload: bytes) -> dict[str, Any]:
        try:
            value = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            value = None
        if not isinstance(value, dict):
            raise ProviderError(
                f"{self.provider}: {host} answered with something that is not a JSON object: "
                f"{payload[:120]!r}",
                hint="check llm.base_url: it must point at the provider's API",
            )
        return value

    def _retry_after(self, headers: HeaderMessage) -> float | None:
        raw = headers.get("Retry-After") if headers is not None else None
        if not raw:
            return None
        try:
            return max(0.0, float(raw))
        except ValueError:
            pass
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        return max(0.0, float(when.timestamp()) - self.clock())

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return retry_after
        base = min(self.max_backoff, self.backoff * 2.0**attempt)
        # Jitter spreads retries of many scheduled dreams; seeded, so runs are reproducible.
        return base * (1.0 + 0.25 * self._jitter.random())

    def _hint(self, status: int) -> str:
        if status in (401, 403) and self.key_hint:
            return f"{_REASONS[status]} in {self.key_hint}"
        return _REASONS.get(status, "see the provider's message above")


def _timed_out(err: BaseException) -> bool:
    """Whether a failure is a socket time-out, bare or wrapped by urllib."""
    reason = err.reason if isinstance(err, urllib.error.URLError) else err
    return isinstance(reason, TimeoutError)


def _reason(status: int) -> str:
    try:
        return http.client.responses[status]
    except KeyError:
        return ""


def _detail(payload: bytes) -> str:
    """The provider's own error message, when the body carries one."""
    text = payload.decode("utf-8", "replace").strip()
    if not text:
        return ""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return f": {text[:200]}"
    error = value.get("error") if isinstance(value, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return f": {error['message'][:200]}"
    if isinstance(error, str):
        return f": {error[:200]}"
    # JSON without a message of its own says nothing a user could act on.
    return ""
