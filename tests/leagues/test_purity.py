"""standings.py, ratings.py and charts.py are plain Python: they work out tables, ratings and
charts from values, and import nothing from Django (so they are tested, and could be used,
without it). ratings.py imports the ratings' model, openskill, besides the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper.leagues

LEAGUES_DIR = Path(scorekeeper.leagues.__file__).parent
PURE = ("standings.py", "charts.py", "ratings.py")
#: what a pure module may import besides the standard library: the ratings' model
ALLOWED = {"openskill"}


def imported_modules(source: str) -> list[str]:
    """Every module a source file imports, at the top or inside a function."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.append(str(node.args[0].value))
    return names


def test_the_scan_would_notice_a_django_import_anywhere_in_a_file() -> None:
    source = (
        "import os\n"
        "from django.db import models\n"
        "def later():\n"
        "    import django.conf\n"
        "    return importlib.import_module('django.utils')\n"
    )

    assert imported_modules(source) == ["os", "django.db", "django.conf", "django.utils"]


def test_the_scan_would_notice_a_relative_import() -> None:
    assert imported_modules("from .models import League\n") == [".models"]


@pytest.mark.parametrize("name", PURE)
def test_a_pure_league_module_imports_only_the_standard_library(name: str) -> None:
    imports = imported_modules((LEAGUES_DIR / name).read_text(encoding="utf-8"))

    assert imports, f"{name}: no imports found; is the scan reading the right file?"
    outside = [
        module
        for module in imports
        if module.split(".")[0] not in sys.stdlib_module_names | ALLOWED and module != "__future__"
    ]
    assert outside == []


@pytest.mark.parametrize("name", PURE)
def test_a_pure_league_module_imports_nothing_from_django(name: str) -> None:
    imports = imported_modules((LEAGUES_DIR / name).read_text(encoding="utf-8"))

    assert [module for module in imports if module.split(".")[0] == "django"] == []


@pytest.mark.parametrize("name", PURE)
def test_importing_a_pure_league_module_loads_no_django(name: str) -> None:
    module = f"scorekeeper.leagues.{name.removesuffix('.py')}"
    check = (
        f"import sys, {module}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )

    found = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        check=True,
        cwd=LEAGUES_DIR.parent.parent,
    )

    assert found.stdout.strip() == "[]"
