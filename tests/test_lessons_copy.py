"""The lessons a teacher takes to edit (``escoba-tutor copy-lessons DIR``) and serves (``--lessons DIR``), and
``python -m escoba_tutor`` as the same command. The installed package is covered by tests/test_packaging.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from escoba_tutor.cli import main
from escoba_tutor.engine.errors import EscobaError
from escoba_tutor.server.app import lessons_dir

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(str(p.relative_to(ROOT / "lessons")) for p in (ROOT / "lessons").glob("*/*.ipynb"))


def test_copy_lessons_writes_every_notebook_and_says_how_to_serve_them(tmp_path, capsys):
    target = tmp_path / "mis lecciones"
    assert main(["copy-lessons", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {len(NOTEBOOKS)} lesson notebooks" in out and f"--lessons {target}" in out
    assert sorted(str(p.relative_to(target)) for p in target.glob("*/*.ipynb")) == NOTEBOOKS
    for name in NOTEBOOKS:
        assert (target / name).read_bytes() == (ROOT / "lessons" / name).read_bytes()
    assert lessons_dir(target) == target.resolve()


def test_copy_lessons_never_overwrites_an_edited_lesson(tmp_path, capsys):
    target = tmp_path / "copy"
    (target / "es").mkdir(parents=True)
    (target / "es" / "03-escoba.ipynb").write_text("my edits")
    assert main(["copy-lessons", str(target)]) == 2
    err = capsys.readouterr().err
    assert "03-escoba.ipynb exists already" in err and err.count("\n") == 1
    assert (target / "es" / "03-escoba.ipynb").read_text() == "my edits"
    assert [p.name for p in target.rglob("*.ipynb")] == ["03-escoba.ipynb"]   # nothing else written either


def test_copy_lessons_into_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    assert main(["copy-lessons", str(tmp_path / "notes.txt")]) == 2
    assert "is a file" in capsys.readouterr().err


def test_a_folder_without_lessons_is_named(tmp_path):
    with pytest.raises(EscobaError, match="no lessons found in .*copy-lessons") as info:
        lessons_dir(tmp_path)
    assert info.value.code == "no_lessons"


def test_the_default_lessons_are_the_projects():
    assert lessons_dir() == (ROOT / "lessons").resolve()


def test_python_m_escoba_tutor_is_the_command():
    run = [sys.executable, "-m", "escoba_tutor"]
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert version.returncode == 0 and version.stdout.strip().startswith("escoba-tutor ")
    bad = subprocess.run([*run, "simulate", "--games", "0"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("escoba-tutor simulate: error: argument --games")
