"""The server refuses to start when a framework lacks a name it relies on (escoba_tutor/server/framework.py,
docs/development.md): each check is made to fail with its target gone or changed, and says which."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib.metadata import version

import pytest

from escoba_tutor.server import framework
from escoba_tutor.server.framework import INTERNALS, FrameworkChanged, resolve

pytest.importorskip("voila")



def test_the_installed_frameworks_have_every_name_the_server_needs():
    framework.check_framework()


@pytest.mark.parametrize("internal", INTERNALS, ids=[internal.target for internal in INTERNALS])
def test_a_target_that_is_gone_stops_the_start_with_its_name_and_version(internal, monkeypatch):
    owner, _, name = internal.target.rpartition(".")
    monkeypatch.setattr(resolve(owner), name, None)  # gone in a new release (or no longer what it was)
    with pytest.raises(FrameworkChanged) as refused:
        framework.check_framework()
    message = str(refused.value)
    # the target, or (for a class) the first of its methods checked
    assert internal.target in message and refused.value.params["target"].startswith(internal.target)
    assert f"{internal.package} {version(internal.package)}" in message
    assert refused.value.code == "framework_changed"


def test_a_method_removed_from_voila_is_named(monkeypatch):
    from voila.app import Voila

    monkeypatch.delattr(Voila, "listen")
    with pytest.raises(FrameworkChanged, match=r"voila \S+: voila\.app\.Voila\.listen is gone"):
        framework.check_framework()


def test_a_method_whose_parameters_changed_is_refused(monkeypatch):
    from tornado.websocket import WebSocketHandler

    monkeypatch.setattr(WebSocketHandler, "get_websocket_protocol", lambda self, version: None)
    with pytest.raises(FrameworkChanged, match=r"get_websocket_protocol takes \(self, version\)"):
        framework.check_framework()


def test_voila_starting_without_listen_is_refused(monkeypatch):
    from voila.app import Voila

    def start(self):  # a Voilà whose start() no longer calls listen(): the host check would be lost
        self.app.run()

    monkeypatch.setattr(Voila, "start", start)
    with pytest.raises(FrameworkChanged, match="Voila.start no longer uses listen"):
        framework.check_framework()


def test_a_websocket_protocol_that_no_longer_keeps_its_stream_is_refused(monkeypatch):
    import tornado.websocket

    class Changed(tornado.websocket.WebSocketProtocol13):
        def __init__(self, handler, mask_outgoing, params):
            super().__init__(handler, mask_outgoing, params)
            del self.server_terminated

    monkeypatch.setattr(tornado.websocket, "WebSocketProtocol13", Changed)
    with pytest.raises(FrameworkChanged, match="WebSocketProtocol13 no longer sets server_terminated"):
        framework.check_framework()


def test_every_handler_the_server_replaces_must_be_in_voilas_routes():
    from voila.tornado.handler import TornadoVoilaHandler

    from escoba_tutor.server.handlers import SWAPS

    routes = [("/a", handler, {}) for handler in SWAPS]
    swapped = framework.swap_handlers(routes, SWAPS)
    assert [rule[1] for rule in swapped] == list(SWAPS.values())
    assert swapped[0][2] == {}  # the rule's arguments are kept
    without_pages = [rule for rule in routes if rule[1] is not TornadoVoilaHandler]
    with pytest.raises(FrameworkChanged, match=r"no longer routes to voila\.tornado\.handler\.TornadoVoilaHandler "
                                               r"\(the server's TutorRenderHandler replaces it\)"):
        framework.swap_handlers(without_pages, SWAPS)


def test_the_folder_listing_routes_are_dropped_by_class_and_the_others_kept():
    from escoba_tutor.server.handlers import SWAPS, UNSERVED

    class MovedListing(UNSERVED[0]):  # a subclass Voilà might route to instead
        pass

    routes = [("/voila/tree(.*)", UNSERVED[0], {}), ("/elsewhere/tree", MovedListing), ("/voila/api/contents(.*)",
              UNSERVED[1], {}), *(("/a", handler, {}) for handler in SWAPS), ("/b", "a.handler.by.name")]
    kept = framework.drop_handlers(routes, UNSERVED)
    assert [rule[1] for rule in kept] == [*SWAPS, "a.handler.by.name"]


def test_a_setting_a_framework_no_longer_has_is_refused():
    from escoba_tutor.server.app import voila_config

    config = voila_config(port=8866, ip="127.0.0.1", lang="es", cull_idle=600)  # checked as it is made
    config.VoilaExecutor.iopub_timeout_s = 60  # as if VoilaExecutor's setting had been renamed
    with pytest.raises(FrameworkChanged, match=r"voila\.execute\.VoilaExecutor\.iopub_timeout_s is no longer a "
                                               "setting"):
        framework.check_config(config)


def test_a_kernel_command_without_ipykernel_launcher_is_refused():
    framework.check_kernel_command(["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    with pytest.raises(FrameworkChanged, match="no longer runs -m ipykernel_launcher"):
        framework.check_kernel_command(["python", "-m", "ipykernel", "-f", "{connection_file}"])


def test_the_escoba_tutor_command_refuses_to_serve_with_a_changed_voila(tmp_path):
    """A fresh process, as a teacher would start it, with Voilà's listen() gone: one line, no traceback, no
    server."""
    script = textwrap.dedent("""
        import socket, sys
        import voila.app
        del voila.app.Voila.listen
        from escoba_tutor.cli import main
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        sys.exit(main(["serve", "--no-browser", "--port", str(port), "--no-class-board"]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f"escoba-tutor: error: cannot serve with voila {version('voila')}: voila.app.Voila.listen is gone" \
        in done.stderr
    assert "Traceback" not in done.stderr and "running at" not in done.stdout + done.stderr


def test_a_connection_that_no_longer_takes_what_was_kept_through_get_buffer_is_refused(monkeypatch):
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    def connect(self):  # a release that keeps a page's messages its own way: the server's cap would be lost
        return self.multi_kernel_manager.get_buffer(self.kernel_id, self.session_key)

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", connect)
    with pytest.raises(FrameworkChanged, match="connect no longer reads session_key, channels, buffer"):
        framework.check_framework()


def test_a_kernel_connection_class_other_than_jupyter_servers_is_refused():
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    class Own(ZMQChannelsWebsocketConnection):
        pass

    framework.check_connection_class(Own)  # made from it: its buffering goes through the kernel manager
    with pytest.raises(FrameworkChanged, match="kernel_websocket_connection_class is 'object'"):
        framework.check_connection_class(object)


def copy_of_voilas_page_templates(folder) -> list[str]:
    """The templates framework.PAGE_TEMPLATE_PARTS names, copied from Voilà's into ``folder`` (one search path)."""
    from jinja2 import Environment, FileSystemLoader

    loader = FileSystemLoader(framework.page_template_paths())
    for name in {name for name, _part, _holds in framework.PAGE_TEMPLATE_PARTS}:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(loader.get_source(Environment(), name)[0], encoding="utf-8")
    return [str(folder)]


def test_the_installed_voila_page_templates_have_what_the_starting_panel_needs(tmp_path):
    framework.check_page_templates()
    framework.check_page_templates(copy_of_voilas_page_templates(tmp_path))  # the copy is whole


@pytest.mark.parametrize("name, changes, named", [
    ("voila/templates/lab/index.html.j2", {"window.voila_finish();": ""}, "'window.voila_finish()' in its body_footer"),
    ("voila/templates/lab/index.html.j2", {"voila_process(": "voila_step("}, "'voila_process(' in its any_cell"),
    ("voila/templates/lab/index.html.j2", {"{{ voila_setup_helper_functions() }}": ""},
     "'call:voila_setup_helper_functions' in its body_header"),
    ("nbconvert/templates/lab/index.html.j2", {"{%- block html_head -%}": "{%- block page_head -%}",
                                               "{%- endblock html_head -%}": "{%- endblock page_head -%}"},
     "'block:html_head' in its header"),
    ("nbconvert/templates/lab/index.html.j2", {"{%- block html_head -%}": ""}, "cannot be read"),
    ("voila_setup.macro.html.j2", {"window.display_cells": "window.show_cells"},
     "'window.display_cells' in its voila_setup_helper_functions"),
])
def test_a_voila_page_template_without_a_part_the_starting_panel_needs_is_refused(tmp_path, name, changes, named):
    paths = copy_of_voilas_page_templates(tmp_path)
    template = tmp_path / name
    source = template.read_text(encoding="utf-8")
    for before, after in changes.items():
        assert before in source
        source = source.replace(before, after)
    template.write_text(source, encoding="utf-8")
    with pytest.raises(FrameworkChanged, match=re.escape(named)) as refused:
        framework.check_page_templates(paths)
    package = "nbconvert" if name.startswith("nbconvert/") else "voila"  # the package whose template it is
    assert f"the page template {name}" in str(refused.value) and f"{package} {version(package)}" in str(refused.value)


def test_a_voila_page_template_that_lost_a_block_is_refused(tmp_path):
    paths = copy_of_voilas_page_templates(tmp_path)
    template = tmp_path / "voila/templates/lab/index.html.j2"
    source = template.read_text(encoding="utf-8")
    template.write_text(source.replace("block body_footer", "block page_footer").replace(
        "endblock body_footer", "endblock page_footer"), encoding="utf-8")
    with pytest.raises(FrameworkChanged, match="has no block or macro body_footer"):
        framework.check_page_templates(paths)
