"""CPU per browser action: the whole Hive stack beside bare Playwright doing the same browser work, in one run.

Run: .venv/bin/python bench/cpu.py [--rounds 5] [--batch 6] [--database postgres] [--smoke]

Hive: the stack as `make run` starts it (Redis, Daphne, a Celery worker with its Chromium, beat; SQLite, or with
`--database postgres` a PostgreSQL server of its own, whose processes count as Hive's), one user
whose actions go through `POST /api/conversations/<id>/actions/`, each waited for on the conversation's websocket
(run ended), as a script does. Bare Playwright: a separate Python process driving its own Chromium (the same
binary, flags and viewport) with `goto` / `click` / `fill`, each followed by a JPEG screenshot (what Hive keeps of a
step). Both act on the same local pages, served by this process, batch by batch in turns so both see the same
machine load. Bare Playwright runs each batch twice: back to back, and paced, each action spaced as Hive's came in
the batch just before (a browser goes on working for a while after an input, painting and running its timers, and
actions back to back leave part of that out).

After the batches, the same stack measures the web side's fixed costs: a POST refused as an unknown action once
signed in and the conversation's access checked (400), and one event on its way to the conversation's socket.

CPU is read from /proc (user + system time, ended children included) of every process of each side: for Hive
Daphne, the worker (its Python, Playwright's driver, Chromium and all Chromium's children), Redis and beat; for bare
Playwright its Python, driver and Chromium. A batch's CPU is the difference of two readings, the second taken after
the side has gone quiet (work an action leaves behind, such as a save after the run, counts). Page sets: a plain
page (60 paragraphs), a form (a dozen labelled fields), a heavy article (stylesheet, scripts, 30 images, 150 links,
60,000 characters of text); on each, navigate (between two such pages), click (a button that changes a line of
text) and type (into a text field).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from the repository root

import bench.stats  # noqa: E402
from bench.stats import cpu_delta, wait_quiet  # noqa: E402

if TYPE_CHECKING:
    from bench.load import User
    from bench.stack import Stack

ROOT = Path(__file__).resolve().parents[1]

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
SENTENCE = "Hive keeps every page it loads behind a firewall that checks each address before a byte leaves. "
PAGE_SETS = ("plain", "form", "article")
ACTIONS = ("navigate", "click", "type")
CLICK_TARGET = "#toggle"
TYPE_TARGET = "#search"

_TOOLBAR = (
    "<p><label>Search <input id=search type=search></label> "
    "<button id=toggle type=button onclick=\"this.nextElementSibling.textContent = 'Clicked ' + (++this.dataset.n)\""
    " data-n=0>Toggle</button> <span>Not clicked</span></p>"
)


def write_pages(root: Path) -> None:
    """Two pages of each set (navigate goes back and forth between them), with their assets."""
    for n in range(30):
        (root / f"img{n}.png").write_bytes(PNG + bytes(n))
    (root / "site.css").write_text(
        "body{font:16px/1.5 Georgia,serif;max-width:46em;margin:auto}nav a{margin:0 .3em}"
        "article p:first-letter{font-size:1.4em}aside{float:right;width:12em}img{width:60px;height:40px}"
        ".card{box-shadow:0 1px 3px #0003;border-radius:6px;padding:.5em;margin:.5em 0}"
    )
    (root / "site.js").write_text(
        "document.addEventListener('DOMContentLoaded', () => {"
        " for (const a of document.querySelectorAll('nav a')) a.addEventListener('mouseenter', () => {});"
        " document.body.dataset.ready = '1'; });"
    )
    paragraph = "<p>" + SENTENCE * 10 + "</p>"
    fields = "".join(
        f"<p><label for=f{n}>{label}</label> <input id=f{n} name=f{n} type={kind}></p>"
        for n, (label, kind) in enumerate(
            [
                ("First name", "text"),
                ("Last name", "text"),
                ("Email", "email"),
                ("Phone", "tel"),
                ("Street", "text"),
                ("City", "text"),
                ("Postcode", "text"),
                ("Birthday", "date"),
                ("Website", "url"),
                ("Password", "password"),
            ]  # fmt: skip
        )
    )
    form = (
        f"<form onsubmit='return false'>{fields}<p><label>Country <select name=country>"
        + "".join(f"<option>Country {n}</option>" for n in range(40))
        + "</select></label></p><p><label><input type=checkbox name=news> Send me news</label></p>"
        "<p><label>Note <textarea name=note rows=3></textarea></label></p><button>Send</button></form>"
    )
    links = "".join(f"<a href='#section{n}'>Section {n}</a>" for n in range(150))
    images = "".join(f"<img src='img{n}.png' alt='Figure {n}'>" for n in range(30))
    article = "".join(
        f"<h2 id=section{n}>Part {n}</h2>" + ("<p>" + SENTENCE * 6 + "</p>") * 5 for n in range(20)
    )  # about 60,000 characters of text
    aside = "".join(f"<div class=card><a href='#r{n}'>Related story {n}</a><p>{SENTENCE}</p></div>" for n in range(12))
    for n in (1, 2):
        (root / f"plain{n}.html").write_text(
            f"<!doctype html><title>Plain {n}</title><h1>Plain page {n}</h1>{_TOOLBAR}{paragraph * 60}"
        )
        (root / f"form{n}.html").write_text(
            f"<!doctype html><title>Form {n}</title><h1>Sign up {n}</h1>{_TOOLBAR}{form}"
        )
        (root / f"article{n}.html").write_text(
            f"<!doctype html><title>Article {n}</title><link rel=stylesheet href=site.css><script src=site.js></script>"
            f"<header><nav>{links}</nav>{_TOOLBAR}</header><aside>{aside}</aside>"
            f"<article><h1>A long article {n}</h1>{images}{article}</article><footer>{links}</footer>"
        )


# -- bare Playwright, in a process of its own ---------------------------------------------------------------


async def bare_driver() -> None:
    """Read one JSON command per line on stdin, do it with Playwright, answer "ok" (or the error) on stdout."""
    from playwright.async_api import async_playwright

    from browser_pool.config import BrowserConfig
    from browser_pool.flags import launch

    config = BrowserConfig()
    async with async_playwright() as playwright:
        # Launched as the pool launches it (sandboxed, as the browser's own user), so both sides pay the same.
        browser = await launch(playwright.chromium, config)
        context = await browser.new_context(viewport={"width": config.viewport_width, "height": config.viewport_height})
        page = await context.new_page()
        loop = asyncio.get_running_loop()
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            command = json.loads(line)
            try:
                if command["op"] == "navigate":
                    await page.goto(command["url"])
                elif command["op"] == "click":
                    await page.click(command["selector"])
                else:
                    await page.fill(command["selector"], command["text"])
                await page.screenshot(type="jpeg", quality=60)
                answer = "ok"
            except Exception as exc:
                answer = f"error {exc!r}"[:300]
            sys.stdout.write(answer + "\n")
            sys.stdout.flush()
        await browser.close()


class Bare:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--bare-driver"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

    def roots(self) -> dict[str, int]:
        return {"bare": self.process.pid}

    def do(self, command: dict[str, str]) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if answer != "ok":
            raise RuntimeError(f"bare Playwright: {command['op']} failed: {answer}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


# -- measuring -----------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """CPU seconds and action counts of one side on one (page set, action)."""

    batches: list[float] = field(default_factory=list)  # CPU seconds per action, one value per batch
    by_process: dict[str, float] = field(default_factory=dict)
    actions: int = 0

    def add(self, spent: dict[str, float], actions: int) -> None:
        self.batches.append(sum(spent.values()) / actions)
        self.actions += actions
        for key, value in spent.items():
            self.by_process[key] = self.by_process.get(key, 0.0) + value

    @property
    def per_action_ms(self) -> float:
        return sum(self.by_process.values()) / self.actions * 1000 if self.actions else float("nan")


def paced(do: Callable[[dict[str, str]], None], command: dict[str, str], interval_s: float) -> None:
    """One bare command, then idle until `interval_s` has passed since it began: the pace Hive's actions came at.
    A browser keeps working for a while after an input (painting, its timers): actions back to back leave part of
    that out; actions spaced as a person's or an agent's include it."""
    started = time.monotonic()
    do(command)
    time.sleep(max(0.0, interval_s - (time.monotonic() - started)))


def commands(page_set: str, action: str, count: int, site: str) -> list[dict[str, str]]:
    if action == "navigate":
        return [{"op": "navigate", "url": f"{site}/{page_set}{1 + n % 2}.html"} for n in range(count)]
    if action == "click":
        return [{"op": "click", "selector": CLICK_TARGET}] * count
    return [{"op": "type", "selector": TYPE_TARGET, "text": f"query number {n}"} for n in range(count)]


def as_hive(command: dict[str, str]) -> tuple[str, dict[str, str]]:
    if command["op"] == "navigate":
        return "navigate", {"url": command["url"]}
    if command["op"] == "click":
        return "click", {"selector": command["selector"]}
    return "type", {"selector": command["selector"], "text": command["text"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="batches per side, page set and action")
    parser.add_argument("--batch", type=int, default=6, help="actions per batch")
    parser.add_argument("--sets", default=",".join(PAGE_SETS))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="Hive's database: the SQLite file of `make run`, or a PostgreSQL server as deployed",
    )
    parser.add_argument("--profile", type=Path, help="py-spy the worker and Daphne into this folder (collapsed stacks)")
    parser.add_argument("--bare-driver", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_driver:
        asyncio.run(bare_driver())
        return
    if args.smoke:
        # On PostgreSQL: the other benchmarks' smoke runs already go through the SQLite stack.
        args.rounds, args.batch, args.sets, args.database = 1, 2, "plain", "postgres"
        bench.stats.QUIET_MAX_S = 0.0  # a smoke run measures nothing: no waiting for the machine to go quiet
    run(args.sets.split(","), args.rounds, args.batch, args.profile, args.database)


def profilers(folder: Path, roots: dict[str, int]) -> list[subprocess.Popen[bytes]]:
    """py-spy sampling the Python of the worker and of Daphne, written as collapsed stacks when stopped."""
    folder.mkdir(parents=True, exist_ok=True)
    spy = Path(sys.executable).with_name("py-spy")
    return [
        subprocess.Popen([str(spy), "record", "--pid", str(pid), "--format", "raw", "--rate", "250", "--nonblocking",
                          "--output", str(folder / f"{role}.txt")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for role, pid in roots.items() if role in ("worker0", "daphne")
    ]  # fmt: skip


def run(page_sets: list[str], rounds: int, batch: int, profile: Path | None = None, database: str = "sqlite") -> None:
    from bench.load import User
    from bench.stack import running_stack
    from tests.support.static_server import serve_directory

    cells: dict[tuple[str, str, str], Cell] = {}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {rounds} rounds of {batch} actions "
          f"per side, page set and action; Hive on {database}")  # fmt: skip
    # A benchmark sends actions far faster than a person: the server's own rate limits would refuse some.
    env = {
        "HIVE_QUOTA_RUNS_PER_HOUR": "1000000",
        "HIVE_POOL_WARM_CONTEXTS": "1",
        "HIVE_RATE_ACTIONS": "none",
        "HIVE_RATE_RUNS": "none",
    }
    with tempfile.TemporaryDirectory(prefix="hive-bench-cpu-") as folder:
        write_pages(Path(folder))
        with (
            serve_directory(Path(folder)) as site,
            running_stack(settings="local", beat=True, extra_env=env, database=database) as stack,
        ):
            hive_roots = stack.roots()
            bare = Bare()
            user = User(stack, "cpu")
            loop = asyncio.new_event_loop()
            spies: list[subprocess.Popen[bytes]] = []
            try:
                loop.run_until_complete(user.open(keepalive=False))  # the loop runs only during Hive's actions
                if profile is not None:
                    spies = profilers(profile, hive_roots)

                def hive(command: dict[str, str]) -> None:
                    name, arguments = as_hive(command)
                    _, ended = loop.run_until_complete(user.action(name, arguments))
                    if ended["status"] != "succeeded":
                        raise RuntimeError(f"Hive: {name} {ended['status']}: {ended.get('error')}")

                for page_set in page_sets:
                    for side in (hive, bare.do):  # warm up: both browsers load the pages once
                        for command in commands(page_set, "navigate", 2, site):
                            side(command)
                    for _ in range(rounds):
                        for action in ACTIONS:
                            todo = commands(page_set, action, batch, site)
                            interval_s = 0.0  # Hive's time per action in this batch, for the paced reference
                            for label, roots in (("hive", hive_roots), ("bare", bare.roots()), ("paced", bare.roots())):
                                before = wait_quiet(roots)
                                started = time.monotonic()
                                for command in todo:
                                    if label == "hive":
                                        hive(command)
                                    elif label == "bare":
                                        bare.do(command)
                                    else:
                                        paced(bare.do, command, interval_s)
                                if label == "hive":
                                    interval_s = (time.monotonic() - started) / len(todo)
                                spent = cpu_delta(wait_quiet(roots), before)
                                cells.setdefault((page_set, action, label), Cell()).add(spent, len(todo))
                floors = loop.run_until_complete(web_floor(stack, user, hive_roots, 6 * batch))
            finally:
                for spy in spies:
                    spy.send_signal(signal.SIGINT)
                    spy.wait(timeout=30)
                loop.run_until_complete(user.close())
                loop.close()
                bare.close()
    report(cells, page_sets)
    print("\nThe web side's part of an action that is not the action's own work, ms of CPU each (Daphne, Redis, the")
    print("database):")
    for name, spent in floors.items():
        print(f"  {name}: " + ", ".join(f"{key} {value:.1f}" for key, value in spent.items() if value >= 0.05))
    print(f"load average after the run {os.getloadavg()[0]:.1f}")


# Sent from a process of its own through the channel layer to the conversation's group, as a run's events go.
_PUBLISH = """
import sys, django
django.setup()
from webapp.core.events import publish_now
event = {"type": "session.notice", "kind": "tab_closed", "text": "x" * 200, "tab_id": "t1"}
for _ in range(int(sys.argv[2])):
    publish_now(int(sys.argv[1]), event)
"""


async def web_floor(stack: Stack, user: User, roots: dict[str, int], count: int) -> dict[str, dict[str, float]]:
    """What a request costs Daphne before any action's work (signed in, the conversation's access checked, the
    body refused as an unknown action: 400), and what one event costs on its way to the conversation's socket."""
    web: dict[str, int] = {role: roots[role] for role in ("daphne", "redis", "postgres") if role in roots}
    path = f"/api/conversations/{user.conversation}/actions/"

    async def refused() -> None:
        response = await user.client.post(
            path, json={"action": "no_such_action", "arguments": {}}, headers=user.headers
        )
        if response.status_code != 400:
            raise RuntimeError(f"an unknown action was answered {response.status_code}: {response.text[:200]}")

    async def events() -> None:
        command = [sys.executable, "-c", _PUBLISH, str(user.conversation), str(count)]
        await asyncio.to_thread(subprocess.run, command, env=stack.env, cwd=ROOT, check=True)

    floors: dict[str, dict[str, float]] = {}
    for name, work, times in (("a POST refused after sign-in and access checks", refused, count),
                              ("an event to the conversation's socket", events, 1)):  # fmt: skip
        before = await asyncio.to_thread(wait_quiet, web)
        for _ in range(times):
            await work()
        spent = cpu_delta(await asyncio.to_thread(wait_quiet, web), before)
        floors[name] = {key: value / count * 1000 for key, value in spent.items()}
    return floors


def report(cells: dict[tuple[str, str, str], Cell], page_sets: list[str]) -> None:
    print("\nCPU ms per action (all processes of each side; median of the batches in brackets). Bare Playwright back")
    print("to back, and paced: each action spaced as Hive's came in the same batch")
    print(
        f"{'page set':<9} {'action':<9} {'Hive':>12} {'bare':>12} {'Hive/bare':>10} {'bare paced':>12} {'Hive/paced':>11}"
    )
    for page_set in page_sets:
        for action in ACTIONS:
            hive, bare, paced = (cells[(page_set, action, label)] for label in ("hive", "bare", "paced"))
            print(
                f"{page_set:<9} {action:<9} {_ms(hive):>12} {_ms(bare):>12} {hive.per_action_ms / bare.per_action_ms:>9.2f}x"
                f" {_ms(paced):>12} {hive.per_action_ms / paced.per_action_ms:>10.2f}x"
            )
    print("\nWhere each side's CPU went, ms per action (process tree / command)")
    for page_set in page_sets:
        for action in ACTIONS:
            for label in ("hive", "bare", "paced"):
                cell = cells[(page_set, action, label)]
                parts = sorted(cell.by_process.items(), key=lambda item: -item[1])
                shown = ", ".join(f"{key} {value / cell.actions * 1000:.0f}" for key, value in parts if value > 0)
                print(f"{page_set:<9} {action:<9} {label:<5} {shown}")


def _ms(cell: Cell) -> str:
    return f"{cell.per_action_ms:.0f} ({statistics.median(cell.batches) * 1000:.0f})"


if __name__ == "__main__":
    main()
