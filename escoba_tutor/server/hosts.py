"""The ``Host`` names the server answers to, and paths no handler should see.

A web page the teacher visits could otherwise reach the class server by DNS rebinding: its own name, resolved
again to the teacher's machine, would carry its scripts past the browser's same-origin rule. Such a request
always names the attacker's host, so the server answers only the names it is really reached by:

- ``localhost`` and loopback addresses, always;
- when it listens beyond this computer (``--ip``): any address written as digits (a rebinding page can only come
  by a name), the machine's own names (``socket.gethostname()``, its fully qualified name and ``NAME.local``), and
  the ``--ip`` given if it is a name;
- the names given with ``--allow-host`` (the school's name for the machine, a proxy's or JupyterHub's host).

>>> hosts = AllowedHosts("127.0.0.1", ["aula.example.es"])
>>> [hosts.allows(h) for h in ("127.0.0.1:8866", "localhost", "[::1]:80", "AULA.example.es", "rebind.example",
...                            "192.168.1.20")]
[True, True, True, True, False, False]
>>> AllowedHosts("0.0.0.0", []).allows("192.168.1.20:8866")
True
>>> [odd_path(p) for p in ("/voila/render/es/index.ipynb", "/voila/templates/..%2f..%2fetc", "/voila/files/a%00b")]
[None, 404, 400]
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import unquote

__all__ = ["AllowedHosts", "odd_path"]

LOOPBACK_IPS = ("127.0.0.1", "localhost", "::1")


def _host_name(host: str) -> str:
    """The name or address of a ``Host`` header, without its port, brackets, case or final dot."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _address(host: str):
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


class AllowedHosts:
    def __init__(self, ip: str, extra: Iterable[str] = ()) -> None:
        self.local_only = ip in LOOPBACK_IPS or bool(_address(ip) and _address(ip).is_loopback)
        self.names = {"localhost", *(_host_name(name) for name in extra if name)}
        if not self.local_only:
            own = socket.gethostname().lower()
            self.names |= {own, f"{own}.local", socket.getfqdn().lower()}
            if _address(ip) is None and ip:
                self.names.add(_host_name(ip))
        self.names.discard("")

    def allows(self, host: str) -> bool:
        name = _host_name(host or "")
        address = _address(name)
        if address is not None:
            return address.is_loopback or not self.local_only
        return name in self.names or name.endswith(".localhost")


def odd_path(path: str) -> int | None:
    """The status for a path no handler should be given (a NUL byte: 400; a ``..`` step or a backslash once
    decoded, as in ``/voila/templates/..%2f…``: 404), or None for an ordinary path."""
    decoded = unquote(path.split("?", 1)[0])
    if "\x00" in decoded:
        return 400
    if "\\" in decoded or ".." in decoded.split("/"):
        return 404
    return None
