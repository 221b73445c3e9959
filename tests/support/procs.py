"""Linux process bookkeeping read from /proc: which processes belong to a browser, and how much memory they use.

Playwright does not expose the browser's pid, and Chromium's renderers are grandchildren of it, so the tree is
rebuilt from each process's parent pid. No psutil: /proc has all we need.
"""

from __future__ import annotations

from pathlib import Path

_PROC = Path("/proc")


def _parent_of(pid: int) -> int | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name sits in parentheses and may itself contain spaces or parentheses; fields follow the last ")".
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[1])


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants that are alive now (zombies included until reaped)."""
    children: dict[int, list[int]] = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        parent = _parent_of(int(entry.name))
        if parent is not None:
            children.setdefault(parent, []).append(int(entry.name))
    if not (_PROC / str(root)).exists():
        return []
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def is_running(pid: int) -> bool:
    """True while the process exists and is not a zombie waiting to be reaped."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :].split()[0] != "Z"


def pss_kib(pid: int) -> int:
    """Proportional set size of one process in KiB: shared pages are split among the processes sharing them."""
    try:
        for line in (_PROC / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        return 0
    return 0
