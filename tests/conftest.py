"""A line as each test file finishes, beside pytest's dots: which files are done, their tests and their seconds.

With xdist it runs in the controller, which sees every worker's reports; `-v` shows each test instead.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class FileProgress:
    """Counts each file's finished tests against its collected ones and says when a file is done."""

    def __init__(self, reporter: Any) -> None:
        self.reporter = reporter
        self.expected: Counter[str] = Counter()
        self.finished: Counter[str] = Counter()
        self.started: dict[str, float] = {}

    def _expect(self, nodeids: Iterable[str]) -> None:
        if not self.expected:  # every xdist worker collects the same tests
            self.expected.update(_file(nodeid) for nodeid in nodeids)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self._expect(ids)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._expect(item.nodeid for item in session.items)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = _file(report.nodeid)
        self.started.setdefault(path, time.monotonic())
        if report.when != "teardown":
            return
        self.finished[path] += 1
        if self.finished[path] == self.expected.get(path):
            seconds = time.monotonic() - self.started[path]
            if self.reporter._tw.width_of_current_line:  # after the dots of the line in progress
                self.reporter.write("\n")
            self.reporter.write_line(f"{path}: {self.finished[path]} tests in {seconds:.0f} s")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and not hasattr(config, "workerinput") and config.get_verbosity() <= 0:
        config.pluginmanager.register(FileProgress(reporter), "file-progress")
