"""Every benchmark runs in its smoke mode (tiny sizes), so a benchmark that breaks fails the suite instead of rotting.

The smoke runs are separate processes that spend most of their time starting things (a stack, Chromium) and waiting
on them, so two run at once; each test reports its own script's run. The full runs stay manual (`make bench`);
their figures live in docs/benchmarks.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(
    path for path in (ROOT / "bench").glob("*.py") if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)
# Smoke runs at once (two: three on two cores made a stack too slow to answer a smoke run in time once); a smoke
# run measures nothing it asserts.
AT_ONCE = int(os.environ.get("HIVE_BENCH_SMOKE_AT_ONCE", "2"))
RUN_TIMEOUT_S = 400


def _smoke(script: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # each benchmark chooses its own settings, as when run by hand
    return subprocess.run(
        [sys.executable, str(script), "--smoke"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=RUN_TIMEOUT_S,
    )  # fmt: skip


@pytest.fixture(scope="module")
def smoke_runs(request: pytest.FixtureRequest) -> Iterator[dict[Path, Future[subprocess.CompletedProcess[str]]]]:
    """The smoke runs of the scripts this session selected, started together in the order the tests will ask."""
    chosen = [
        script
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.originalname == "test_benchmark_runs_in_smoke_mode"
        if isinstance(script := item.callspec.params["script"], Path)
    ]
    with ThreadPoolExecutor(max(1, AT_ONCE), thread_name_prefix="bench-smoke") as pool:
        yield {script: pool.submit(_smoke, script) for script in chosen}
        pool.shutdown(wait=True, cancel_futures=True)


def test_the_benchmarks_are_found() -> None:
    assert len(SCRIPTS) >= 8, [path.name for path in SCRIPTS]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_benchmark_runs_in_smoke_mode(
    script: Path, smoke_runs: dict[Path, Future[subprocess.CompletedProcess[str]]]
) -> None:
    done = smoke_runs[script].result()
    assert done.returncode == 0, f"{script.name} --smoke failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    assert done.stdout.strip(), f"{script.name} --smoke printed no figures"
