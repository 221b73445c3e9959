"""Taking a finished download out of the browser's folder, safely.

Chromium writes downloads into a folder owned by the user it runs as (browser_pool.sandbox), which a worker running
as root can read like any other. A browser taken over by a page could put a link there in place of the file, naming
a file of the worker's (its secrets, another tenant's data), and a copy made by following it would hand that file to
the page's owner. So the file is opened without following links and without waiting on a pipe, and only a plain file
of the folder's own user with a single name is read; the copy stops one byte past the limit, in chunks, so a file
larger than allowed is never read whole nor held in memory.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1024 * 1024


class UnsafeDownloadError(Exception):
    """The browser's file is not a plain file of the browser's user: it is not read."""


class TooLargeError(Exception):
    def __init__(self, at_least: int) -> None:
        super().__init__(f"at least {at_least} bytes")
        self.at_least = at_least


@dataclass(frozen=True, slots=True)
class Copied:
    path: Path  # a file of this process's user, readable by it alone; the caller removes it
    size: int


def copy_out(source: Path, limit: int) -> Copied:
    """Copy the browser's file `source` to a private temporary file, refusing it past `limit` bytes."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(source, flags)
    except OSError as exc:  # ELOOP: a link stands where the file should be
        raise UnsafeDownloadError(f"the downloaded file cannot be opened safely ({exc.strerror})") from exc
    with os.fdopen(fd, "rb") as reader:
        info = os.fstat(reader.fileno())
        owner = os.stat(source.parent).st_uid
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_uid != owner:
            raise UnsafeDownloadError("the downloaded file is not a plain file of the browser's own")
        if info.st_size > limit:
            raise TooLargeError(info.st_size)
        out_fd, out_name = tempfile.mkstemp(prefix="hive-download-")
        copied = 0
        try:
            with os.fdopen(out_fd, "wb") as writer:
                while chunk := reader.read(min(CHUNK, limit + 1 - copied)):
                    copied += len(chunk)
                    if copied > limit:  # it grew after the check
                        raise TooLargeError(copied)
                    writer.write(chunk)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(out_name)
            raise
    return Copied(Path(out_name), copied)
