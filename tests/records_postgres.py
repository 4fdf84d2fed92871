"""A real PostgreSQL server for the class records' tests, started by the test in a temporary folder.

The server listens on loopback only, on a free port, with its unix socket in the same temporary folder, and runs
as the current user; as root (which ``initdb`` refuses) it runs as the ``postgres`` user through ``runuser``.
Where it cannot run (no PostgreSQL installed, root without a ``postgres`` user) the tests that need it are
skipped with the reason. Debian's ``postgresql`` package provides it (.ci/run installs it).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class PostgresServer:
    host: str
    port: int
    user: str

    def url(self, database: str, *, password: str | None = None) -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{self.user}{secret}@{self.host}:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(host=self.host, port=self.port, user=self.user, dbname="postgres",
                             autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def why_postgres_cannot_run() -> str | None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    if _postgres_bin("initdb") is None or _postgres_bin("pg_ctl") is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root, where initdb refuses to run, and runuser is missing to run it as another user"
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, where initdb refuses to run, and there is no 'postgres' user to run it as"
    return None


def start_postgres() -> Iterator[PostgresServer]:
    """Start a throw-away server; yield it; stop it and delete its folder."""
    reason = why_postgres_cannot_run()
    if reason is not None:
        pytest.skip(f"the PostgreSQL tests need a server they start themselves: {reason}")
    initdb, pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
    folder = Path(tempfile.mkdtemp(prefix="escoba-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        account = pwd.getpwnam("postgres")
        os.chown(folder, account.pw_uid, account.pw_gid)
    data, log = folder / "data", folder / "server.log"
    port = _free_port()
    user = "escoba"
    try:
        done = subprocess.run([*as_user, initdb, "-D", data, "-U", user, "-A", "trust", "-E", "UTF8",
                               "--no-sync", "--no-instructions"], cwd=folder, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, f"initdb failed:\n{done.stdout}\n{done.stderr}"
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=100"
        done = subprocess.run([*as_user, pg_ctl, "-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"],
                              cwd=folder, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (f"pg_ctl start failed:\n{done.stdout}\n{done.stderr}\n"
                                      f"{log.read_text() if log.exists() else ''}")
        try:
            yield PostgresServer("127.0.0.1", port, user)
        finally:
            subprocess.run([*as_user, pg_ctl, "-D", data, "-m", "fast", "-w", "stop"], cwd=folder,
                           capture_output=True, timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
