"""Chromium runs with its sandbox and never as root, as the pool launches it for a worker started as root (this
suite's case) or not: read from /proc of the browser and every process under it, not from Hive's own settings.

A renderer exploit in one stranger's page must stay inside the renderer: no root, seccomp on, its own user, PID
and network namespaces, none of the worker's secrets in reach, and the files Chromium writes readable by nobody else.
"""

from __future__ import annotations

import json
import logging
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import async_playwright

from browser_pool.config import BrowserConfig
from browser_pool.flags import launch
from browser_pool.pool import BrowserPool
from browser_pool.sandbox import (
    CLOSED_TRACE_PREFIX,
    DOWNLOADS_PREFIX,
    NO_SANDBOX_WARNING,
    TRACES_PREFIX,
    SandboxUnavailableError,
    command_line,
)
from tests.conftest import start_ready_worker
from tests.support.processes import wait_until
from tests.support.static_server import serve_directory

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]

AS_ROOT = os.geteuid() == 0
SECRET = "hive-test-secret-in-the-workers-environment"
DOWNLOAD = "<!doctype html><title>Download</title><a id=get href='report.txt' download>get</a>"


def status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def alive(pids: list[int]) -> list[int]:
    """The processes still there: Chromium starts and ends short-lived helpers all the time."""
    return [pid for pid in pids if Path(f"/proc/{pid}/status").exists()]


def descendants(root: int) -> list[int]:
    """Every process under `root` (zygotes, renderers, GPU, utilities), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def environment(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    except (ProcessLookupError, FileNotFoundError):
        return []  # a short-lived helper process that has ended


def owner_and_mode(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_uid, info.st_mode & 0o777


def arguments(pid: int) -> list[str]:
    """A process's switches; Chromium's child processes rewrite their title, so arguments may be split by spaces."""
    return [part for arg in command_line(pid) for part in arg.split(" ") if part]


def kind(pid: int) -> str:
    switch = next((a for a in arguments(pid) if a.startswith("--type=")), "--type=browser")
    return switch.removeprefix("--type=")


def argument(pid: int, prefix: str) -> str:
    return next(a.removeprefix(prefix) for a in arguments(pid) if a.startswith(prefix))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("download-site")
    (folder / "index.html").write_text(DOWNLOAD)
    (folder / "report.txt").write_text("quarterly numbers")
    with serve_directory(folder) as base:
        yield base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[BrowserPool]:
    os.environ["DJANGO_SECRET_KEY_FOR_THIS_TEST"] = SECRET
    pool = BrowserPool(BrowserConfig(max_sessions=2, warm_contexts=0))
    try:
        await pool.start()
        for key, page in (("a", "<p>one</p>"), ("b", "<p>two</p>")):
            session = await pool.acquire(key)
            await session.active_page.set_content(page)
        yield pool
    finally:
        os.environ.pop("DJANGO_SECRET_KEY_FOR_THIS_TEST", None)
        await pool.stop(save_sessions=False)


@pytest.mark.asyncio(loop_scope="module")
async def test_the_browser_and_every_process_under_it_run_unprivileged_with_the_sandbox(pool: BrowserPool) -> None:
    assert pool.browser_pid is not None
    processes = alive([pool.browser_pid, *descendants(pool.browser_pid)])
    kinds = {pid: kind(pid) for pid in processes}
    assert "zygote" in kinds.values()
    assert list(kinds.values()).count("renderer") >= 2, "each session's page has a renderer"
    for pid in processes:
        uids = status(pid)["Uid"].split()
        assert "0" not in uids, f"{kinds[pid]} process {pid} runs as root"
        assert "--no-sandbox" not in arguments(pid), f"{kinds[pid]} process {pid} runs without the sandbox"
        if AS_ROOT:
            assert int(uids[0]) == pwd.getpwnam("hive-browser").pw_uid
    browser_namespaces = {ns: os.readlink(f"/proc/{pool.browser_pid}/ns/{ns}") for ns in ("user", "pid", "net")}
    for pid in (p for p in processes if kinds[p] == "renderer"):
        info = status(pid)
        assert info["Seccomp"].strip() == "2", "every renderer runs under a seccomp-bpf filter"
        assert info["NoNewPrivs"].strip() == "1"
        assert info["CapEff"].strip() == "0000000000000000"
        for ns, outer in browser_namespaces.items():
            assert os.readlink(f"/proc/{pid}/ns/{ns}") != outer, f"a renderer shares the browser's {ns} namespace"


@pytest.mark.asyncio(loop_scope="module")
async def test_the_browser_holds_none_of_the_workers_secrets(pool: BrowserPool) -> None:
    assert pool.browser_pid is not None
    for pid in [pool.browser_pid, *descendants(pool.browser_pid)]:
        variables = "\n".join(environment(pid))
        assert SECRET not in variables
        assert "DJANGO_SECRET_KEY" not in variables
        assert "REDIS_URL" not in variables


@pytest.mark.asyncio(loop_scope="module")
async def test_the_profile_and_downloads_are_the_browser_users_alone(pool: BrowserPool, site: str) -> None:
    assert pool.browser_pid is not None
    owner = int(status(pool.browser_pid)["Uid"].split()[0])
    profile = Path(argument(pool.browser_pid, "--user-data-dir="))
    assert owner_and_mode(profile) == (owner, 0o700)
    if AS_ROOT:  # the launcher keeps Chromium's home and temporary files inside the profile too
        assert f"HOME={profile}" in environment(pool.browser_pid)
        assert f"TMPDIR={profile}" in environment(pool.browser_pid)

    session = await pool.acquire("a")
    page = session.active_page
    await page.goto(f"{site}/index.html")
    async with page.expect_download() as download_info:
        await page.click("#get")
    download = await download_info.value
    saved = Path(await download.path())
    assert await download.failure() is None
    assert owner_and_mode(saved.parent) == (owner, 0o700), "downloads are readable by the browser's user alone"
    assert owner_and_mode(saved)[0] == owner
    await pool.release(session)


# A worker with a browser and a person's download in it, and a traced run's closed chunk waiting to be stored, in a
# process group of its own to be killed whole.
_KILLED_WORKER = """
import asyncio, sys
from pathlib import Path
from playwright.async_api import async_playwright
from browser_pool.config import BrowserConfig
from browser_pool.flags import launch
from browser_pool.sandbox import CLOSED_TRACE_PREFIX, owned_folder

async def main():
    async with async_playwright() as playwright:
        await launch(playwright.chromium, BrowserConfig())
        (owned_folder(CLOSED_TRACE_PREFIX) / "trace.zip").write_text("a traced run's raw record")
        print("ready", flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


def _killed_worker_leaves() -> list[Path]:
    """A worker killed with its browser, as an out-of-memory kill does: the downloads folder (with a person's
    downloaded file in it), a traced run's closed chunk and the profile it leaves behind, the profile made old enough
    to be surely not starting."""
    worker = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WORKER], cwd=REPO, stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "ready"
        chromium = next(pid for pid in descendants(worker.pid) if "--user-data-dir=" in " ".join(arguments(pid)))
        profile = Path(argument(chromium, "--user-data-dir="))
        downloads, traces, closed_trace = _owned_by(worker.pid)
        (downloads / "statement.pdf").write_text("a person's bank statement")
        (traces / "run.network").write_text("a traced run's raw requests")
    finally:
        os.killpg(worker.pid, 9)
        worker.wait(timeout=30)
    # Chromium's crash handler leaves the process group and writes to the profile a moment more.
    wait_until(lambda: not any(_names(pid, profile) for pid in _processes()), 30, "the killed browser to be gone")
    assert profile.is_dir(), "the kill left the profile behind"
    _age(profile)
    return [downloads, traces, closed_trace, profile]


def _age(profile: Path) -> None:
    """Make a profile an hour old: a younger one may belong to a browser still starting, and is kept."""
    an_hour_ago = profile.stat().st_mtime - 3600
    os.utime(profile, (an_hour_ago, an_hour_ago))


def _processes() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def _names(pid: int, path: Path) -> bool:
    return any(str(path) in argument for argument in command_line(pid))


def _owned_by(worker_pid: int) -> list[Path]:
    """A worker's downloads and traces folders, found by their names."""
    return [
        folder
        for prefix in (DOWNLOADS_PREFIX, TRACES_PREFIX, CLOSED_TRACE_PREFIX)
        for folder in Path(tempfile.gettempdir()).glob(f"{prefix}{socket.gethostname()}-{worker_pid}-*")
    ]


def _folders_of(browser_pid: int, worker_pid: int) -> list[Path]:
    """A running browser's profile, downloads and traces folders."""
    return [Path(argument(browser_pid, "--user-data-dir=")), *_owned_by(worker_pid)]


def _there(paths: list[Path]) -> list[Path]:
    return [path for path in paths if path.exists()]


@pytest.mark.asyncio(loop_scope="module")
async def test_what_a_killed_worker_s_browser_left_is_removed_when_a_browser_starts_and_a_live_one_s_is_kept(
    pool: BrowserPool,
) -> None:
    assert pool.browser_pid is not None
    live = _folders_of(pool.browser_pid, os.getpid())
    assert len(live) == 3, live
    _age(live[0])  # kept because its browser names it, not for its age
    left = _killed_worker_leaves()

    async with async_playwright() as playwright:
        browser = await launch(playwright.chromium, BrowserConfig())
        await browser.close()

    assert _there(left) == [], "a killed worker's downloads, trace scratch or profile stayed on disk"
    assert _there(live) == live, "a running browser's folders were removed"
    session = await pool.acquire("b")
    assert await session.active_page.evaluate("document.body.textContent") == "two"
    await pool.release(session)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.skipif(not AS_ROOT, reason="the worker is not root here, so there is no browser user to miss")
async def test_a_root_worker_without_its_browser_user_refuses_to_start() -> None:
    pool = BrowserPool(BrowserConfig(max_sessions=1, warm_contexts=0, browser_user="hive-no-such-user"))
    with pytest.raises(SandboxUnavailableError, match="hive-no-such-user.*does not exist") as refused:
        await pool.start()
    assert "make system" in str(refused.value)
    assert pool.browser_pid is None


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.skipif(not AS_ROOT, reason="needs root to take the sandbox away (Chromium refuses it to root)")
async def test_without_a_sandbox_to_be_had_the_launch_fails_closed_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A worker that believes it is unprivileged starts Chromium directly: as root, where its sandbox cannot run.
    monkeypatch.setattr("browser_pool.sandbox.os.geteuid", lambda: 1000)
    async with async_playwright() as playwright:
        with pytest.raises(SandboxUnavailableError) as refused:
            await launch(playwright.chromium, BrowserConfig())
    message = str(refused.value)
    assert "--no-sandbox" in message  # Chromium's own words, quoted
    assert "HIVE_BROWSER_ALLOW_NO_SANDBOX" in message
    assert "user namespaces" in message


@pytest.mark.asyncio(loop_scope="module")
async def test_an_operator_may_run_without_the_sandbox_only_explicitly_and_it_is_logged_loudly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.CRITICAL, logger="browser_pool.sandbox")
    async with async_playwright() as playwright:
        browser = await launch(playwright.chromium, BrowserConfig(allow_no_sandbox=True))
        try:
            cdp = await browser.new_browser_cdp_session()
            info = await cdp.send("SystemInfo.getProcessInfo")
            pid = next(int(p["id"]) for p in info["processInfo"] if p["type"] == "browser")
            assert "--no-sandbox" in arguments(pid)
            assert "0" not in status(pid)["Uid"].split(), "without the sandbox, still not root"
        finally:
            await browser.close()
    assert [r for r in caplog.records if r.levelno == logging.CRITICAL and r.getMessage() == NO_SANDBOX_WARNING]


UNPRIVILEGED_LAUNCH = """
import asyncio, json, sys
from playwright.async_api import async_playwright
from browser_pool.config import BrowserConfig
from browser_pool.flags import browser_pid, launch
from browser_pool.sandbox import command_line

async def main():
    async with async_playwright() as playwright:
        browser = await launch(playwright.chromium, BrowserConfig())
        page = await browser.new_page()
        await page.set_content("<p>hello</p>")
        pid = await browser_pid(browser)
        print(json.dumps({"pid": pid, "command": command_line(pid)}), flush=True)
        sys.stdin.readline()
        await browser.close()

asyncio.run(main())
"""


@pytest.mark.skipif(not AS_ROOT, reason="the suite already runs unprivileged: the tests above cover that launch")
def test_a_worker_started_unprivileged_launches_chromium_directly_with_the_sandbox() -> None:
    account = pwd.getpwnam("hive-browser")
    home = Path(tempfile.mkdtemp(prefix="hive-unprivileged-worker-"))  # not under pytest's root-only folder
    os.chown(home, account.pw_uid, account.pw_gid)
    worker = subprocess.Popen(
        ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--clear-groups", "--", sys.executable]
        + ["-c", UNPRIVILEGED_LAUNCH],
        cwd=REPO,
        env={"PATH": os.environ["PATH"], "HOME": str(home), "PYTHONPATH": str(REPO)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        line = worker.stdout.readline()
        assert line, worker.stderr.read() if worker.stderr else "the unprivileged worker said nothing"
        launched = json.loads(line)
        pid = launched["pid"]
        assert launched["command"][0].endswith("/chromium"), "no launcher: the worker's user runs Chromium itself"
        for process in [pid, *descendants(pid)]:
            assert status(process)["Uid"].split()[0] == str(account.pw_uid)
            assert "--no-sandbox" not in arguments(process)
        renderers = [p for p in descendants(pid) if kind(p) == "renderer"]
        assert renderers
        assert all(status(p)["Seccomp"].strip() == "2" for p in renderers)
    finally:
        worker.communicate("done\n", timeout=30)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not AS_ROOT, reason="the worker is not root here, so there is no browser user to miss")
def test_a_worker_that_cannot_have_the_sandbox_does_not_start(services_env: dict[str, str], redis_url: str) -> None:
    with pytest.raises(RuntimeError, match="died at start") as died:
        start_ready_worker("unsandboxed", {**services_env, "HIVE_BROWSER_USER": "hive-no-such-user"}, redis_url)
    assert "the worker refuses to start" in str(died.value)
    assert "hive-no-such-user" in str(died.value)
