"""What the server still touches inside Voilà, jupyter_server, Tornado, ipykernel and IPython, checked at start.

The server replaces a few of Voilà's handlers, listens on its own sockets behind the host check, gives Voilà's
page templates a shared cache and Tornado's websocket protocol a close that says why, and keeps a widget
callback's traceback off the page. Each of these leans on a name inside a framework: should an upgrade rename it,
a limit or an ownership check would be lost without a word. So :func:`check_framework` looks at every such name
when the server starts (the class, method or attribute is there, with the shape the server needs) and the server
refuses to start, with a message that names what is missing and the package's version, if one is not.
docs/development.md ("The frameworks' insides") lists them, with why each is needed.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from types import SimpleNamespace
from typing import Any, cast

from ..engine.errors import EscobaError

__all__ = ["FrameworkChanged", "Internal", "INTERNALS", "check_framework", "check_internal", "resolve", "uses_keys",
           "swap_handlers", "drop_handlers", "check_config", "check_kernel_command", "check_connection_class",
           "check_page_templates", "PAGE_TEMPLATE_PARTS"]


class FrameworkChanged(EscobaError):
    """A framework the server builds on no longer has a name the server needs: the server does not start."""

    def __init__(self, message: str, target: str) -> None:
        super().__init__(message, code="framework_changed", target=target)


def package_version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "(not installed)"


def refusal(package: str, target: str, problem: str) -> FrameworkChanged:
    return FrameworkChanged(
        f"cannot serve with {package} {package_version(package)}: {target} {problem}. Install the versions "
        "pyproject.toml names, or adapt escoba_tutor/server/framework.py and docs/development.md",
        target=target)


def resolve(dotted: str) -> Any:
    """The object a dotted name names (a module's attribute, a class's attribute...); LookupError if it is not
    there."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            try:
                found = getattr(found, name)
            except AttributeError:
                raise LookupError(f"{dotted}: no {name}") from None
        return found
    raise LookupError(f"{dotted}: no such module")


# What a check is given: the target; it returns what is wrong with it, or None.
Check = Callable[[Any], "str | None"]


def takes(*names: str, more: bool = False) -> Check:
    """A function or method with these parameters (``more``: these first, then any others)."""

    def check(target: Any) -> str | None:
        if not callable(target):
            return "is not a function"
        try:
            parameters = list(inspect.signature(target).parameters)
        except (TypeError, ValueError):
            return "has no signature to check"
        if (parameters[:len(names)] if more else parameters) != list(names):
            return f"takes ({', '.join(parameters)}), not ({', '.join(names)}{', ...' if more else ''})"
        return None

    return check


def calls(name: str, *parameters: str) -> Check:
    """A function (with these first parameters) whose own code uses ``name`` (a method it calls, an attribute)."""

    def check(target: Any) -> str | None:
        problem = takes(*parameters)(target)
        if problem:
            return problem
        code = getattr(target, "__code__", None)
        if code is None or name not in code.co_names:
            return f"no longer uses {name}"
        return None

    return check


def reads_setting(key: str) -> Check:
    """A property whose getter reads the Tornado setting ``key`` (by that name)."""

    def check(target: Any) -> str | None:
        code = getattr(getattr(target, "fget", None), "__code__", None)
        if code is None or key not in code.co_consts:
            return f"no longer reads the setting {key!r}"
        return None

    return check


def uses_keys(*keys: str, function: str = "") -> Check:
    """A function (or ``function`` of a class) whose code, with the functions defined in it, reads these
    dictionary keys."""

    def constants(code: Any) -> set:
        found = set(code.co_consts)
        for inner in code.co_consts:
            if inspect.iscode(inner):
                found |= constants(inner)
        return found

    def check(target: Any) -> str | None:
        code = getattr(getattr(target, function) if function else target, "__code__", None)
        found = constants(code) if code is not None else set()
        missing = [key for key in keys if key not in found]
        return f"no longer reads {', '.join(missing)}" if missing else None

    return check


def has_traits(*names: str) -> Check:
    """A traitlets class with these traits."""

    def check(target: Any) -> str | None:
        traits = getattr(target, "class_trait_names", None)
        if traits is None:
            return "is not a configurable class"
        missing = [name for name in names if name not in traits()]
        return f"has no trait {', '.join(missing)}" if missing else None

    return check


def builds(make: Callable[[Any], Any], *attributes: str) -> Check:
    """A class whose instance (made from a stand-in by ``make``) has these attributes."""

    def check(target: Any) -> str | None:
        try:
            instance = make(target)
        except Exception as error:  # noqa: BLE001 - any failure means the shape changed
            return f"cannot be made as before ({type(error).__name__}: {error})"
        missing = [name for name in attributes if not hasattr(instance, name)]
        return f"no longer sets {', '.join(missing)}" if missing else None

    return check


def _request_handler(cls: Any) -> Any:
    from tornado import httputil, web

    request = httputil.HTTPServerRequest(
        start_line=httputil.RequestStartLine("GET", "/", "HTTP/1.1"), headers=httputil.HTTPHeaders({"Host": "x"}),
        connection=cast(Any, SimpleNamespace(set_close_callback=lambda callback: None)))
    return cls(web.Application(), request)


def _websocket_protocol(cls: Any) -> Any:
    return cls(SimpleNamespace(), False, SimpleNamespace(max_message_size=1, compression_options=None,
                                                           ping_interval=None, ping_timeout=None))


@dataclass(frozen=True)
class Internal:
    """One name inside a framework that the server relies on."""

    target: str  # dotted: module, class, attribute
    package: str  # the distribution whose version the refusal names
    why: str
    check: Check | None = None  # beyond being there

    def problem(self) -> str | None:
        try:
            found = resolve(self.target)
        except LookupError:
            return "is gone"
        if found is None:
            return "is gone"
        return self.check(found) if self.check is not None else None


INTERNALS: tuple[Internal, ...] = (
    Internal("voila.app.Voila.init_handlers", "voila", "the four handlers the server replaces are found in it",
             takes("self")),
    Internal("voila.app.Voila.start", "voila", "it must call listen(), which the server replaces",
             calls("listen", "self")),
    Internal("voila.app.Voila.listen", "voila", "replaced: the server listens on its own sockets (or those "
             "of its previous run) behind the host check, with the HTTP server's limits", takes("self")),
    Internal("voila.app.Voila.stop", "voila", "called once the server's loop ends", takes("self")),
    Internal("voila.app.Voila.launch_browser", "voila", "called by the replaced listen()", takes("self")),
    Internal("voila.app.Voila.setup_template_dirs", "voila", "extended: the project's page template first",
             takes("self")),
    Internal("voila.app.Voila", "voila", "the settings the server sets on it", has_traits(
        "template_paths", "port", "ip", "base_url", "open_browser", "port_retries", "tornado_settings",
        "identity_provider_class", "authorizer_class", "auto_token")),
    Internal("voila.configuration.VoilaConfiguration", "voila", "the kernel manager and the landing page's hook",
             has_traits("multi_kernel_manager_class", "prelaunch_hook", "show_tracebacks", "file_allowlist")),
    Internal("voila.tornado.handler.TornadoVoilaHandler", "voila", "replaced: a page's kernel admitted against "
             "the limits"),
    Internal("voila.tornado.kernel_websocket_handler.VoilaKernelWebsocketHandler", "voila", "replaced: a page's "
             "connection bound to its browser, its messages screened and its unsent data capped"),
    Internal("voila.shutdown_kernel_handler.VoilaShutdownKernelHandler", "voila", "replaced: only the page's "
             "browser may shut its kernel down"),
    Internal("jupyter_server.services.kernels.handlers.KernelHandler", "jupyter_server", "replaced: only the "
             "page's browser may ask about its kernel"),
    Internal("voila.tornado.treehandler.TornadoVoilaTreeHandler", "voila", "its routes dropped: the course lists "
             "no folder (the listing's page loaded an icon font from another origin)"),
    Internal("voila.tornado.contentshandler.VoilaContentsHandler", "voila", "its routes dropped: the folder "
             "listing's data"),
    Internal("jupyter_server.services.kernels.websocket.KernelWebsocketHandler.pre_get", "jupyter_server",
             "extended: a page that left while its kernel connection was being made is refused there, before the "
             "websocket is accepted without a connection", takes("self")),
    Internal("jupyter_server.base.websocket.WebSocketMixin.ping_interval", "jupyter_server",
             "a page's silent connection is found within 30 s: the server's ping settings", reads_setting(
                 "ws_ping_interval")),
    Internal("jupyter_server.base.websocket.WebSocketMixin.ping_timeout", "jupyter_server",
             "a page's silent connection is found within 30 s: the server's ping settings", reads_setting(
                 "ws_ping_timeout")),
    Internal("jupyter_server.services.kernels.websocket.KernelWebsocketHandler.on_close", "jupyter_server",
             "called only once the connection exists (a refused connection has none)", calls("connection", "self")),
    Internal("jupyter_server.services.kernels.connection.base.deserialize_binary_message", "jupyter_server",
             "reads a page's message to screen it", takes("bmsg")),
    Internal("jupyter_server.services.kernels.connection.base.deserialize_msg_from_ws_v1", "jupyter_server",
             "reads a page's message (v1 protocol) to screen it", takes("ws_msg")),
    Internal("jupyter_server.services.kernels.kernelmanager.AsyncMappingKernelManager", "jupyter_server",
             "the kernel manager the server extends", has_traits("kernel_manager_class", "allowed_message_types",
                                                                  "cull_idle_timeout", "cull_interval",
                                                                  "buffer_offline_messages")),
    Internal("jupyter_server.services.kernels.kernelmanager.AsyncMappingKernelManager.cull_kernel_if_idle",
             "jupyter_server", "extended: a kernel shut down meanwhile is not culled", takes("self", "kernel_id")),
    Internal("jupyter_server.services.kernels.kernelmanager.AsyncMappingKernelManager.remove_kernel",
             "jupyter_server", "extended: a gone kernel leaves the register", takes("self", "kernel_id")),
    Internal("jupyter_server.services.kernels.kernelmanager.MappingKernelManager.kernel_model", "jupyter_server",
             "read: the page connections it counts to a kernel must be none too before a gone page's kernel is "
             "stopped (reconnect_s)", takes("self", "kernel_id")),
    Internal("jupyter_server.services.kernels.kernelmanager.MappingKernelManager.start_buffering",
             "jupyter_server", "replaced: what is kept for a page without a connection has a cap",
             takes("self", "kernel_id", "session_key", "channels")),
    Internal("jupyter_server.services.kernels.kernelmanager.MappingKernelManager.get_buffer", "jupyter_server",
             "replaced: what was kept is handed to the page's new connection", takes("self", "kernel_id",
                                                                                     "session_key")),
    Internal("jupyter_server.services.kernels.kernelmanager.MappingKernelManager.stop_buffering", "jupyter_server",
             "replaced: what was kept is dropped", takes("self", "kernel_id")),
    Internal("jupyter_server.services.kernels.connection.channels.ZMQChannelsWebsocketConnection.disconnect",
             "jupyter_server", "it must keep a page's messages through start_buffering (the server's, with its "
             "cap)", calls("start_buffering", "self")),
    Internal("jupyter_server.services.kernels.connection.channels.ZMQChannelsWebsocketConnection.connect",
             "jupyter_server", "it must take what was kept through get_buffer, as a dict with these keys",
             uses_keys("session_key", "channels", "buffer")),
    Internal("jupyter_server.services.kernels.kernelmanager.AsyncMappingKernelManager.start_kernel",
             "jupyter_server", "the kernel pool starts its kernels with ids it chose (so it knows them as they "
             "start), and a page's start passes its folder as path", takes("self", "kernel_id", "path", "kwargs")),
    Internal("jupyter_server.services.kernels.kernelmanager.MappingKernelManager.cwd_for_path", "jupyter_server",
             "a pooled kernel is moved to its page's folder as it is handed over", takes("self", "path", more=True)),
    Internal("voila.handler.VoilaHandler.get_generator", "voila", "a page's address and query reach its kernel "
             "only in the environment its start is given, which the kernel pool hands over to a ready kernel",
             calls("start_kernel", "self", "path")),
    Internal("jupyter_client.manager.KernelManager.format_kernel_cmd", "jupyter_client", "extended: the kernel "
             "starts through escoba_tutor.server.kernel_launch (its memory limit)", takes("self", "extra_arguments")),
    Internal("nbconvert.exporters.templateexporter.TemplateExporter._create_environment", "nbconvert",
             "extended on Voilà's exporter: every page's templates share one compiled cache", takes("self")),
    Internal("tornado.web.RequestHandler", "tornado", "a handler whose prepare() has already answered reads "
             "_finished (Tornado has no public flag)", builds(_request_handler, "_finished")),
    Internal("tornado.websocket.WebSocketHandler.get_websocket_protocol", "tornado", "extended: the protocol "
             "below in its place", takes("self")),
    Internal("tornado.websocket.WebSocketProtocol13", "tornado", "subclassed: a message over the cap is refused "
             "with a close that says why (close(), server_terminated, params.max_message_size, handler), and a "
             "page that does not read is dropped at once (stream)",
             builds(_websocket_protocol, "server_terminated", "params", "handler", "stream", "close")),
    Internal("ipykernel.kernelapp.IPKernelApp", "ipykernel", "the kernel class the kernel starts with",
             has_traits("kernel_class")),
    Internal("ipykernel.ipkernel.IPythonKernel", "ipykernel", "the shell class the kernel starts with",
             has_traits("shell_class")),
    Internal("ipykernel.zmqshell.ZMQInteractiveShell", "ipykernel", "subclassed: the kernel's shell (below)"),
    Internal("ipykernel.ipkernel.IPythonKernel.get_parent", "ipykernel", "which message the kernel is answering "
             "(a widget's, or a cell's)", takes("self", "channel")),
    Internal("IPython.core.interactiveshell.InteractiveShell.showtraceback", "ipython", "overridden: a widget "
             "callback's traceback goes to the server's log, not the page", takes("self", more=True)),
)


def check_internal(internal: Internal) -> None:
    problem = internal.problem()
    if problem is not None:
        raise refusal(internal.package, internal.target, f"{problem} ({internal.why})")


def check_framework(internals: Iterable[Internal] = INTERNALS) -> None:
    """Refuse to serve (:class:`FrameworkChanged`) when a framework lacks a name the server needs."""
    for internal in internals:
        check_internal(internal)


def swap_handlers(rules: Sequence[tuple], swaps: Mapping[type, type]) -> list[tuple]:
    """Voilà's handler rules with each handler class of ``swaps`` replaced by the server's; every one must be
    there, or the limit it carries would be lost."""
    found = [rule[1] for rule in rules if rule[1] in swaps]
    missing = [framework for framework in swaps if framework not in found]
    if missing:
        name = f"{missing[0].__module__}.{missing[0].__qualname__}"
        raise refusal("voila", "voila.app.Voila.init_handlers",
                      f"no longer routes to {name} (the server's {swaps[missing[0]].__name__} replaces it)")
    return [(rule[0], swaps.get(rule[1], rule[1]), *rule[2:]) for rule in rules]


def drop_handlers(rules: Sequence[tuple], dropped: Iterable[type]) -> list[tuple]:
    """Voilà's handler rules without those that route to a class of ``dropped`` (by class, not by path: a route
    Voilà moves is still dropped; a class it renames is refused at start by :data:`INTERNALS`)."""
    classes = tuple(dropped)
    return [rule for rule in rules if not (isinstance(rule[1], type) and issubclass(rule[1], classes))]


CONFIGURED = {  # the classes the server's configuration sections name
    "Voila": "voila.app.Voila",
    "VoilaConfiguration": "voila.configuration.VoilaConfiguration",
    "VoilaExecutor": "voila.execute.VoilaExecutor",
    "VoilaExporter": "voila.exporter.VoilaExporter",
    "MappingKernelManager": "jupyter_server.services.kernels.kernelmanager.MappingKernelManager",
    "KernelManager": "jupyter_client.manager.KernelManager",
}


def check_config(config: Mapping[str, Any]) -> None:
    """Every setting the server gives a framework's class names one of its traits (traitlets would only warn and
    go on without it)."""
    for section, settings in config.items():
        if section not in CONFIGURED:
            continue
        target = CONFIGURED[section]
        try:
            traits = resolve(target).class_trait_names()
        except LookupError:
            raise refusal(target.split(".")[0], target, "is gone") from None
        for name in settings:
            if name not in traits:
                raise refusal(target.split(".")[0], f"{target}.{name}", "is no longer a setting")


LAUNCHER_ARGV = ("-m", "ipykernel_launcher")


def check_kernel_command(argv: Sequence[str], kernel: str = "python3") -> None:
    """The kernel's command runs ``-m ipykernel_launcher``, which the server replaces by its own launcher (the
    kernel's memory limit, its log on the server)."""
    pairs = list(zip(argv, argv[1:]))
    if LAUNCHER_ARGV not in pairs:
        raise refusal("ipykernel", f"the {kernel} kernel's command", f"({' '.join(argv)[:200]}) no longer runs "
                      "-m ipykernel_launcher, which the server replaces by escoba_tutor.server.kernel_launch")


#: What the course's page template (templates/index.html.j2, with the starting panel of starting.py) leans on in
#: the templates it extends: (template, block or macro, what it must hold: its words, ``block:NAME`` a block
#: inside it, ``call:NAME`` a macro it calls).
PAGE_TEMPLATE_PARTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # the document's start, which the page leaves out when the starting panel opened it, and the head's contents
    ("nbconvert/templates/lab/index.html.j2", "header", ("<!DOCTYPE html>", "<head>", "block:html_head")),
    # the body without Voilà's spinner: its body tag, its helpers, the hidden cells it shows at the end
    ("voila/templates/lab/index.html.j2", "body_header", ("<body", 'id="rendered_cells"',
                                                          "call:voila_setup_helper_functions")),
    ("voila/templates/lab/index.html.j2", "any_cell", ("voila_process(",)),  # the panel's "almost ready"
    ("voila/templates/lab/index.html.j2", "body_footer", ("window.voila_finish()",)),  # the panel goes
    ("voila_setup.macro.html.j2", "voila_setup_helper_functions", (
        "window.voila_process =", "window.voila_finish =", "window.display_cells", 'getElementById("rendered_cells")')),
)


def page_template_paths() -> list[str]:
    """Where Voilà looks for the templates of its ``lab`` page (which the course's page template extends)."""
    try:
        from voila.paths import collect_template_paths
    except ImportError:
        raise refusal("voila", "voila.paths.collect_template_paths", "is gone (where Voilà's templates are)") from None
    return collect_template_paths(["voila", "nbconvert"], "lab")


def check_page_templates(paths: Sequence[str] | None = None,
                         parts: Iterable[tuple[str, str, tuple[str, ...]]] = PAGE_TEMPLATE_PARTS) -> None:
    """Refuse to serve when a template the course's page extends (found on ``paths``: Voilà's) no longer has a part
    :data:`PAGE_TEMPLATE_PARTS` names, with what it holds: the page would otherwise lose its starting panel, or
    show Voilà's English spinner beside it."""
    from jinja2 import Environment, FileSystemLoader, TemplateError, nodes

    loader = FileSystemLoader(list(paths if paths is not None else page_template_paths()))
    environment = Environment(loader=loader, extensions=["jinja2.ext.do"])
    trees: dict[str, Any] = {}
    for name, part, holds in parts:
        package = name.split("/")[0] if "/" in name else "voila"
        if name not in trees:
            try:
                trees[name] = environment.parse(loader.get_source(environment, name)[0])
            except TemplateError as error:
                raise refusal(package, f"the page template {name}", f"cannot be read ({error})") from None
        found = [node for node in trees[name].find_all((nodes.Block, nodes.Macro)) if node.name == part]
        if not found:
            raise refusal(package, f"the page template {name}", f"has no block or macro {part} (the starting panel)")
        text = "".join(data.data for data in found[0].find_all(nodes.TemplateData))
        blocks = {block.name for block in found[0].find_all(nodes.Block)}
        calls = {call.node.name for call in found[0].find_all(nodes.Call) if isinstance(call.node, nodes.Name)}
        for held in holds:
            kind, _, what = held.partition(":") if held.startswith(("block:", "call:")) else ("", "", held)
            there = what in blocks if kind == "block" else what in calls if kind == "call" else what in text
            if not there:
                raise refusal(package, f"the page template {name}", f"no longer holds {held!r} in its {part} (the "
                              "starting panel leans on it)")


CONNECTION_CLASS = "jupyter_server.services.kernels.connection.channels.ZMQChannelsWebsocketConnection"


def check_connection_class(connection_class: Any) -> None:
    """A page's kernel connection is jupyter_server's (or made from it): the one whose buffering for a page
    without a connection goes through the kernel manager's start_buffering, which the server caps."""
    expected = resolve(CONNECTION_CLASS)
    if not (isinstance(connection_class, type) and issubclass(connection_class, expected)):
        raise refusal("voila", "voila.app.Voila.kernel_websocket_connection_class",
                      f"is {getattr(connection_class, '__qualname__', connection_class)!r}, not {CONNECTION_CLASS} "
                      "(whose messages kept for a page without a connection the server caps)")
