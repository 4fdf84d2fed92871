"""Where the class records live: a file path or a database URL turned into a SQLAlchemy URL.

- nothing given: ``ESCOBA_TUTOR_CLASS_DB`` if it is set, else ``class.sqlite3`` in the user's data folder
  (platformdirs: ``~/.local/share/escoba-tutor/`` on Linux, ``~/Library/Application Support/escoba-tutor/`` on
  macOS, ``%LOCALAPPDATA%\\escoba-tutor\\`` on Windows);
- a path: a SQLite file there (its folders are created);
- ``sqlite:///PATH``: the same;
- ``postgresql://user:password@host:port/database`` (or ``postgres://``, ``postgresql+DRIVER://``): that
  PostgreSQL database, always through psycopg 3 (``pip install escoba-tutor[postgres]``).

Anything else is a :class:`RecordsError` naming it.

:func:`sqlite_file` decides which SQLite file (or database server) is meant with the standard library alone;
:func:`locate` builds on it. Only the course server (and the teacher's tools) open the database: a student's
kernel sends its records to the server (:mod:`escoba_tutor.records.recorder`) and is never told where it is.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote

from .events import RecordsError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

ENV_DATABASE = "ESCOBA_TUTOR_CLASS_DB"
DATABASE_FILE = "class.sqlite3"
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+):")
_POSTGRES_SCHEMES = {"postgres", "postgresql"}
# A SQLite URL as SQLAlchemy reads one: sqlite[+driver]://[host]/DATABASE[?query] (the host is not used).
_SQLITE_URL = re.compile(r"(?P<driver>[^:/?]+)://(?P<host>[^/?]*)(?:/(?P<database>[^?]*))?(?:\?(?P<query>.*))?", re.S)


@dataclass(frozen=True)
class Location:
    url: URL
    path: Path | None  # the SQLite file, None for a database server


def default_database_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("escoba-tutor", appauthor=False)) / DATABASE_FILE


def sqlite_file(url_or_path: str | os.PathLike[str] | None) -> Path | str:
    """The SQLite file that ``url_or_path`` names (see the module's text), or the text of a PostgreSQL URL (a
    database server: only :func:`locate` reads it); RecordsError for anything else. No SQLAlchemy is loaded."""
    if url_or_path is None:
        url_or_path = os.environ.get(ENV_DATABASE, "").strip() or default_database_path()
    if isinstance(url_or_path, os.PathLike):
        return _sqlite_path(Path(url_or_path))
    if not isinstance(url_or_path, str):
        raise RecordsError(f"a class database is a path or a URL, not {type(url_or_path).__name__}",
                           code="records_bad_location")
    text = url_or_path.strip()
    if not text or "\x00" in text:
        raise RecordsError(f"{url_or_path!r} names no class database", code="records_bad_location")
    scheme = _URL_SCHEME.match(text)
    if scheme is None:
        return _sqlite_path(Path(text))
    name = scheme.group(1).lower()
    if name == "sqlite" or name.startswith("sqlite+"):
        return _sqlite_url(text)
    if name in _POSTGRES_SCHEMES or name.startswith("postgresql+"):
        return text
    raise RecordsError(f"the class database cannot be a {name}: URL ({_hidden(text)}); give a file path, "
                       "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE", code="records_bad_scheme",
                       scheme=name)


def locate(url_or_path: str | os.PathLike[str] | None) -> Location:
    """The database that ``url_or_path`` names (see the module's text), or RecordsError."""
    from sqlalchemy.engine import URL, make_url
    from sqlalchemy.exc import ArgumentError

    where = sqlite_file(url_or_path)
    if isinstance(where, Path):
        return Location(URL.create("sqlite+pysqlite", database=str(where)), where)
    try:  # a PostgreSQL URL: whatever driver was named, psycopg 3
        url = make_url(where)
    except ArgumentError as error:
        raise RecordsError(f"{_hidden(where)} is not a database URL: {error}", code="records_bad_url") from None
    if not url.database:
        raise RecordsError(f"{_hidden(where)} names no database (postgresql://user@host/DATABASE)",
                           code="records_bad_url")
    return Location(url.set(drivername="postgresql+psycopg"), None)


def _hidden(text: str) -> str:
    """A URL as it may be shown: its password (if any) replaced by ***."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)


def _sqlite_url(text: str) -> Path:
    """The file of a ``sqlite:`` URL, read as SQLAlchemy reads it (tests/test_records_kernel.py compares them)."""
    parts = _SQLITE_URL.fullmatch(text)
    if parts is None:
        raise RecordsError(f"{text} is not a database URL: write sqlite:///PATH", code="records_bad_url")
    if parts["driver"].lower() not in ("sqlite", "sqlite+pysqlite"):
        raise RecordsError(f"{text}: SQLite is read through Python's own sqlite3 only", code="records_bad_url")
    database = unquote(parts["database"] or "")
    query = dict(parse_qsl(parts["query"] or "", keep_blank_values=True))
    if not database or database == ":memory:" or query.get("mode") == "memory":
        raise RecordsError(f"{text} is a database in memory, which keeps nothing: give a file",
                           code="records_bad_location")
    return _sqlite_path(Path(database))


def _sqlite_path(path: Path) -> Path:
    path = path.expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    if path.is_dir():
        raise RecordsError(f"the class database {path} is a folder: give a file in it, e.g. {path / DATABASE_FILE}",
                           code="records_path_is_folder", path=str(path))
    return path
