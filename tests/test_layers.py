"""A lower app never reaches a higher app's tables through ORM strings (docs/development.md,
*Layers*): import-linter sees the imports, this sees the lookups ("night_table__...",
``select_related("league_entry")``, ``match.signature``) that no import shows."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.apps import apps

import scorekeeper

#: the Django apps (and the table's pages, a package without rows of its own), by layer: each
#: reaches only its own rows and those of the layers below
LAYER = {"tables": 0, "access": 1, "table_pages": 2, "leagues": 3, "nights": 4}
PACKAGE = Path(scorekeeper.__file__).parent


def reverse_names(lower: str) -> set[str]:
    """The names by which a lower app's queries would reach the rows of a higher app: the
    reverse accessors and query names of the higher apps' relations to the models of the lower
    app's layer and the layers below it."""
    names = set()
    for model in apps.get_models():
        higher = model._meta.app_label
        if higher not in LAYER:
            continue
        for field in model._meta.get_fields():
            if not (field.is_relation and field.concrete and field.related_model is not None):
                continue
            to = field.related_model._meta.app_label
            below = to in LAYER and LAYER[to] <= LAYER[lower] < LAYER[higher]
            if below and not field.remote_field.hidden:
                names |= {field.remote_field.get_accessor_name(), field.related_query_name()}
    return names


def reaches(source: str, names: set[str]) -> list[str]:
    """Where ``source`` names one of ``names`` as a relation: an attribute, a keyword of a
    lookup, or a string that is a lookup path (docstrings left out)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.keyword) and node.arg and _in_path(node.arg, names):
            found.append(f"line {node.value.lineno}: {node.arg}=")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and re.fullmatch(r"[a-z_]+", node.value)
            and _in_path(node.value, names)
        ):
            found.append(f"line {node.lineno}: {node.value!r}")
    return sorted(found, key=lambda said: int(said.split(":")[0].split()[1]))


def _in_path(lookup: str, names: set[str]) -> bool:
    return any(part in names for part in lookup.split("__"))


def lower_modules() -> list[tuple[str, Path]]:
    return [
        (app, path)
        for app in LAYER
        if LAYER[app] < max(LAYER.values())
        for path in sorted((PACKAGE / app).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_the_scan_knows_how_tables_would_reach_a_league_and_a_night() -> None:
    assert {"league_entry", "leagues", "night_table", "signature"} <= reverse_names("tables")
    assert {"nights", "night_table", "signature"} <= reverse_names("leagues")
    assert "league_entry" not in reverse_names("leagues")
    assert {"share_links", "roles"} <= reverse_names("tables")
    assert "share_links" not in reverse_names("access")


def test_the_scan_would_notice_a_lookup_a_join_and_an_attribute() -> None:
    source = (
        '"""Reads match.night_table in a docstring, which is fine."""\n'
        "Match.objects.filter(night_table__night_round__night__played_on=day)\n"
        'Match.objects.select_related("league_entry")\n'
        "entry = match.league_entry\n"
        'Q(**{f"{to_match}signature__isnull": True})\n'
    )

    assert reaches(source, {"night_table", "league_entry", "signature"}) == [
        "line 2: night_table__night_round__night__played_on=",
        "line 3: 'league_entry'",
        "line 4: .league_entry",
        "line 5: 'signature__isnull'",
    ]


@pytest.mark.parametrize(
    ("app", "path"), lower_modules(), ids=lambda item: str(item).rsplit("scorekeeper/", 1)[-1]
)
def test_no_lower_module_reaches_a_higher_apps_rows(app: str, path: Path) -> None:
    assert reaches(path.read_text(encoding="utf-8"), reverse_names(app)) == []
