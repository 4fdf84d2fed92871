"""Voilà's page templates are compiled once per server, not once per page.

Voilà renders every page with a new exporter, and so a new Jinja environment, which compiled every template of
the page again (``index.html.j2``, ``base.html.j2`` and the templates they import): about 0.7 CPU seconds of the
server's event loop per page on the 2-core class machine, in pieces long enough to hold up every student's clicks
while pages are being rendered (``benchmarks/load_class.py --hammer`` under py-spy: nine tenths of the page
template's time). :func:`install` gives those environments one shared, in-memory bytecode cache: a template is
compiled the first time, then loaded as code. A template whose source changes is compiled again (the cache checks
the source's checksum); the key also holds what changes the compiled code (async rendering, extensions, syntax).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

__all__ = ["CompiledTemplates", "install"]


class CompiledTemplates(BytecodeCache):
    """Compiled templates in memory, shared by every environment of the server."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        settings = (name, filename, environment.is_async, tuple(sorted(environment.extensions)),
                    environment.block_start_string, environment.variable_start_string,
                    environment.comment_start_string, environment.line_statement_prefix,
                    environment.line_comment_prefix, environment.trim_blocks, environment.lstrip_blocks,
                    environment.newline_sequence, environment.keep_trailing_newline,
                    environment.autoescape if isinstance(environment.autoescape, bool) else "by name")
        bucket = Bucket(environment, self.get_cache_key(repr(settings)), self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()

    def __len__(self) -> int:
        return len(self._code)


# the installed wrapper of Voilà's _create_environment -> its cache (should it be put back, it is installed again)
_INSTALLED: dict[Callable[..., Any], CompiledTemplates] = {}


def install(cache: CompiledTemplates | None = None) -> CompiledTemplates:
    """Every Voilà page's Jinja environment gets ``cache`` (one new cache if None); installing again keeps the
    first cache."""
    from voila.exporter import VoilaExporter

    installed = _INSTALLED.get(VoilaExporter._create_environment)
    if installed is not None:
        return installed
    shared = cache if cache is not None else CompiledTemplates()
    create = VoilaExporter._create_environment

    def _create_environment(self):
        environment = create(self)
        environment.bytecode_cache = shared
        return environment

    _INSTALLED[_create_environment] = shared
    VoilaExporter._create_environment = _create_environment
    return shared
