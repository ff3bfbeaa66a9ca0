"""The urllib opener the LLM client sends through: hard deadlines and no cross-host redirects.

``urllib``'s ``timeout`` bounds each socket operation, not a request: a server
sending one byte a second keeps every read alive for ever. Here each request
runs under a :class:`Deadline`, a timer that shuts the request's sockets down
when its time is up, wherever the request is (connecting, sending, waiting for
the status line, reading the body), so a request never outlives it.

A redirect to another origin (scheme, host and port) is refused with
:class:`RedirectRefused` before anything is sent there: the request carries the
API key and the prompt, which hold the user's memories, and both are for the
configured host only. Redirects within the configured origin are followed as
urllib does.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from email.message import Message as HeaderMessage
from functools import partial
from typing import IO, Any
from urllib.parse import urlsplit

from dreamgit.errors import InternalSignal

__all__ = ["Deadline", "Opener", "RedirectRefused", "origin", "show_origin"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> tuple[str, str, int | None]:
    """The (scheme, host, port) a URL points at, with the scheme's default port filled in."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or _DEFAULT_PORTS.get(scheme)


def show_origin(url: str) -> str:
    """``scheme://host:port`` of a URL, for messages."""
    scheme, host, port = origin(url)
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"


class RedirectRefused(InternalSignal):
    """The server redirected the request to another origin; nothing was sent there."""

    def __init__(self, target: str, code: int) -> None:
        super().__init__(target)
        self.target = target
        self.code = code


class Deadline:
    """The moment one request must be over by; when it passes, its sockets are shut down."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer = threading.Timer(max(seconds, 0.0), self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        self._timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock`` down when the deadline passes (at once if it has)."""
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    # The plain socket's shutdown, also for TLS: it wakes a blocked read in another
    # thread, which then fails; SSLSocket.shutdown would unwrap under that reader's feet.
    with contextlib.suppress(OSError):  # already closed: nothing left to stop
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _WatchedHTTP(http.client.HTTPConnection):
    """A connection whose socket the request's deadline watches once it is connected.

    ``_WatchedHTTPS`` puts it before ``HTTPSConnection``, so ``connect`` runs that one's
    (with TLS) and then hands the socket to the deadline: one class for both schemes.
    """

    def __init__(self, deadline: Callable[[], Deadline | None], *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._deadline = deadline

    def connect(self) -> None:
        super().connect()
        current = self._deadline()
        if current is not None and self.sock is not None:
            current.watch(self.sock)


class _WatchedHTTPS(_WatchedHTTP, http.client.HTTPSConnection):
    """The watched connection over TLS."""


class _Handlers:
    """The deadline of the request under way, shared by the opener's handlers."""

    def __init__(self) -> None:
        self.current: Deadline | None = None

    def get(self) -> Deadline | None:
        return self.current


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, shared: _Handlers) -> None:
        super().__init__()
        self._shared = shared

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_WatchedHTTP, self._shared.get), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, shared: _Handlers) -> None:
        super().__init__()
        self._shared = shared

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_WatchedHTTPS, self._shared.get), req)


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if origin(newurl) != origin(req.full_url):
            fp.close()
            raise RedirectRefused(newurl, code)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Opener:
    """An opener whose requests each run under a deadline and never leave their origin."""

    def __init__(self) -> None:
        self._shared = _Handlers()
        # build_opener keeps its defaults (proxies from the environment, as users expect)
        # and puts these in place of the default HTTP, HTTPS and redirect handlers.
        self._opener = urllib.request.build_opener(
            _HTTPHandler(self._shared), _HTTPSHandler(self._shared), _SameOriginRedirects()
        )

    def open(
        self, request: urllib.request.Request, *, timeout: float, deadline: Deadline
    ) -> tuple[int, bytes, HeaderMessage]:
        """Send ``request`` and read the whole reply, all before ``deadline``."""
        self._shared.current = deadline
        try:
            with self._opener.open(request, timeout=timeout) as reply:
                return reply.status, reply.read(), reply.headers
        except urllib.error.HTTPError as err:
            try:
                payload = err.read()
            except (OSError, http.client.HTTPException):
                payload = b""
            return err.code, payload, err.headers
        finally:
            self._shared.current = None
