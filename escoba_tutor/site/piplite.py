"""The static site's ``piplite``: what the in-browser kernel imports first, in place of JupyterLite's installer.

``escoba-tutor build-site`` ships this file as the ``piplite`` package of the site's kernel (it is not used
anywhere else). JupyterLite's Pyodide kernel imports ``piplite`` when it starts, to install packages later with
``%pip``; the real one imports micropip and ``unittest.mock``, a second of the page's start. The site's pages
run offline with the packages the site was built with, so this one only takes the settings the kernel writes
into it, and its ``install`` says why nothing can be installed.

Being imported before IPython, it also keeps IPython's terminal out of the kernel's start: ``import IPython``
imports ``IPython.terminal.embed`` for ``IPython.embed`` (a terminal inside a program), and with it
prompt_toolkit: two thirds of the kernel's start-up imports, for a terminal no page has. Here
``IPython.terminal.embed`` is registered as a module that imports the real one the first time anything in it
is used.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["install"]

_PIPLITE_URLS: list[str] = []
_PIPLITE_DISABLE_PYPI = True

#: The module of IPython's that the kernel never uses and whose import costs most.
DEFERRED = "IPython.terminal.embed"


async def install(*requirements: object, **options: object) -> None:
    raise RuntimeError("this course runs offline in the browser with the packages it was built with: nothing can "
                       "be installed here")


def _real_module(name: str) -> types.ModuleType:
    """Import the real ``name`` in place of its stand-in (kept if the import fails)."""
    stand_in = sys.modules.pop(name)
    try:
        return importlib.import_module(name)
    except BaseException:
        sys.modules[name] = stand_in
        raise


class _Deferred(types.ModuleType):
    """A module whose every name comes from the real module, imported when a name is first asked for."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        module = sys.modules.get(self.__name__)
        real = module if module is not None and module is not self else _real_module(self.__name__)
        return getattr(real, name)


def embed(**kwargs: object) -> object:
    """``IPython.embed``: imports IPython's terminal, then embeds it."""
    module = sys.modules.get(DEFERRED)
    real = _real_module(DEFERRED) if isinstance(module, _Deferred) else importlib.import_module(DEFERRED)
    return real.embed(**kwargs)


def defer_terminal() -> None:
    """Register the stand-in for :data:`DEFERRED`, unless IPython is already imported."""
    if DEFERRED in sys.modules or "IPython" in sys.modules:
        return
    stand_in = _Deferred(DEFERRED, "IPython's terminal, imported when first used (see piplite)")
    stand_in.embed = embed  # type: ignore[attr-defined]
    sys.modules[DEFERRED] = stand_in


if __name__ == "piplite":  # the site's kernel; imported as escoba_tutor.site.piplite (tests, docs) it does nothing
    defer_terminal()
