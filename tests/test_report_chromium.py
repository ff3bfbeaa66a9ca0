"""The report's HTML in a real headless Chromium: it shows, logs no error, fetches nothing,
names every chart, and shows history's numbers (light and dark)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chromekit import chromium_binary, open_browser
from dreamkit import invoke
from reportkit import demo_after_runs

BINARY = chromium_binary()
pytestmark = pytest.mark.skipif(
    BINARY is None,
    reason="Debian's chromium is not installed (.ci/run installs it with apt-get where it can)",
)

#: A phone's viewport (CSS pixels).
PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}
_TABLE = (
    "JSON.stringify([...document.querySelectorAll('table[data-chart=\"{key}\"] tr')]"
    ".map(r => [...r.cells].map(c => c.textContent.trim())))"
)


@pytest.fixture(scope="module")
def report_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The demo's report after four dreams, and ``history --json`` beside it."""
    root = tmp_path_factory.mktemp("chromium")
    repo, when = demo_after_runs(root / "demo")
    page = root / "report.html"
    written = invoke(repo, "report", "--html", str(page), now=when)
    assert written.exit_code == 0, written.output
    return page, json.loads(invoke(repo, "history", "--json", now=when).stdout)


def _load(page: Path, profile: Path, *, dark: bool) -> dict[str, Any]:
    """What Chromium showed of ``page``, on a phone, in the light or dark scheme."""
    assert BINARY is not None
    seen: dict[str, Any] = {}
    with open_browser(BINARY, profile) as browser:
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable")
        browser.send("Emulation.setDeviceMetricsOverride", **PHONE)
        scheme = "dark" if dark else "light"
        browser.send(
            "Emulation.setEmulatedMedia",
            features=[{"name": "prefers-color-scheme", "value": scheme}],
        )
        browser.send("Page.navigate", url=page.as_uri())
        browser.wait_for("Page.loadEventFired")
        seen["shot"] = profile.parent / f"report-{scheme}.png"
        browser.screenshot(seen["shot"])
        tree = browser.send("Accessibility.getFullAXTree")["nodes"]
        seen["images"] = [
            (n.get("name") or {}).get("value", "")
            for n in tree
            if (n.get("role") or {}).get("value") == "image"
        ]
        seen["figures"] = browser.evaluate("document.getElementById('fig-memories').textContent")
        seen["operations"] = json.loads(browser.evaluate(_TABLE.replace("{key}", "operations")))
        seen["background"] = browser.evaluate("getComputedStyle(document.body).backgroundColor")
        seen["wide"] = browser.evaluate("document.documentElement.scrollWidth > innerWidth")
        seen["events"] = list(browser.events)
    return seen


def _problems(events: list[dict[str, Any]]) -> list[str]:
    """Console errors, uncaught exceptions and error log entries the page caused."""
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params") or {}
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append(str(params.get("args")))
        elif method == "Runtime.exceptionThrown":
            found.append(str(params.get("exceptionDetails")))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            found.append(str(params["entry"]))
    return found


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_report_page_in_chromium(
    report_page: tuple[Path, list[dict[str, Any]]], tmp_path: Path, dark: bool
) -> None:
    """Screenshot taken; no console error; no request but the page itself; each chart an
    image named by its title; the numbers are history's; dark mode is dark; no sideways
    scrolling on a phone."""
    page, history = report_page
    seen = _load(page, tmp_path / "profile", dark=dark)
    shot: Path = seen["shot"]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    assert _problems(seen["events"]) == []
    requested = [
        e["params"]["request"]["url"]
        for e in seen["events"]
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert all(url.startswith("file://") for url in requested), requested
    assert len(requested) <= 1
    assert sorted(seen["images"]) == sorted(
        [
            "Active memories per topic, per run",
            "MEMORY.md size against its budget",
            "Operations per run, by kind",
            "Memory health per run (0 to 1)",
            "Memory tests per run: passed and failed",
            "Most recalled memories",
        ]
    )
    newest = history[0]
    assert seen["figures"] == f"{newest['memories_before']} → {newest['memories_after']}"
    kinds = seen["operations"][0][1:]
    for row, run in zip(seen["operations"][1:], reversed(history), strict=True):
        assert row[0] == run["run_id"]
        assert [int(n) for n in row[1:]] == [run["counts"].get(k, 0) for k in kinds]
    assert seen["background"] == ("rgb(18, 18, 18)" if dark else "rgb(255, 255, 255)")
    assert seen["wide"] is False
