"""The GitHub workflows: ci.yml runs the checks .ci/run runs, in the same words, on every push and pull request;
pages.yml publishes the static site only once those tests have passed for a push to main."""

from __future__ import annotations

from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")  # PyYAML comes with Jupyter (jupyter_events)

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"


def workflow(name: str) -> dict:
    loaded = yaml.safe_load((WORKFLOWS / name).read_text())
    loaded["on"] = loaded.pop(True)  # YAML 1.1 reads the key ``on`` as true
    return loaded


def commands(job: dict) -> list[str]:
    return [line.strip() for step in job["steps"] for line in step.get("run", "").splitlines() if line.strip()]


def test_ci_runs_on_every_push_and_pull_request_as_ci_run_does():
    ci = workflow("ci.yml")
    assert set(ci["on"]) == {"push", "pull_request"} and ci["on"]["push"] is None  # every branch
    (job,) = ci["jobs"].values()
    assert job["container"]["image"].startswith("python:3.11-")  # Debian, for Debian's chromium
    run = commands(job)
    ci_run = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    for check in ("ruff check .", "lint-imports --no-logo", "mypy", 'python -m pip install --quiet -e ".[test]"',
                  "python3 -m venv .venv-ci"):
        assert check in ci_run and check in run, check
    assert any("chromium" in line and "npm" in line and "postgresql" in line for line in run)
    assert any(line.startswith("escoba-tutor build-site") for line in run)
    assert any("configurable-http-proxy@4" in line for line in run)
    tests = [line for line in run if line.startswith("python -m pytest")]
    assert [line.split(" -m ", 2)[-1] for line in tests] == ["fast", '"not fast"']  # together: the whole suite


def test_pages_publishes_only_what_the_tests_passed_on_main():
    pages = workflow("pages.yml")
    assert set(pages["on"]) == {"workflow_run"}
    trigger = pages["on"]["workflow_run"]
    assert trigger["workflows"] == [workflow("ci.yml")["name"]] and trigger["branches"] == ["main"]
    build = pages["jobs"]["build"]
    assert "conclusion == 'success'" in build["if"] and "event == 'push'" in build["if"]
    checkout = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["ref"] == "${{ github.event.workflow_run.head_sha }}"
    assert pages["jobs"]["deploy"]["needs"] == "build"
