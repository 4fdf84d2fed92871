"""Where the class records live: a file path or a database URL turned into a SQLAlchemy URL.

- nothing given: ``ESCOBA_TUTOR_CLASS_DB`` if it is set, else ``class.sqlite3`` in the user's data folder
  (platformdirs: ``~/.local/share/escoba-tutor/`` on Linux, ``~/Library/Application Support/escoba-tutor/`` on
  macOS, ``%LOCALAPPDATA%\\escoba-tutor\\`` on Windows);
- a path: a SQLite file there (its folders are created);
- ``sqlite:///PATH``: the same;
- ``postgresql://user:password@host:port/database`` (or ``postgres://``, ``postgresql+DRIVER://``): that
  PostgreSQL database, always through psycopg 3 (``pip install escoba-tutor[postgres]``).

Anything else is a :class:`RecordsError` naming it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from .events import RecordsError

ENV_DATABASE = "ESCOBA_TUTOR_CLASS_DB"
DATABASE_FILE = "class.sqlite3"
_URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+):")
_POSTGRES_SCHEMES = {"postgres", "postgresql"}


@dataclass(frozen=True)
class Location:
    url: URL
    path: Path | None  # the SQLite file, None for a database server


def default_database_path() -> Path:
    return Path(user_data_dir("escoba-tutor", appauthor=False)) / DATABASE_FILE


def locate(url_or_path: str | os.PathLike[str] | None) -> Location:
    """The database that ``url_or_path`` names (see the module's text), or RecordsError."""
    if url_or_path is None:
        url_or_path = os.environ.get(ENV_DATABASE, "").strip() or default_database_path()
    if isinstance(url_or_path, os.PathLike):
        return _sqlite_file(Path(url_or_path))
    if not isinstance(url_or_path, str):
        raise RecordsError(f"a class database is a path or a URL, not {type(url_or_path).__name__}",
                           code="records_bad_location")
    text = url_or_path.strip()
    if not text or "\x00" in text:
        raise RecordsError(f"{url_or_path!r} names no class database", code="records_bad_location")
    scheme = _URL_SCHEME.match(text)
    if scheme is None:
        return _sqlite_file(Path(text))
    name = scheme.group(1).lower()
    if name == "sqlite":
        return _sqlite_url(text)
    if name in _POSTGRES_SCHEMES or name.startswith("postgresql+"):  # whatever driver was named: psycopg 3
        try:
            url = make_url(text)
        except ArgumentError as error:
            raise RecordsError(f"{_hidden(text)} is not a database URL: {error}", code="records_bad_url") from None
        if not url.database:
            raise RecordsError(f"{_hidden(text)} names no database (postgresql://user@host/DATABASE)",
                               code="records_bad_url")
        return Location(url.set(drivername="postgresql+psycopg"), None)
    raise RecordsError(f"the class database cannot be a {name}: URL ({_hidden(text)}); give a file path, "
                       "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE", code="records_bad_scheme",
                       scheme=name)


def _hidden(text: str) -> str:
    """A URL as it may be shown: its password (if any) replaced by ***."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)


def _sqlite_url(text: str) -> Location:
    try:
        url = make_url(text)
    except ArgumentError as error:
        raise RecordsError(f"{text} is not a database URL: {error}", code="records_bad_url") from None
    if url.drivername not in ("sqlite", "sqlite+pysqlite"):
        raise RecordsError(f"{text}: SQLite is read through Python's own sqlite3 only", code="records_bad_url")
    if not url.database or url.database == ":memory:" or url.query.get("mode") == "memory":
        raise RecordsError(f"{text} is a database in memory, which keeps nothing: give a file",
                           code="records_bad_location")
    return _sqlite_file(Path(url.database))


def _sqlite_file(path: Path) -> Location:
    path = path.expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    if path.is_dir():
        raise RecordsError(f"the class database {path} is a folder: give a file in it, e.g. {path / DATABASE_FILE}",
                           code="records_path_is_folder", path=str(path))
    return Location(URL.create("sqlite+pysqlite", database=str(path)), path)
