"""The built wheel carries everything Hive needs at run time: the scripts it injects into pages, the demo sites, the
shipped SKILLs and the admin templates. It is installed into a fresh virtualenv and used from outside the checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECK = textwrap.dedent(
    """
    import importlib.resources, os, sys
    import browser_pool, webapp
    where = os.path.dirname(browser_pool.__file__)
    assert where.startswith(sys.prefix), f"imported from {where}, not from the fresh virtualenv"
    needed = [
        importlib.resources.files("browser_pool.observe") / "page_model.js",
        importlib.resources.files("browser_pool.webmcp") / "bridge.js",
        importlib.resources.files("browser_pool.webmcp") / "polyfill.js",
        importlib.resources.files("webapp.skills") / "shipped" / "demo-shop.json",
        importlib.resources.files("webapp.skills") / "templates" / "admin" / "skills" / "skill" / "import.html",
        importlib.resources.files("webapp.demo") / "sites" / "flights" / "flights.js",
        importlib.resources.files("browser_pool") / "clipboard_guard.js",
    ]
    missing = [str(path) for path in needed if not path.is_file()]
    assert not missing, f"missing from the wheel: {missing}"
    # A root worker starts Chromium through this script: Playwright executes it, so it must stay executable.
    launcher = importlib.resources.files("browser_pool") / "as_browser_user.sh"
    assert os.access(str(launcher), os.X_OK), f"{launcher} is missing or not executable"
    os.environ["DJANGO_SETTINGS_MODULE"] = "webapp.settings.test"
    import django
    from django.core.management import call_command
    django.setup()
    call_command("check")
    print("wheel ok")
    """
)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_wheel_installs_into_a_fresh_virtualenv_and_runs(tmp_path: Path) -> None:
    # Build from a copy of the source files alone: a stale build/ folder in the checkout would hide missing data.
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    source = tmp_path / "source"
    for name in listed:
        if (ROOT / name).is_file() and name.split("/")[0] in {"agents", "browser_pool", "webapp", "workers"}:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path / "dist")],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("hive-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    # Hive's dependencies come from the project's virtualenv (a path in a .pth file: its editable-install hooks
    # do not run, so `webapp` and friends can only come from the wheel).
    fresh_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(fresh_site, "project_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([str(python), "-c", CHECK], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "wheel ok" in done.stdout
