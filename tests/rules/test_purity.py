from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorekeeper.rules

RULES_DIR = Path(scorekeeper.rules.__file__).parent
MODULES = sorted(RULES_DIR.rglob("*.py"))


def imported_modules(source: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.append(str(node.args[0].value))
    return names


def test_the_scan_finds_the_rules_modules() -> None:
    names = {path.name for path in MODULES}

    assert {"straight.py", "chickenfoot.py", "sedma.py", "matchfile.py"} <= names


def test_the_scan_would_notice_a_django_import() -> None:
    source = "import os\nfrom django.db import models\nimport django.conf\n"

    assert [name for name in imported_modules(source) if name.split(".")[0] == "django"] == [
        "django.db",
        "django.conf",
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_rules_module_imports_django(path: Path) -> None:
    imports = imported_modules(path.read_text(encoding="utf-8"))

    assert [name for name in imports if name.split(".")[0] == "django"] == []
