"""The test tiers (README.md, "Tests"; tests/conftest.py marks them): a test under tests/browser/ is a browser test,
one under tests/site/ a site test, the JupyterHub test a hub test, a test with a server fixture a server test, and
a test in none of these tiers is in the fast tier, never in another. A test that starts a server without being
marked so fails."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from escoba_test_helpers import SLOW_TIERS, check_tier_starts_servers

ROOT = Path(__file__).resolve().parents[1]

# Collects the whole suite in a fresh process, as ``pytest`` run in the checkout does, and prints each test's
# markers (after tests/conftest.py has marked the tiers; nothing is deselected).
COLLECT = textwrap.dedent("""
    import json, sys
    import pytest

    class Markers:
        def pytest_collection_finish(self, session):
            self.found = {item.nodeid: sorted({mark.name for mark in item.iter_markers()}) for item in session.items}

    markers = Markers()
    code = pytest.main(["--collect-only", "-p", "no:cacheprovider", "-qq"], plugins=[markers])
    print("MARKERS " + json.dumps(markers.found))
    sys.exit(code)
""")


@pytest.fixture(scope="module")
def markers() -> dict[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", COLLECT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    line = next(line for line in done.stdout.splitlines() if line.startswith("MARKERS "))
    return {node: set(names) for node, names in json.loads(line.removeprefix("MARKERS ")).items()}


@pytest.mark.parametrize(("folder", "tier"), [("tests/browser/", "browser"), ("tests/site/", "site"),
                                              ("tests/browser/test_jupyterhub_browser.py::", "hub"),
                                              ("tests/browser/test_jupyterhub_start_ahead_browser.py::", "hub")])
def test_every_test_of_a_folder_has_its_tier(markers, folder, tier):
    inside = [node for node in markers if node.startswith(folder)]
    assert inside, f"{folder} has tests"
    assert [node for node in inside if tier not in markers[node]] == []


def test_every_test_is_in_the_fast_tier_or_another_never_both(markers):
    for node, names in markers.items():
        assert ("fast" in names) != bool(names & set(SLOW_TIERS)), (node, names)
    fast = {node for node, names in markers.items() if "fast" in names}
    # the suite's parts outside tests/ are fast: the doctests, the lesson builder's, the lessons under nbval
    top_folders = {node.split("::")[0].split("/")[0] for node in fast}
    assert top_folders >= {"escoba_tutor", "tools", "README.md", "lessons", "tests"}


def test_each_file_s_tests_run_in_one_block(markers):
    """pytest puts the tests that take the browser parameter apart from the rest; split in two, a file would set up
    its module fixtures twice (test_packaging.py's wheels, the start-ahead hub test's wait for the culler)."""
    files = [node.split("::")[0] for node in markers]  # in the order they run
    blocks = [file for index, file in enumerate(files) if index == 0 or files[index - 1] != file]
    assert sorted(file for file in set(blocks) if blocks.count(file) > 1) == []
    assert "tests/test_packaging.py" in files


def test_a_test_with_a_server_fixture_is_a_server_test(markers):
    assert "server" in markers["tests/test_app_security.py::test_a_page_cannot_run_code_on_the_server"]
    assert "server" in markers["tests/test_app_memory.py::test_a_real_server_starts_afresh_in_the_same_process_and_"
                               "serves_on"]
    assert "fast" in markers["tests/test_app_security.py::test_the_server_waits_for_slow_outputs_and_hides_tracebacks"]
    assert "fast" in markers["tests/test_app_limits.py::test_bad_limits_on_the_command_line_print_one_line"
                             "[args1-from 128]"]


def test_a_fast_test_that_starts_a_server_fails(request):
    assert request.node.get_closest_marker("fast") is not None
    with pytest.raises(pytest.fail.Exception, match="starts a voila server but is in the fast tier"):
        check_tier_starts_servers("a voila server")


@pytest.mark.server
def test_a_server_test_may_start_one(request):
    assert request.node.get_closest_marker("fast") is None
    check_tier_starts_servers("a voila server")  # no failure
