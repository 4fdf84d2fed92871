"""The server hands back the memory of culled kernels' connections (benchmarks/load_class.py measured about 60 MiB
kept by glibc's malloc after a class of 30 had left)."""

from __future__ import annotations

import platform

import pytest

from escoba_tutor import app


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_freed_memory_is_handed_back_with_glibc():
    assert app.release_freed_memory() is True


class _Kernels:
    def __init__(self) -> None:
        self.ids: list[str] = []

    def list_kernel_ids(self) -> list[str]:
        return list(self.ids)


def test_memory_is_released_only_after_kernels_have_gone(monkeypatch):
    released = []
    monkeypatch.setattr(app, "release_freed_memory", lambda: released.append(True) or True)
    server = app.build_app_class()()
    server.kernel_manager = _Kernels()
    server._kernels_before = 0
    server.kernel_manager.ids = ["a", "b", "c"]
    server.after_culling()  # students arrive: nothing to hand back
    assert released == []
    server.kernel_manager.ids = ["a"]
    server.after_culling()  # two were culled
    assert released == [True]
    server.after_culling()  # no change since
    server.kernel_manager.ids = ["a", "d"]
    server.after_culling()
    assert released == [True]
    server.kernel_manager.ids = []
    server.after_culling()
    assert released == [True, True]
