"""The repository carries what its tests and docs need: a clone works with nothing beside it."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
SCORING_EXAMPLES = TESTS / "data" / "scoring_examples.json"
# A path into the directory beside the repository; spelt in two pieces so this file is no match.
OUTSIDE = b"../" + b"shared"
DOC_PATH = re.compile(r"\bdocs/[\w./-]+\.md\b")
THIS = "tests/cross/test_repository.py"  # names the documents it looks for


def project_files() -> list[str]:
    """Tracked files, and new ones not ignored (about to be committed), relative to ROOT."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=ROOT, capture_output=True, text=True
    )
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != ROOT:
        pytest.skip(f"{ROOT} is not the top of a git work tree")
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    names = {name for name in listing.stdout.decode().split("\0") if name}
    return sorted(name for name in names if (ROOT / name).is_file())


def loaded(path: Path, config: pytest.Config) -> ModuleType:
    """The module pytest loaded from `path`, else a fresh import of it (tests/ is on sys.path).

    Conftest modules are looked up among pytest's plugins: tests/conftest.py and
    tests/browser/conftest.py share the name `conftest`, so sys.modules keeps only one of them.
    """
    for module in [*config.pluginmanager.get_plugins(), *list(sys.modules.values())]:
        file = getattr(module, "__file__", None)
        if isinstance(module, ModuleType) and file and Path(file).resolve() == path:
            return module
    return importlib.import_module(path.stem)


def test_no_project_file_refers_to_the_directory_beside_the_repository() -> None:
    offenders = [name for name in project_files() if OUTSIDE in (ROOT / name).read_bytes()]
    assert offenders == []


@pytest.mark.parametrize(
    ("module", "constant"),
    [
        ("conftest.py", "SCORING_EXAMPLES"),
        ("test_matchdoc.py", "CASES_FILE"),
        ("sharing/test_transfer.py", "CASES_FILE"),
    ],
)
def test_tests_read_the_scoring_examples_from_the_repository(
    module: str, constant: str, pytestconfig: pytest.Config
) -> None:
    path = Path(getattr(loaded(TESTS / module, pytestconfig), constant)).resolve()
    assert path == SCORING_EXAMPLES
    assert path.is_file()


def test_scoring_examples_and_their_readme_are_project_files() -> None:
    files = set(project_files())
    assert "tests/data/scoring_examples.json" in files
    assert "tests/data/README.md" in files


def test_every_document_the_project_names_is_in_the_repository() -> None:
    named: dict[str, set[str]] = {}
    for name in project_files():
        if name == THIS or not name.endswith((".py", ".md", ".html", "Makefile")):
            continue
        for document in DOC_PATH.findall((ROOT / name).read_text(errors="replace")):
            named.setdefault(document, set()).add(name)
    assert "docs/RULES.md" in named
    assert "docs/MATCH_FORMAT.md" in named
    missing = {
        document: sorted(by) for document, by in named.items() if not (ROOT / document).is_file()
    }
    assert missing == {}


def test_every_property_takes_its_number_of_examples_through_the_profile() -> None:
    """make test-fast's quick profile can only shorten a property whose count goes through
    helpers.examples(): a test's own literal max_examples overrides every profile."""
    literal = re.compile(r"max_examples=\d")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if literal.search(line) and "register_profile" not in line
    ]
    assert found == []
