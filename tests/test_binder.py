"""Binder: repo2docker accepts binder/ (no build: no Docker engine here) and the pins resolve for its Python."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"


def test_every_requirement_is_pinned():
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    packages = [line for line in lines if line and not line.startswith("#")]
    assert packages and all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][\w.]*", line) for line in packages), packages


def test_the_pins_agree_with_the_package():
    pins = dict(line.split("==") for line in (BINDER / "requirements.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert pins["voila"].startswith("0.5.") and pins["ipywidgets"].startswith("8.1.")
    assert pins["anywidget"].startswith("0.11.")


def test_runtime_and_post_build():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.12"
    post = (BINDER / "postBuild").read_text()
    assert post.startswith("#!/bin/bash") and "set -e" in post and "cull_idle_timeout" in post
    assert (BINDER / "postBuild").stat().st_mode & 0o111


@pytest.mark.skipif(shutil.which("repo2docker") is None, reason="pip install jupyter-repo2docker")
def test_repo2docker_accepts_the_binder_folder():
    done = subprocess.run(["repo2docker", "--no-build", "--user-id", "1000", "--user-name", "jovyan", str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in done.stdout
    assert "./binder/postBuild" in done.stdout
    assert "python=3.12" in done.stderr + done.stdout


def test_the_pins_resolve_for_python_3_12(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--dry-run", "--python-version", "3.12",
                           "--only-binary=:all:", "--target", str(tmp_path / "x"), "-r",
                           str(BINDER / "requirements.txt")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
