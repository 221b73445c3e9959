"""docs/architecture.md stays true to the code: every file it names exists, every Python name it writes as
`package.module.name` is defined there, and each line of "The path of a message" names a file and, written as
`name()` or `Class.method()`, what that file defines, so a rename that leaves the page behind fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PATH_SECTION = "The path of a message"
PACKAGES = ("webapp", "workers", "agents", "browser_pool")

CODE = re.compile(r"`([^`\n]+)`")
FILE_PATH = re.compile(r"^(?:[\w.-]+/)+[\w.-]+\.(?:py|ts|js|md|toml|yml|conf|json|html|css)$")
DOTTED = re.compile(rf"^(?:{'|'.join(PACKAGES)})(?:\.\w+)+(?=\(|$)")
CALLED = re.compile(r"^(\w+(?:\.\w+)?)\(\)$")
LIST_ITEM = re.compile(r"^\s*(?:\d+\.|-)\s+")


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"docs/architecture.md has no section {title!r}"
    return match.group(1)


def _python_names(body: list[ast.stmt]) -> dict[str, ast.AST]:
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            names.update({target.id: node for target in node.targets if isinstance(target, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update({(alias.asname or alias.name).split(".")[0]: node for alias in node.names})
    return names


def python_defines(path: Path, dotted: str) -> bool:
    """Whether `name` or `Class.member` is defined at the top of the module (or in that class)."""
    scope = _python_names(ast.parse(path.read_text(encoding="utf-8")).body)
    first, _, member = dotted.partition(".")
    node = scope.get(first)
    if node is None:
        return False
    if not member:
        return True
    return isinstance(node, ast.ClassDef) and member in _python_names(node.body)


def typescript_defines(path: Path, dotted: str) -> bool:
    """Whether the file declares `name` (function, class, const) or has `Class` with a method `member`."""
    text = path.read_text(encoding="utf-8")
    first, _, member = dotted.partition(".")
    declared = re.search(rf"\b(?:function|class|const|let|interface|type)\s+{first}\b", text)
    method = r"^\s*(?:(?:private|public|protected|static|async|readonly|get|set)\s+)*{}\s*(?:<[^>\n]*>)?\("
    if not member:
        return bool(declared or re.search(method.format(first), text, re.MULTILINE))
    return bool(declared and re.search(method.format(member), text, re.MULTILINE))


def defines(path: Path, dotted: str) -> bool:
    return python_defines(path, dotted) if path.suffix == ".py" else typescript_defines(path, dotted)


def resolve_python(dotted: str) -> str | None:
    """Why `package.module.name` does not resolve, or None when it does."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if module.is_file():
            rest = ".".join(parts[cut:])
            if not rest or defines(module, rest):
                return None
            return f"{module.relative_to(ROOT)} does not define {rest}"
    return f"no module for {dotted}"


def test_every_file_and_python_name_in_the_architecture_page_exists() -> None:
    missing = []
    for code in CODE.findall(ARCHITECTURE.read_text(encoding="utf-8")):
        if FILE_PATH.match(code) and not (ROOT / code).is_file():
            missing.append(f"{code}: no such file")
        dotted = DOTTED.match(code)
        if dotted and (why := resolve_python(dotted.group(0))):
            missing.append(f"{code}: {why}")
    assert not missing, "\n".join(missing)


def path_lines() -> list[tuple[str, list[str]]]:
    """(file, names called in it) for each line of the path of a message, in order; the file is its first code."""
    found = []
    for line in section(ARCHITECTURE.read_text(encoding="utf-8"), PATH_SECTION).splitlines():
        if LIST_ITEM.match(line):
            codes = CODE.findall(line) or [line.strip()]
            found.append((codes[0], [m.group(1) for code in codes[1:] if (m := CALLED.match(code))]))
    return found


def test_the_path_of_a_message_goes_from_the_dashboard_through_the_browser_and_back() -> None:
    files = [file for file, _ in path_lines()]
    assert files, "the path of a message has no lines"
    assert files[0].startswith("frontend/src/"), "the path does not start in the dashboard"
    assert files[-1].startswith("frontend/src/panels/"), "the path does not end in a panel of the dashboard"
    browser = [n for n, file in enumerate(files) if file.startswith("browser_pool/")]
    assert browser, "the path never reaches the browser"
    assert any(file.startswith("workers/") for file in files[: browser[0]]), "the path skips the worker"
    assert any(file.startswith("webapp/") for file in files[browser[-1] :]), "the path does not come back"


def test_each_line_of_the_path_names_a_real_file_and_what_it_defines() -> None:
    wrong = []
    for file, names in path_lines():
        path = ROOT / file
        if not FILE_PATH.match(file) or not path.is_file():
            wrong.append(f"{file}: not a file of the repository")
        elif not names:
            wrong.append(f"{file}: the line names nothing the file defines, as `name()`")
        else:
            wrong += [f"{file} does not define {name}" for name in names if not defines(path, name)]
    assert not wrong, "\n".join(wrong)


def test_the_checks_tell_a_name_that_exists_from_one_that_does_not() -> None:
    assert resolve_python("workers.live.Outbox.post") is None
    assert (
        resolve_python("workers.runtime.WorkerRuntime.post") == "workers/runtime.py does not define WorkerRuntime.post"
    )
    assert defines(ROOT / "frontend/src/session.ts", "ConversationSession.send")
    assert not defines(ROOT / "frontend/src/session.ts", "ConversationSession.post")
    assert defines(ROOT / "frontend/src/reducer.ts", "applyServerEvent")
    assert not defines(ROOT / "frontend/src/reducer.ts", "applyEvent")
