"""A page's templates are compiled once per server (escoba_tutor/server/compiled_templates.py): every page used to
compile Voilà's templates again on the server's event loop, holding up the class's clicks while pages were
rendered."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from jinja2 import DictLoader, Environment

from escoba_tutor.server import compiled_templates
from escoba_tutor.server.compiled_templates import CompiledTemplates


def test_a_template_is_compiled_once_and_again_when_its_source_or_its_rendering_changes():
    cache, compiled = CompiledTemplates(), []
    sources = {"page.html": "{% for x in xs %}{{ x }}{% endfor %}"}

    class Counting(Environment):
        def _compile(self, source, filename):
            compiled.append(filename)
            return super()._compile(source, filename)

    def render(is_async: bool = False) -> str:  # a new environment each time, as Voilà makes one per page
        template = Counting(loader=DictLoader(sources), bytecode_cache=cache, enable_async=is_async).get_template(
            "page.html")
        if not is_async:
            return template.render(xs=[1, 2])
        with ThreadPoolExecutor(1) as thread:  # a loop of its own: a browser test's loop may run in this thread
            return thread.submit(asyncio.run, template.render_async(xs=[1, 2])).result()

    assert [render(), render(), render()] == ["12"] * 3 and len(compiled) == 1
    assert [render(True), render(True)] == ["12"] * 2 and len(compiled) == 2  # async code is other code
    sources["page.html"] = "{{ xs | length }}"
    assert render() == "2" and len(compiled) == 3  # a changed template is compiled again
    assert len(cache) == 2  # the changed template took the place of its old code


def test_every_voila_page_environment_shares_the_servers_cache():
    from voila.exporter import VoilaExporter

    original = VoilaExporter._create_environment
    try:
        cache = compiled_templates.install()
        assert compiled_templates.install() is cache  # installed once
        first, second = VoilaExporter().environment, VoilaExporter().environment
        assert first is not second and first.bytecode_cache is cache and second.bytecode_cache is cache
    finally:
        VoilaExporter._create_environment = original
