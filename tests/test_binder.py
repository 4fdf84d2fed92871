"""Binder: repo2docker accepts binder/ (no build: no Docker engine here), the pins resolve for its Python, and
binder/postBuild installs the course with the setuptools and pip that repo2docker's image brings (the oldest
repo2docker the test extra allows, and the one installed), run in a fresh environment outside the checkout."""

from __future__ import annotations

import importlib.resources
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
#: The oldest repo2docker the test extra allows (pyproject.toml, docs/classroom.md) and what the Python 3.12
#: environment of its image holds (its buildpacks/conda/environment.py-3.12-linux-64.lock)
OLDEST_REPO2DOCKER = "2024.7.0"
OLDEST_IMAGE_TOOLS = {"setuptools": "70.0.0", "pip": "24.0"}
_LOCKED_TOOL = re.compile(r"/(setuptools|pip)-([0-9][0-9.]*)-[^/]*\.conda\b")


def image_tools(lock: str) -> dict[str, str]:
    """The setuptools and pip versions a repo2docker environment lock names.

    >>> image_tools("https://x/noarch/setuptools-80.9.0-pyhff2d567_0.conda#4d\\nhttps://x/noarch/pip-25.2-pyh8b_0.conda")
    {'setuptools': '80.9.0', 'pip': '25.2'}
    """
    return {name: version for name, version in _LOCKED_TOOL.findall(lock)}


def installed_repo2docker() -> tuple[str, dict[str, str]]:
    from importlib.metadata import version

    lock = importlib.resources.files("repo2docker.buildpacks.conda") / "environment.py-3.12-linux-64.lock"
    return version("jupyter-repo2docker"), image_tools(lock.read_text())


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


def test_the_test_extra_allows_the_oldest_repo2docker_checked():
    text = (ROOT / "pyproject.toml").read_text()
    assert f'"jupyter-repo2docker>={OLDEST_REPO2DOCKER.rsplit(".", 1)[0]}"' in text
    # repo2docker's own tags pad the month (2024.07.0); pip's version does not (2024.7.0): the guide gives both
    year, month, patch = OLDEST_REPO2DOCKER.split(".")
    guide = (ROOT / "docs" / "classroom.md").read_text()
    assert f"repo2docker {year}.{int(month):02d}.{patch} (which pip calls {OLDEST_REPO2DOCKER})" in guide


def checkout_copy(folder: Path) -> Path:
    """The repository's files (git's list: tracked, or new and not ignored), as repo2docker copies a clone."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


@pytest.mark.packaging
@pytest.mark.parametrize("repo2docker", ["oldest", "installed"])
def test_post_build_installs_the_course_with_the_setuptools_of_repo2dockers_image(tmp_path, repo2docker):
    if repo2docker == "oldest":
        version, tools = OLDEST_REPO2DOCKER, OLDEST_IMAGE_TOOLS
    else:
        pytest.importorskip("repo2docker", reason="pip install jupyter-repo2docker")
        version, tools = installed_repo2docker()
    assert set(tools) == {"setuptools", "pip"}, (version, tools)
    image = tmp_path / "image"
    subprocess.run([sys.executable, "-m", "venv", image], check=True, timeout=300)
    python = image / "bin" / "python"
    env = {**os.environ, "PATH": f"{image / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(image),
           "NB_PYTHON_PREFIX": str(image), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)  # the image's Python sees its own packages, not this checkout
    pinned = subprocess.run([python, "-m", "pip", "install", "--quiet", f"setuptools=={tools['setuptools']}",
                             f"pip=={tools['pip']}"], env=env, capture_output=True, text=True, timeout=600)
    assert pinned.returncode == 0, pinned.stderr[-2000:]
    checkout = checkout_copy(tmp_path / "checkout")
    built = subprocess.run(["bash", checkout / "binder" / "postBuild"], cwd=checkout, env=env, capture_output=True,
                           text=True, timeout=900)
    assert built.returncode == 0, f"postBuild failed with repo2docker {version}'s {tools}:\n{built.stderr[-3000:]}"
    found = subprocess.run([python, "-c", "import json, importlib.metadata as m, setuptools, escoba_tutor; print("
                            "json.dumps([m.version('escoba-tutor'), escoba_tutor.__file__, setuptools.__version__, "
                            "m.version('pip')]))"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr[-2000:]
    installed, where, setuptools_after, pip_after = json.loads(found.stdout)
    assert installed and Path(where).resolve().is_relative_to(checkout.resolve())  # the checkout, editable
    assert (setuptools_after, pip_after) == (tools["setuptools"], tools["pip"])  # the image's own, left as they were
    settings = image / "etc" / "jupyter" / "jupyter_server_config.d" / "escoba-tutor.json"
    assert json.loads(settings.read_text())["MappingKernelManager"]["cull_idle_timeout"] == 600
