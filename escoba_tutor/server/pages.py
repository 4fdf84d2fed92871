"""The server's own pages and page parts, from the Jinja templates in server/templates/ (every value escaped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

__all__ = ["jinja", "render"]

TEMPLATES = Path(__file__).resolve().parent / "templates"
jinja = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "j2"]),
                    trim_blocks=True, lstrip_blocks=True)


def render(name: str, **values: Any) -> str:
    return jinja.get_template(name).render(**values)
