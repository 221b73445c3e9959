"""Library-level live view: latency from a page change to the frame at a subscriber, frame rate on an animating page,
bytes per second, with 1 and 5 subscribers and one deliberately slow subscriber.

Latency: a script paints a full-viewport block a new colour and records Date.now(); on a static page the next frame
a subscriber receives is that change, so latency = wall-clock arrival at the subscriber - the change. Changes are
spaced 400 ms apart, beyond the frame interval, so the rate cap adds no wait.

Run: .venv/bin/python bench/screencast.py [--seconds 5] [--changes 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.screencast import Frame, ScreencastOptions, Subscription  # noqa: E402
from browser_pool.session import Session  # noqa: E402
from tests.support.procs import process_tree  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

STATIC_PAGE = """<!doctype html><title>static</title>
<style>html,body{margin:0}#b{width:100vw;height:100vh;background:#800}</style><div id=b></div>
<p style="position:absolute;top:40px;left:40px;font:20px sans-serif">A paragraph of text over the block.</p>"""
ANIMATED_PAGE = """<!doctype html><title>animated</title>
<style>html,body{margin:0}#b{width:100vw;height:100vh}</style><div id=b></div>
<script>let h=0;(function step(){h=(h+3)%360;document.getElementById('b').style.background=`hsl(${h},70%,50%)`;
requestAnimationFrame(step)})()</script>"""
# A text page that scrolls itself: what a viewer watching the agent read an article gets (text compresses worse).
_PARAGRAPH = (
    "<p>The committee met on Tuesday to discuss the budget for the coming year. Members raised concerns about the "
    "cost of maintaining the old bridge, the schedule of the new library, and a proposal to extend bus service to "
    "the northern districts, where residents have long asked for better connections to the city centre.</p>"
)
SCROLLING_PAGE = (
    "<!doctype html><title>scrolling article</title><style>body{max-width:760px;margin:40px auto;"
    "font:18px/1.6 Georgia,serif}h2{font:bold 26px sans-serif}</style>"
    + "".join(f"<h2>Section {n}</h2>" + _PARAGRAPH * 4 for n in range(60))
    + "<script>(function step(){window.scrollBy(0,2);requestAnimationFrame(step)})()</script>"
)
CHANGE_JS = """(colour) => { document.getElementById('b').style.background = colour; return Date.now(); }"""
SLOW_SUBSCRIBER_S = 1.0


@dataclass
class Viewer:
    """A subscriber that records when each frame reached it; a slow one takes SLOW_SUBSCRIBER_S per frame."""

    slow: bool = False
    arrivals_ms: list[float] = field(default_factory=list)
    bytes: int = 0
    subscription: Subscription | None = None

    async def __call__(self, frame: Frame) -> None:
        self.arrivals_ms.append(time.time() * 1000)
        self.bytes += len(frame.data)
        if self.slow:
            await asyncio.sleep(SLOW_SUBSCRIBER_S)


def browser_cpu_s(pid: int) -> float:
    ticks = 0
    for child in process_tree(pid):
        try:
            stat = Path(f"/proc/{child}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


async def subscribe(session: Session, fast: int, slow: int) -> list[Viewer]:
    viewers = [Viewer() for _ in range(fast)] + [Viewer(slow=True) for _ in range(slow)]
    for viewer in viewers:
        viewer.subscription = await session.screencast.subscribe(viewer)
    return viewers


async def unsubscribe(viewers: list[Viewer]) -> None:
    for viewer in viewers:
        assert viewer.subscription is not None
        await viewer.subscription.close()


async def latency(session: Session, url: str, fast: int, slow: int, changes: int) -> None:
    await session.active_page.goto(url)
    viewers = await subscribe(session, fast, slow)
    await asyncio.sleep(1.0)
    samples: list[float] = []
    for n in range(changes):
        counts = [len(v.arrivals_ms) for v in viewers if not v.slow]
        changed_ms = await session.active_page.evaluate(CHANGE_JS, f"rgb({n * 8 % 256}, {(n * 37) % 256}, 90)")
        await asyncio.sleep(0.4)
        for viewer, before in zip((v for v in viewers if not v.slow), counts, strict=True):
            if len(viewer.arrivals_ms) > before:
                samples.append(viewer.arrivals_ms[before] - changed_ms)
    await unsubscribe(viewers)
    label = f"{fast} subscriber{'s' if fast > 1 else ''}" + (f" + {slow} slow" if slow else "")
    print(f"latency change -> frame, {label:<26} n={len(samples):<4} p50={percentile(samples, 0.5):6.1f} ms "
          f"p95={percentile(samples, 0.95):6.1f} ms max={max(samples):6.1f} ms "
          f"(frames missing: {changes * fast - len(samples)})")  # fmt: skip


async def throughput(session: Session, url: str, fast: int, slow: int, seconds: float, browser_pid: int) -> None:
    await session.active_page.goto(url)
    await asyncio.sleep(0.5)
    cpu_before, py_before, published_before = browser_cpu_s(browser_pid), time.process_time(), 0
    viewers = await subscribe(session, fast, slow)
    published_before = session.screencast.frames_published
    bytes_before = session.screencast.bytes_published
    await asyncio.sleep(seconds)
    published = session.screencast.frames_published - published_before
    sent_bytes = session.screencast.bytes_published - bytes_before
    cpu = (browser_cpu_s(browser_pid) - cpu_before) / seconds * 100
    py_cpu = (time.process_time() - py_before) / seconds * 100
    await unsubscribe(viewers)
    fast_fps = [len(v.arrivals_ms) / seconds for v in viewers if not v.slow]
    shape = session.screencast.options
    print(f"{Path(url).stem:<9} {shape.max_width}x{shape.max_height} q{shape.quality} cap {shape.max_fps:>2.0f} fps, "
          f"{fast} fast + {slow} slow: published {published / seconds:5.1f} fps, "
          f"{sent_bytes / max(published, 1) / 1024:5.1f} KiB/frame, {sent_bytes / seconds / 1024:7.1f} KiB/s per "
          f"subscriber; fast subscribers got {min(fast_fps):5.1f}-{max(fast_fps):5.1f} fps; chromium CPU {cpu:4.0f}%, "
          f"pool process CPU {py_cpu:3.0f}%")  # fmt: skip
    for viewer in viewers:
        if viewer.slow:
            assert viewer.subscription is not None
            print(f"    slow subscriber ({SLOW_SUBSCRIBER_S:.0f} s per frame): got {len(viewer.arrivals_ms)} frames, "
                  f"skipped {viewer.subscription.dropped} stale ones")  # fmt: skip


def write_pages(root: Path) -> None:
    (root / "static.html").write_text(STATIC_PAGE)
    (root / "animated.html").write_text(ANIMATED_PAGE)
    (root / "scrolling.html").write_text(SCROLLING_PAGE)


async def main(seconds: float, changes: int) -> None:
    options = ScreencastOptions()
    print(f"screencast: jpeg quality {options.quality}, max {options.max_width}x{options.max_height}, cap "
          f"{options.max_fps:.0f} fps; viewport 1280x800; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    with tempfile.TemporaryDirectory() as root:
        write_pages(Path(root))
        with serve_directory(Path(root)) as base:
            pool = BrowserPool(BrowserConfig(warm_contexts=1), screencast_options=options)
            await pool.start()
            try:
                session = await pool.acquire("bench")
                assert pool.browser_pid is not None
                static, animated = f"{base}/static.html", f"{base}/animated.html"
                await latency(session, static, 1, 0, changes)
                await latency(session, static, 5, 0, changes)
                await latency(session, static, 4, 1, changes)
                print()
                await throughput(session, animated, 1, 0, seconds, pool.browser_pid)
                await throughput(session, animated, 5, 0, seconds, pool.browser_pid)
                await throughput(session, animated, 4, 1, seconds, pool.browser_pid)
                await throughput(session, f"{base}/scrolling.html", 1, 0, seconds, pool.browser_pid)
                session.screencast.options = ScreencastOptions(quality=50, max_width=960, max_height=600)
                await throughput(session, f"{base}/scrolling.html", 1, 0, seconds, pool.browser_pid)
                session.screencast.options = ScreencastOptions(max_fps=60)
                await throughput(session, animated, 1, 0, seconds, pool.browser_pid)
            finally:
                await pool.stop(save_sessions=False)
    print(f"\nload average after the run: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.changes = 1.0, 3
    asyncio.run(main(args.seconds, args.changes))
