"""On CI a test skipped for a missing part fails (tests/conftest.py); elsewhere it skips."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")
PROBES = {
    "test_skips": "import pytest\n\ndef test_needs_a_part():\n    pytest.skip('no part')\n",
    "test_module_skips": "import pytest\n\npytest.importorskip('no_such_part')\n\n"
    "def test_never_collected():\n    pass\n",
    "test_passes": "def test_plain():\n    assert True\n",
}


@pytest.fixture
def probes(pytester, monkeypatch):
    monkeypatch.delenv("TMINUS_EXPECTED_VENV", raising=False)
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(**PROBES)
    return pytester


def test_on_ci_a_skipped_test_and_a_skipped_module_fail(probes, monkeypatch):
    monkeypatch.setenv("CI", "true")
    result = probes.runpytest_subprocess(
        "-p", "no:cacheprovider", "--continue-on-collection-errors"
    )
    result.assert_outcomes(passed=1, failed=1, errors=1)
    result.stdout.fnmatch_lines(["*skipped on CI, where every part is installed*no part*"])


def test_off_ci_they_skip(probes, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    result = probes.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=2)
