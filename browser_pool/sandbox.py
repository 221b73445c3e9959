"""How Chromium is started: with its sandbox on, never as root, and without the worker's environment.

Every tenant's pages run in one Chromium, so the sandbox is what keeps a renderer exploit in one stranger's page
from the others' cookies, the worker's secrets and its network. Chromium's Linux sandbox (user, PID and network
namespaces, a seccomp filter per renderer) works for an unprivileged user and refuses to run as root, so:

- a worker running as an unprivileged user launches Chromium directly, sandbox on;
- a worker running as root launches it through `as_browser_user.sh`, which hands Playwright's fresh profile
  directory to the browser user (`BrowserConfig.browser_user`, a system account with no login) and drops to it
  with `setpriv` (no capabilities, no new privileges) before exec'ing Chromium with the sandbox on;
- if the sandbox cannot be had the launch fails with `SandboxUnavailableError`, saying what to fix; only an
  operator's explicit `BrowserConfig.allow_no_sandbox` starts Chromium with `--no-sandbox`, logged loudly.

Chromium gets a short list of environment variables, never the worker's own (secret keys, database URLs), and a
downloads folder of its own that only the user it runs as can read.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import pwd
import re
import shutil
import socket
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from playwright.async_api import FilePayload

from browser_pool.errors import PoolError

log = logging.getLogger(__name__)

LAUNCHER = "as_browser_user.sh"
# What Chromium needs from the environment: where programs are, the locale and time zone pages see, fonts.
PASSED_ENVIRONMENT = ("PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "FONTCONFIG_FILE")
_DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
# How Chromium and the launcher say that the sandbox (or the user to run it as) is not to be had.
_SANDBOX_FAILURES = ("No usable sandbox", "without --no-sandbox", "hive browser launcher", "setpriv:")
# A downloads folder is named after the host, process and that process's start time whose browser it serves, so one
# left by a process that is gone (its id perhaps taken by another since) can be told from one in use.
DOWNLOADS_PREFIX = "hive-browser-downloads-"
# Likewise Playwright's scratch folder for a traced run, which holds its raw, unmasked record until the chunk is closed.
TRACES_PREFIX = "hive-browser-traces-"
# And the folder a traced run's closed chunk waits in, raw, until it is masked and stored.
CLOSED_TRACE_PREFIX = "hive-trace-"
# Playwright's name for the profile folder it makes for each Chromium it launches.
PROFILE_PREFIX = "playwright_chromiumdev_profile-"
# Playwright makes the profile folder just before it starts Chromium: a younger one may not be named by a process yet.
PROFILE_GRACE_S = 120.0
NO_SANDBOX_WARNING = (
    "Chromium runs WITHOUT its sandbox (allowed by HIVE_BROWSER_ALLOW_NO_SANDBOX): a renderer exploit in any "
    "page reaches every session on this worker. Turn the setting off once the sandbox works (docs/security.md)."
)


class SandboxUnavailableError(PoolError):
    """Chromium cannot start with its sandbox as an unprivileged user; the message says what to change."""


@dataclass(frozen=True, slots=True)
class LaunchPlan:
    """What Playwright is told to start, and as whom."""

    executable_path: str
    chromium_sandbox: bool
    env: dict[str, str]
    downloads_path: str
    traces_path: str
    uid: int  # the user Chromium runs as
    through_launcher: bool

    def discard(self) -> None:
        """Remove the downloads and traces folders (the browser is gone)."""
        shutil.rmtree(self.downloads_path, ignore_errors=True)
        shutil.rmtree(self.traces_path, ignore_errors=True)


def launcher_path() -> str:
    return str(resources.files(__package__).joinpath(LAUNCHER))


def _browser_account(name: str) -> pwd.struct_passwd:
    if not name:
        raise SandboxUnavailableError(
            "the worker runs as root and no browser user is set (HIVE_BROWSER_USER); Chromium must not run as root"
        )
    try:
        account = pwd.getpwnam(name)
    except KeyError:
        raise SandboxUnavailableError(
            f"the worker runs as root and Chromium must not: the browser user {name!r} does not exist. Create it "
            f"(`make system` does: useradd --system --user-group --no-create-home --shell /usr/sbin/nologin {name}) "
            "or start the worker as an unprivileged user"
        ) from None
    if account.pw_uid == 0:
        raise SandboxUnavailableError(f"the browser user {name!r} is root; name an unprivileged user")
    return account


def plan_launch(
    executable_path: str, *, browser_user: str, allow_no_sandbox: bool, as_root: bool | None = None
) -> LaunchPlan:
    """How to start Chromium from this process (`as_root` defaults to whether this process is root)."""
    as_root = os.geteuid() == 0 if as_root is None else as_root
    env = {name: os.environ[name] for name in PASSED_ENVIRONMENT if name in os.environ}
    env.setdefault("PATH", _DEFAULT_PATH)
    if as_root:
        account = _browser_account(browser_user)
        uid, gid = account.pw_uid, account.pw_gid
        env |= {
            "HIVE_BROWSER_UID": str(uid),
            "HIVE_BROWSER_GID": str(gid),
            "HIVE_BROWSER_EXECUTABLE": executable_path,
        }
        launcher = launcher_path()
        if not os.access(launcher, os.X_OK):
            raise SandboxUnavailableError(f"the browser launcher {launcher} is not executable (chmod 755 it)")
    else:
        uid, gid = os.geteuid(), os.getegid()
    # Downloads of every session land here; Playwright's default folder would be the worker's, unwritable for the
    # browser user. mkdtemp makes it 0700, and it is given to the user Chromium runs as.
    downloads = tempfile.mkdtemp(prefix=_owned_prefix(DOWNLOADS_PREFIX))
    if as_root:
        os.chown(downloads, uid, gid)
    if allow_no_sandbox:
        log.critical(NO_SANDBOX_WARNING)
    return LaunchPlan(
        executable_path=launcher_path() if as_root else executable_path,
        chromium_sandbox=not allow_no_sandbox,
        env=env,
        downloads_path=downloads,
        traces_path=tempfile.mkdtemp(prefix=_owned_prefix(TRACES_PREFIX)),  # written by Playwright, not the browser
        uid=uid,
        through_launcher=as_root,
    )


def sweep_leftovers() -> list[str]:
    """Remove what browsers killed with their worker left in the temporary folder, and return what was removed.

    A browser closed by its pool takes its folders with it; one killed with its worker (a crash, an out-of-memory
    kill, a deploy that did not wait) leaves its downloads folder, which can hold a person's downloaded files, the
    scratch folder of a run's trace and a closed trace waiting to be stored (both raw, unmasked), and its profile,
    each worker start adding more. Removed: a downloads, traces or closed-trace folder of this host whose process is
    gone, and a profile no running process names on its command line (older than `PROFILE_GRACE_S`). Anything in
    doubt stays.
    Profiles carry no host in their name: a temporary folder shared with another host's or container's browsers (not
    compose's way, where each container has its own) would lose their profiles.
    """
    root = Path(tempfile.gettempdir())
    try:
        entries = list(root.iterdir())
    except OSError:
        return []
    host = re.escape(socket.gethostname())
    kinds = "|".join((DOWNLOADS_PREFIX, TRACES_PREFIX, CLOSED_TRACE_PREFIX))
    ours = re.compile(f"(?:{kinds}){host}-" + r"(\d{1,10})-(\d{1,20})-[a-z0-9_]{8}")
    stale: list[Path] = []
    profiles: list[Path] = []
    for entry in entries:
        owner = ours.fullmatch(entry.name)
        if owner is not None and _start_time(int(owner.group(1))) != int(owner.group(2)):
            stale.append(entry)
        elif entry.name.startswith(PROFILE_PREFIX) and _older_than(entry, time.time() - PROFILE_GRACE_S):
            profiles.append(entry)
    if profiles:
        named = _named_folders()
        stale += [profile for profile in profiles if profile.name not in named]
    removed = []
    for path in stale:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
            if not path.exists():
                removed.append(str(path))
    if removed:
        log.info("removed %d folder(s) left by browsers that were killed", len(removed))
    return removed


def owned_folder(kind: str) -> Path:
    """A new private folder in the temporary folder, named so that the sweep removes it once this process is gone."""
    return Path(tempfile.mkdtemp(prefix=_owned_prefix(kind)))


def _owned_prefix(kind: str) -> str:
    """A folder name's start that says whose it is: this host, this process and when it started."""
    return f"{kind}{socket.gethostname()}-{os.getpid()}-{_start_time(os.getpid())}-"


def _start_time(pid: int) -> int | None:
    """When the process started (clock ticks since boot), None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def _older_than(path: Path, moment: float) -> bool:
    try:
        return path.stat().st_mtime < moment
    except OSError:
        return False


def command_line(pid: int | None) -> list[str]:
    """A process's arguments ([] when they cannot be read)."""
    if pid is None:
        return []
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def _named_folders() -> set[str]:
    """The last part of every path a running process names on its command line (as an argument or a `--name=`'s
    value): a profile in use is named by its Chromium's, however its path is spelled."""
    named: set[str] = set()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            for argument in command_line(int(proc.name)):
                named.update(Path(value).name for value in (argument, argument.partition("=")[2]) if value)
    return named


def explain_launch_failure(message: str, plan: LaunchPlan) -> SandboxUnavailableError | None:
    """The launch failed: when it was the sandbox (or the drop to the browser user), an error saying what to do."""
    if not any(marker in message for marker in _SANDBOX_FAILURES):
        return None
    said = next(
        (line.strip() for line in message.splitlines() if any(marker in line for marker in _SANDBOX_FAILURES)), ""
    )
    who = "the browser user" if plan.through_launcher else "this worker's user"
    return SandboxUnavailableError(
        f"Chromium cannot start with its sandbox as {who} (uid {plan.uid}): {said[:300]}. The sandbox needs "
        "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; "
        "in a container, a seccomp profile that allows them, see docker-compose.yml). Hive refuses to run pages "
        "without it; HIVE_BROWSER_ALLOW_NO_SANDBOX=true overrides this at the cost of that isolation."
    )


def file_for_the_browser(path: Path) -> FilePayload:
    """A worker's file as a file input takes it: its bytes, not its path, since Chromium may run as another user
    who cannot open the worker's files (and should not)."""
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return FilePayload(name=path.name, mimeType=kind, buffer=path.read_bytes())
