"""A session's downloads in real Chromium: every way a page downloads reaches the keeper as a private copy and is told
in the action's result; a file past the limit is stopped on the way (the site sent a fraction of it) and never kept;
a session's downloads are bounded in number; the copy out of the browser's folder reads only a plain file."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio

from browser_pool.actions import execute_action
from browser_pool.config import BrowserConfig
from browser_pool.downloads import DownloadLimits, DownloadStart
from browser_pool.downloads.files import TooLargeError, UnsafeDownloadError, copy_out
from browser_pool.pool import BrowserPool
from browser_pool.session import Session
from tests.support.downloads import (
    BIG_BYTES,
    BLOB_CSV,
    CSV,
    DATA_TEXT,
    ENDLESS_CAP_BYTES,
    DownloadSite,
    download_site,
)
from tests.support.waiting import eventually

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

LIMIT = 1_000_000


@dataclass
class Ticket:
    keeper: Keeper
    start: DownloadStart
    max_bytes: int
    limit: str = "the 1 MB a download may be"

    async def keep(self, path: Path, size: int) -> str:
        self.keeper.kept[self.start.suggested_name] = _private_copy(path)
        return f"{self.start.suggested_name} kept ({size} bytes)"

    async def refused(self, message: str) -> None:
        self.keeper.refused.append(message)


def _private_copy(path: Path) -> bytes:
    info = path.stat()
    assert info.st_uid == os.geteuid()
    assert stat.S_IMODE(info.st_mode) == 0o600, "a private copy of our own"
    return path.read_bytes()


def _copies_left() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("hive-download-*"))


@dataclass
class Keeper:
    max_bytes: int = LIMIT
    kept: dict[str, bytes] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    starts: list[tuple[str, DownloadStart]] = field(default_factory=list)

    async def __call__(self, key: str, start: DownloadStart) -> Ticket:
        self.starts.append((key, start))
        return Ticket(self, start, self.max_bytes)


@pytest.fixture
def files() -> Iterator[DownloadSite]:
    with download_site() as site:
        yield site


@pytest_asyncio.fixture
async def keeper() -> Keeper:
    return Keeper()


@pytest_asyncio.fixture
async def pool(keeper: Keeper) -> AsyncIterator[BrowserPool]:
    pool = BrowserPool(
        BrowserConfig(max_sessions=2, warm_contexts=0, downloads=DownloadLimits(in_flight=1, wait_s=5.0)),
        on_download=keeper,
    )
    await pool.start()
    try:
        yield pool
    finally:
        await pool.stop(save_sessions=False)


async def _click_and_report(session: Session, selector: str) -> list[str]:
    """What the click's result, or (for a download that began after the click returned) the next action's, says."""
    told = (await execute_action(session, "click", {"selector": selector})).downloads
    if not told:
        told = (await execute_action(session, "wait", {"ms": 300})).downloads
    return told


async def test_every_way_a_page_downloads_reaches_the_keeper_and_the_actions_result(
    pool: BrowserPool, keeper: Keeper, files: DownloadSite
) -> None:
    session = await pool.acquire("downloads")
    assert (await execute_action(session, "navigate", {"url": files.url})).ok

    assert await _click_and_report(session, "#csv") == [f"report.csv kept ({len(CSV)} bytes)"]
    assert keeper.kept["report.csv"] == CSV
    told = await _click_and_report(session, "#pdf")  # a button whose navigation is a download
    assert told
    assert told[0].startswith("report.pdf kept")
    assert keeper.kept["report.pdf"].startswith(b"%PDF-1.4")
    assert (await _click_and_report(session, "#blob"))[0].startswith("trains.csv kept")
    assert keeper.kept["trains.csv"].decode() == BLOB_CSV
    assert (await _click_and_report(session, "#data"))[0].startswith("greeting.txt kept")
    assert keeper.kept["greeting.txt"].decode() == DATA_TEXT

    opened = await execute_action(session, "navigate", {"url": f"{files.url}/report.csv?again"})
    assert opened.ok, "an address that is a file is downloaded, not an error"
    assert "downloaded" in opened.data["note"]
    told = opened.downloads or (await execute_action(session, "wait", {"ms": 300})).downloads
    assert told == [f"report.csv kept ({len(CSV)} bytes)"]

    urls = {start.suggested_name: start.url for _, start in keeper.starts}
    assert urls["report.csv"].startswith(files.url)
    assert urls["trains.csv"].startswith("blob:")
    assert urls["greeting.txt"] == "data:text/plain;base64", "a data URL is kept only as far as its media type"
    assert {key for key, _ in keeper.starts} == {"downloads"}
    assert not keeper.refused
    assert pool._meter is not None
    assert pool._meter.tracked == 0, "ended downloads are let go"


async def test_a_download_past_the_limit_is_stopped_on_the_way_and_never_kept(
    pool: BrowserPool, keeper: Keeper, files: DownloadSite
) -> None:
    session = await pool.acquire("big")
    await execute_action(session, "navigate", {"url": files.url})
    leftovers_before = _copies_left()

    told = await _click_and_report(session, "#big")  # its length is announced: stopped at once
    assert told == [f"big.bin was not kept: it is {BIG_BYTES / 1e6:.1f} MB, larger than the 1 MB a download may be."]
    told = await _click_and_report(session, "#endless")  # no length: stopped once past the limit
    await eventually(lambda: len(keeper.refused) == 2, what="the endless download refused")
    assert "endless.bin was not kept: it is" in " ".join(told + keeper.refused)

    assert not keeper.kept
    assert "/big.bin" not in files.finished
    assert "/endless.bin" not in files.finished
    assert files.sent["/big.bin"] < BIG_BYTES / 4, f"the site sent {files.sent['/big.bin']} bytes of it"
    assert files.sent["/endless.bin"] < 20 * LIMIT
    assert _copies_left() <= leftovers_before, "no copy is left behind"


async def test_a_session_runs_a_bounded_number_of_downloads(keeper: Keeper, files: DownloadSite) -> None:
    keeper.max_bytes = ENDLESS_CAP_BYTES  # the endless download keeps running while the next one begins
    pool = BrowserPool(
        BrowserConfig(
            max_sessions=1, warm_contexts=0, downloads=DownloadLimits(ENDLESS_CAP_BYTES, in_flight=1, wait_s=1)
        ),
        on_download=keeper,
    )
    await pool.start()
    try:
        session = await pool.acquire("many")
        await execute_action(session, "navigate", {"url": files.url})
        await execute_action(session, "click", {"selector": "#endless"})
        await eventually(lambda: files.sent["/endless.bin"] > 0, what="the first download to run")
        await _click_and_report(session, "#csv")
        await eventually(lambda: bool(keeper.refused), what="the second download refused")
        assert keeper.refused[0] == "report.csv was not kept: 1 download(s) of this session were running."
        assert "report.csv" not in keeper.kept
        assert "/endless.bin" not in files.finished, "the first one was still running"
    finally:
        await pool.stop(save_sessions=False)


@pytest.mark.filterwarnings("ignore:.*is marked with '@pytest.mark.asyncio'")
def test_the_copy_out_of_the_browsers_folder_reads_only_a_plain_file(tmp_path: Path) -> None:
    folder = tmp_path / "browser-downloads"
    folder.mkdir()
    secret = tmp_path / "secret"
    secret.write_text("the worker's secret")

    plain = folder / "plain"
    plain.write_bytes(b"x" * 10)
    copied = copy_out(plain, limit=10)
    assert copied.path.read_bytes() == b"x" * 10
    assert stat.S_IMODE(copied.path.stat().st_mode) == 0o600
    copied.path.unlink()
    with pytest.raises(TooLargeError):
        copy_out(plain, limit=9)

    (folder / "link").symlink_to(secret)
    with pytest.raises(UnsafeDownloadError):
        copy_out(folder / "link", limit=1000)
    os.link(secret, folder / "hardlink")
    with pytest.raises(UnsafeDownloadError):
        copy_out(folder / "hardlink", limit=1000)
    os.mkfifo(folder / "pipe")
    with pytest.raises(UnsafeDownloadError):
        copy_out(folder / "pipe", limit=1000)  # opened without waiting for a writer, and refused
