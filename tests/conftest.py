"""On CI (CI=true) every test must run: a test skipped for a missing part fails instead.

A skip is how a test says "this machine lacks Chromium, axe-core, PostgreSQL or an extra";
on a developer's machine that is a fair answer, but on CI, which installs every part, a
skip would hide a broken set-up behind a green run.
"""

from __future__ import annotations

import os
import sys

import pytest

pytest_plugins = ["pytester"]  # tests/test_ci.py runs pytest on the rules above

ON_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _failed_for_skipping(report: pytest.CollectReport | pytest.TestReport) -> None:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
    report.outcome = "failed"
    report.longrepr = f"skipped on CI, where every part is installed: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped and not hasattr(report, "wasxfail"):
        _failed_for_skipping(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped:
        _failed_for_skipping(report)


def pytest_configure(config):
    """CI names the virtual environment it made: the tests must run in no other."""
    expected = os.environ.get("TMINUS_EXPECTED_VENV")
    if expected and os.path.realpath(sys.prefix) != os.path.realpath(expected):
        raise pytest.UsageError(
            f"the tests run in {sys.prefix}, not in the fresh environment {expected}"
        )
