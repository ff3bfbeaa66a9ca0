"""``--cpu-durations N``: the tests that spent the most CPU, theirs and their commands'.

A plugin ``conftest`` registers only when the option is given, so a run that does not ask
pays nothing for it (it reads the process's CPU time before and after each phase).
"""

from __future__ import annotations

import resource
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

_CPU_SPENT = pytest.StashKey[dict[str, float]]()


def _cpu_seconds() -> float:
    """CPU seconds this process and the children it waited for have spent so far."""
    spent = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        spent += usage.ru_utime + usage.ru_stime
    return spent


@contextmanager
def _count_cpu(item: pytest.Item, when: str) -> Iterator[None]:
    start = _cpu_seconds()
    try:
        yield
    finally:
        item.stash.setdefault(_CPU_SPENT, {})[when] = _cpu_seconds() - start


class CpuSpent:
    """Counts each phase's CPU and lists the ``shown`` costliest at the end of the run."""

    def __init__(self, shown: int) -> None:
        self._shown = shown

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        with _count_cpu(item, "setup"):
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        with _count_cpu(item, "call"):
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        with _count_cpu(item, "teardown"):
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Iterator[pytest.TestReport]:
        report = yield
        spent = item.stash.get(_CPU_SPENT, {}).get(call.when)
        if spent is not None:
            report.user_properties.append(("cpu_seconds", round(spent, 3)))
        return report

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        spent = []
        for reports in terminalreporter.stats.values():
            for report in reports:
                seconds = dict(getattr(report, "user_properties", ())).get("cpu_seconds")
                if isinstance(report, pytest.TestReport) and seconds is not None:
                    spent.append((seconds, report.when, report.nodeid))
        spent.sort(reverse=True)
        total = sum(seconds for seconds, _, _ in spent)
        terminalreporter.write_sep("=", f"most CPU spent ({total:.1f} s in all)")
        for seconds, when, nodeid in spent[: self._shown or None]:
            terminalreporter.write_line(f"{seconds:6.2f}s {when:<8} {nodeid}")
