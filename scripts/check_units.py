"""No unit an anchor would not write: every function of the app's Python (scoring/ and
casino_site/, migrations and the benchmark commands left out) is at most MAX_LINES long, from its
`def` to its last line. `make lint` runs it; a long function prints where it is.

python scripts/check_units.py [--list]   (--list: every function over 30 lines, longest first)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 50
SOURCES = ("scoring", "casino_site")


def app_files() -> list[Path]:
    files = []
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or "/management/commands/bench_" in relative:
                continue
            files.append(path)
    return files


def function_lengths(path: Path) -> list[tuple[int, str, int]]:
    """(lines, qualified name, first line) of every function and method in the file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                found.append((child.end_lineno - child.lineno + 1, name, child.lineno))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")

    visit(tree, "")
    return found


def main(arguments: list[str]) -> int:
    units = [
        (lines, f"{path.relative_to(ROOT)}:{first} {name}")
        for path in app_files()
        for lines, name, first in function_lengths(path)
    ]
    if "--list" in arguments:
        for lines, where in sorted(units, reverse=True):
            if lines > 30:
                print(f"{lines:4d}  {where}")
        return 0
    long = sorted((unit for unit in units if unit[0] > MAX_LINES), reverse=True)
    for lines, where in long:
        print(f"{where}: {lines} lines, over {MAX_LINES}")
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
