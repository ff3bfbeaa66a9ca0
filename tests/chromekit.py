"""A real headless Chromium, driven over the DevTools protocol on a pipe (no extra package).

Chromium reads commands on file descriptor 3 and writes replies and events on 4,
each a JSON object ended by a NUL byte (``--remote-debugging-pipe``). Started with
an empty profile and everything that could reach the network switched off.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

__all__ = ["Browser", "chromium_binary", "open_browser"]

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
)


def chromium_binary() -> str | None:
    """Debian's ``chromium`` (or a ``chromium-browser``) on PATH, else None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One page of a running Chromium: send commands, keep every event."""

    def __init__(self, process: subprocess.Popen[bytes], write: int, read: int) -> None:
        self._process, self._write, self._read = process, write, read
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def send(self, method: str, timeout: float = 30, **params: Any) -> dict[str, Any]:
        """Send a command (to the page once attached) and wait for its result."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 30) -> dict[str, Any]:
        """The first event named ``method`` (already received or still to come)."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get("method") == method:
                    return event
            self.events.append(self._receive(deadline))

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page (the test reads the DOM)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        """A PNG of the whole page."""
        metrics = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": metrics["width"], "height": metrics["height"], "scale": 1}
        shot = self.send(
            "Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True
        )
        path.write_bytes(base64.b64decode(shot["data"]))

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._read], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise RuntimeError(f"chromium exited ({self._process.poll()})")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message


@contextmanager
def open_browser(binary: str, profile: Path) -> Iterator[Browser]:
    """Chromium with a new empty profile at ``profile``, attached to one blank page."""
    profile.mkdir(parents=True, exist_ok=True)
    commands_read, commands_write = os.pipe()
    replies_read, replies_write = os.pipe()

    def wire() -> None:  # runs in the child: the protocol's descriptors are 3 and 4
        # Copied above 4 first, so neither pipe end is overwritten or left close-on-exec
        # when os.pipe() itself handed out 3 or 4.
        commands, replies = (
            fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_read, replies_write)
        )
        os.dup2(commands, 3)
        os.dup2(replies, 4)

    process = subprocess.Popen(
        [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=wire,  # only dup2, before exec: safe in a forked child
        close_fds=False,
    )
    os.close(commands_read)
    os.close(replies_write)
    browser = Browser(process, commands_write, replies_read)
    try:
        target = browser.send("Target.createTarget", url="about:blank")["targetId"]
        attached = browser.send("Target.attachToTarget", targetId=target, flatten=True)
        browser.session = attached["sessionId"]
        yield browser
    finally:
        with suppress(RuntimeError, TimeoutError, OSError):
            browser.send("Browser.close", timeout=5)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        os.close(commands_write)
        os.close(replies_read)
