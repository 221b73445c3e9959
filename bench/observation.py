"""How big and how fast Hive's page observation is, next to Playwright's aria snapshot of the same page.

Run: .venv/bin/python bench/observation.py [--verbose]

Pages: the test fixture pages, a generated page with 5,000 interactive elements, and the 55 real article pages
of /work/shared/data/article-extraction-dev (ungzipped into a temporary folder and served from 127.0.0.1; every
request leaving 127.0.0.1 is aborted so the pages load fast and nothing leaves the machine).

For each page, in one run: `observe()` (summary + elements in view, the default per-step observation),
`get_elements(visible_only=False)` (the whole page, within the default 12,000-character budget), and
`page.aria_snapshot(mode="ai")` (what Playwright MCP sends to models). Tokens are estimated as characters / 4
(tiktoken is not installed here). "cold" is the first observation of a document (installs the page model),
"warm" the next one.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

from playwright.async_api import Browser, Route, async_playwright  # noqa: E402

from browser_pool.config import BrowserConfig  # noqa: E402
from browser_pool.flags import launch
from browser_pool.observe import get_elements, observe  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

REAL_PAGES = Path("/work/shared/data/article-extraction-dev/html")
FIXTURES = Path(__file__).resolve().parents[1] / "tests/browser_pool/page/pages"
FIXTURE_PAGES = [
    "forms.html", "dynamic.html", "shadow.html", "frames.html", "popups.html", "upload.html", "dnd.html",
    "hover.html", "scroll.html", "selects.html", "long_list.html?n=3000",
]  # fmt: skip
GENERATED_ELEMENTS = 5000


@dataclass(slots=True)
class Measure:
    name: str
    cold_ms: float
    warm_ms: float
    observation_chars: int
    whole_page_chars: int
    whole_page_ms: float
    aria_chars: int
    aria_ms: float

    @property
    def ratio(self) -> float:
        return self.observation_chars / max(self.aria_chars, 1)


def generated_page(count: int) -> str:
    """`count` interactive elements (links, buttons, fields, selects) in nested containers, as plain HTML."""
    rows = []
    for i in range(count // 4):
        rows.append(
            f'<div class="row"><div class="cell"><a href="/p/{i}">Product {i}</a></div>'
            f'<div class="cell"><button type="button">Add {i} to basket</button></div>'
            f'<div class="cell"><input name="qty{i}" type="number" value="1" aria-label="Quantity {i}"></div>'
            f'<div class="cell"><select name="size{i}"><option>S</option><option selected>M</option>'
            f"<option>L</option></select></div></div>"
        )
    return f"<!doctype html><html><head><title>Generated</title></head><body>{''.join(rows)}</body></html>"


def prepared_pages(folder: Path) -> list[str]:
    (folder / "generated.html").write_text(generated_page(GENERATED_ELEMENTS), encoding="utf-8")
    names = []
    for source in sorted(REAL_PAGES.glob("*.html.gz")):
        name = source.name.removesuffix(".gz")
        (folder / name).write_bytes(gzip.decompress(source.read_bytes()))
        names.append(name)
    return names


async def measure(browser: Browser, url: str, name: str) -> Measure | None:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    local = url.split("/", 3)[:3]
    origin = "/".join(local)

    async def only_local(route: Route) -> None:
        if route.request.url.startswith(origin):
            await route.continue_()
        else:
            await route.abort()

    await context.route("**/*", only_local)
    page = await context.new_page()
    try:
        await page.goto(url, wait_until="load", timeout=30_000)
        started = time.perf_counter()
        first = await observe(page)
        cold_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        observation = await observe(page)
        warm_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        whole = await get_elements(page, visible_only=False)
        whole_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        aria = await page.aria_snapshot(mode="ai")
        aria_ms = (time.perf_counter() - started) * 1000
    except Exception as exc:  # noqa: BLE001 - a broken page is reported and skipped, the run goes on
        print(f"  skipped {name}: {exc}")
        return None
    finally:
        await context.close()
    del first
    return Measure(
        name=name,
        cold_ms=cold_ms,
        warm_ms=warm_ms,
        observation_chars=len(observation.render()),
        whole_page_chars=len(whole.text) + len(observation.summary.render()) + 1,
        whole_page_ms=whole_ms,
        aria_chars=len(aria),
        aria_ms=aria_ms,
    )


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def report(title: str, rows: list[Measure], verbose: bool) -> None:
    print(f"\n## {title} ({len(rows)} pages)")
    if verbose:
        print(f"{'page':28} {'cold ms':>8} {'warm ms':>8} {'obs chars':>9} {'whole chars':>11} {'aria chars':>10}")
        for row in rows:
            print(
                f"{row.name[:28]:28} {row.cold_ms:8.0f} {row.warm_ms:8.0f} {row.observation_chars:9d} "
                f"{row.whole_page_chars:11d} {row.aria_chars:10d}"
            )
    columns: list[tuple[str, Callable[[Measure], float], str]] = [
        ("observe() time, cold (ms)", lambda r: r.cold_ms, "{:.0f}"),
        ("observe() time, warm (ms)", lambda r: r.warm_ms, "{:.0f}"),
        ("get_elements(whole page) time (ms)", lambda r: r.whole_page_ms, "{:.0f}"),
        ("aria_snapshot(mode=ai) time (ms)", lambda r: r.aria_ms, "{:.0f}"),
        ("observation: summary + elements in view (chars)", lambda r: r.observation_chars, "{:.0f}"),
        ("observation (≈tokens, chars/4)", lambda r: r.observation_chars / 4, "{:.0f}"),
        ("summary + whole-page list (chars)", lambda r: r.whole_page_chars, "{:.0f}"),
        ("summary + whole-page list (≈tokens)", lambda r: r.whole_page_chars / 4, "{:.0f}"),
        ("aria_snapshot(mode=ai) (chars)", lambda r: r.aria_chars, "{:.0f}"),
        ("aria_snapshot(mode=ai) (≈tokens)", lambda r: r.aria_chars / 4, "{:.0f}"),
        ("observation / aria snapshot", lambda r: r.ratio, "{:.2f}"),
        ("whole-page list / aria snapshot", lambda r: r.whole_page_chars / max(r.aria_chars, 1), "{:.2f}"),
    ]
    print(f"| {'measure':50} | {'median':>8} | {'p95':>8} |")
    print(f"|{'-' * 52}|{'-' * 10}|{'-' * 10}|")
    for label, pick, fmt in columns:
        values = [pick(row) for row in rows]
        print(f"| {label:50} | {fmt.format(statistics.median(values)):>8} | {fmt.format(p95(values)):>8} |")


@dataclass(slots=True)
class PageSet:
    title: str
    names: list[str]


def page_sets(real_names: list[str]) -> Iterator[PageSet]:
    yield PageSet("Test fixture pages", [f"fixtures/{name}" for name in FIXTURE_PAGES])
    yield PageSet(f"Generated page, {GENERATED_ELEMENTS} interactive elements", ["generated.html"])
    yield PageSet("Real article pages (article-extraction-dev)", real_names)


async def run(verbose: bool, smoke: bool = False) -> None:
    with tempfile.TemporaryDirectory(prefix="hive-bench-") as folder:
        root = Path(folder)
        (root / "fixtures").symlink_to(FIXTURES)
        real_names = prepared_pages(root)[:2] if smoke else prepared_pages(root)
        with serve_directory(root) as base:
            async with async_playwright() as playwright:
                browser = await launch(playwright.chromium, BrowserConfig())
                try:
                    for page_set in page_sets(real_names):
                        rows = [
                            row
                            for name in (page_set.names[:2] if smoke else page_set.names)
                            if (row := await measure(browser, f"{base}/{name}", name)) is not None
                        ]
                        report(page_set.title, rows, verbose)
                finally:
                    await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="print every page's figures")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    asyncio.run(run(args.verbose, args.smoke))


if __name__ == "__main__":
    main()
