"""A throw-away PostgreSQL server for the test suite: Debian's `postgresql` binaries, a data folder of its own, a
free port on 127.0.0.1, a random password; stopped and deleted at the end.

initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user, otherwise as the current user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from tests.support.processes import free_port

USER = "hive"
DATABASE = "hive"
# The suite's data is thrown away at the end: no reason to wait for the disk.
_FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB"


def binaries() -> Path:
    """The newest PostgreSQL installed in Debian's layout (/usr/lib/postgresql/<version>/bin), or on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(Path(path).parts[-3]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError(
        "PostgreSQL is not installed: `make system` installs Debian's postgresql (or run the suite on SQLite with "
        "HIVE_TEST_DB=sqlite)."
    )


class PostgresServer:
    def __init__(self) -> None:
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="hive-test-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.password = secrets.token_urlsafe(24)
        self.port = 0
        # As root, the files and the server belong to `postgres`; the folder is private to that user.
        self._owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if self._owner is not None:
            os.chown(self.folder, self._owner.pw_uid, self._owner.pw_gid)

    @property
    def url(self) -> str:
        return f"postgres://{USER}:{self.password}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [*args]
        if self._owner is not None:
            command = ["runuser", "-u", self._owner.pw_name, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder)

    def start(self, attempts: int = 3) -> None:
        password_file = self.folder / "password"
        password_file.write_text(self.password + "\n", encoding="utf-8")
        if self._owner is not None:
            os.chown(password_file, self._owner.pw_uid, self._owner.pw_gid)
        password_file.chmod(0o600)
        made = self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, f"--pwfile={password_file}",
            "--auth=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        password_file.unlink()
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{made.stdout}{made.stderr}")
        for _ in range(attempts):
            # A free port may be taken by someone else between finding it and binding it: try another.
            self.port = free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} {_FAST}"
            )
            started = self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options,
                "start",
            )  # fmt: skip
            if started.returncode == 0:
                with psycopg.connect(self.url.removesuffix(DATABASE) + "postgres", autocommit=True) as connection:
                    connection.execute(f"CREATE DATABASE {DATABASE}")
                return
        raise RuntimeError(f"PostgreSQL did not start:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        """The postmaster's process id (the first line of its pid file)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def log_tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
