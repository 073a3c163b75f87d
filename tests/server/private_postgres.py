"""A PostgreSQL cluster of the test's own, on its own port, that the test may stop and start.

The suite's shared PostgreSQL (tests/parts.py) serves many tests at once; an outage is only
tested on a cluster no other test uses. The server binaries come with the PostgreSQL that
scripts/test-parts.sh installs. As root, the cluster runs as the ``postgres`` user, since
PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from .live import free_port


def server_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or None when PostgreSQL's server is missing."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(folders[-1]).parent if folders else None


class PrivatePostgres:
    """initdb into a fresh folder, then ``start`` and ``stop`` as often as the test likes."""

    def __init__(self) -> None:
        binaries = server_binaries()
        if binaries is None:
            raise RuntimeError("no PostgreSQL server binaries: run scripts/test-parts.sh")
        self.binaries = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="tminus-pg-"))
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            owner = pwd.getpwnam(self.user)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", self._data, "-U", "tminus", "-A", "trust", "--no-sync",
                  "--no-instructions")  # fmt: skip

    @property
    def _data(self) -> str:
        return str(self.folder / "data")

    @property
    def url(self) -> str:
        return f"postgresql://tminus@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *arguments: str) -> None:
        command = [str(self.binaries / program), *arguments]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder, timeout=60)

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=60"
        )
        self._run("pg_ctl", "-D", self._data, "-o", options, "-l", str(self.folder / "log"),
                  "-w", "start")  # fmt: skip

    def stop(self) -> None:
        """Stop at once, as a crash or a failover would: every connection is cut."""
        self._run("pg_ctl", "-D", self._data, "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # (already stopped)
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
