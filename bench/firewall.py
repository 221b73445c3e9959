"""What the network firewall costs on page loads: the same pages loaded with and without the egress proxy, in turns,
in one run.

Run: .venv/bin/python bench/firewall.py [--loads 40] [--smoke]

Three local pages served from 127.0.0.1 (allowed in the firewall, as Hive's own sites are): a bare page, an
article with its stylesheet, script and 8 images, and an image grid of 40 pictures. Each load is a fresh
navigation with the cache off, timed from `goto` to the `load` event, in a warm pooled session; the pools with and
without the firewall take turns so both see the same machine load.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from bench.stats import percentile  # noqa: E402
from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.net import EgressPolicy  # noqa: E402
from browser_pool.pool import BrowserPool  # noqa: E402
from browser_pool.session import Session  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAGRAPH = "<p>" + "Hive keeps every page it loads behind a firewall that checks each address. " * 12 + "</p>"


def write_pages(root: Path) -> list[str]:
    for n in range(40):
        (root / f"img{n}.png").write_bytes(PNG + bytes(n))  # distinct files, distinct requests
    (root / "style.css").write_text("body { font: 16px sans-serif; max-width: 40em; margin: auto; }")
    (root / "app.js").write_text("document.title += ' (scripted)';")
    (root / "bare.html").write_text("<!doctype html><title>Bare</title><p>Hello.")
    images = "".join(f"<img src='img{n}.png' width=40 height=40>" for n in range(8))
    (root / "article.html").write_text(
        "<!doctype html><title>Article</title><link rel=stylesheet href=style.css><script src=app.js></script>"
        f"<h1>An article</h1>{PARAGRAPH * 20}{images}"
    )
    grid = "".join(f"<img src='img{n}.png' width=40 height=40>" for n in range(40))
    (root / "grid.html").write_text(f"<!doctype html><title>Grid</title>{grid}")
    return ["bare.html", "article.html", "grid.html"]


async def load_ms(session: Session, url: str) -> float:
    page = session.active_page
    started = time.perf_counter()
    await page.goto(url, wait_until="load")
    return (time.perf_counter() - started) * 1000


async def run(loads: int) -> None:
    with tempfile.TemporaryDirectory(prefix="hive-bench-") as folder:
        names = write_pages(Path(folder))
        with serve_directory(Path(folder)) as site:
            plain = BrowserPool(BrowserConfig(max_sessions=1, warm_contexts=0))
            guarded = BrowserPool(BrowserConfig(max_sessions=1, warm_contexts=0, egress=EgressPolicy(allow=(site,))))
            await plain.start()
            await guarded.start()
            try:
                sessions = {"without": await plain.acquire("bench"), "with": await guarded.acquire("bench")}
                for session in sessions.values():
                    cdp = await session.active_page.context.new_cdp_session(session.active_page)
                    await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                    for name in names:  # warm up: renderer, connections, the server's file cache
                        await load_ms(session, f"{site}/{name}")
                print(f"{loads} loads of each page, cache off, load event (ms):")
                print(f"{'page':<14}{'without p50':>12}{'with p50':>10}{'added':>8}{'without p95':>13}{'with p95':>10}")
                for name in names:
                    times: dict[str, list[float]] = {"without": [], "with": []}
                    for _ in range(loads):
                        for label, session in sessions.items():
                            times[label].append(await load_ms(session, f"{site}/{name}"))
                    p50 = {label: percentile(values, 0.5) for label, values in times.items()}
                    p95 = {label: percentile(values, 0.95) for label, values in times.items()}
                    added = (p50["with"] - p50["without"]) / p50["without"] * 100
                    print(
                        f"{name:<14}{p50['without']:>12.1f}{p50['with']:>10.1f}{added:>7.1f}%"
                        f"{p95['without']:>13.1f}{p95['with']:>10.1f}"
                    )
            finally:
                await plain.stop(save_sessions=False)
                await guarded.stop(save_sessions=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=40)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    asyncio.run(run(2 if args.smoke else args.loads))


if __name__ == "__main__":
    main()
