"""Every benchmark runs in its smoke mode (tiny sizes), so a benchmark that breaks fails the suite instead of rotting.

The full runs stay manual (`make bench`); their figures live in docs/benchmarks.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(
    path for path in (ROOT / "bench").glob("*.py") if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)


def test_the_benchmarks_are_found() -> None:
    assert len(SCRIPTS) >= 8, [path.name for path in SCRIPTS]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(240)
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_benchmark_runs_in_smoke_mode(script: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # each benchmark chooses its own settings, as when run by hand
    done = subprocess.run(
        [sys.executable, str(script), "--smoke"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=230
    )
    assert done.returncode == 0, f"{script.name} --smoke failed:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    assert done.stdout.strip(), f"{script.name} --smoke printed no figures"
