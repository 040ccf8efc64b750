"""Changes and links kept with the app's English words for who made them: the migration keeps
what they were (a phone that gave no name, the starter's own link) and leaves the words to each
reader's language; migrated back, the words return."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.access.models import ShareLink
from scorekeeper.tables.models import Change

BEFORE = [
    ("tables", "0011_player_name_looks"),
    ("access", "0002_owner_link_and_links_made_through"),
]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_the_apps_words_become_kinds_and_come_back_when_migrated_back() -> None:
    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    match = old.get_model("tables", "Match").objects.create(game="straight", version=4)
    OldChange = old.get_model("tables", "Change")
    for number, made_by in enumerate(
        ["a phone at the table", "Bo", "", "Started on this phone"], start=1
    ):
        OldChange.objects.create(match=match, number=number, kind="scored", made_by=made_by)
    OldLink = old.get_model("access", "ShareLink")
    OldLink.objects.create(
        match_id=match.pk,
        role="scorekeeper",
        token="own",
        owner=True,
        label="Started on this phone",
    )
    OldLink.objects.create(match_id=match.pk, role="scorekeeper", token="t3", label="Table 3")

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    changes = Change.objects.filter(match_id=match.pk).order_by("number")
    assert list(changes.values_list("made_by", "maker")) == [
        ("", "phone"),
        ("Bo", ""),
        ("", ""),
        ("", "phone"),
    ]
    links = ShareLink.objects.filter(match_id=match.pk).order_by("token")
    # the table card's link keeps its table's number, said in each reader's language
    assert list(links.values_list("token", "owner", "label", "table_number")) == [
        ("own", True, "", None),
        ("t3", False, "", 3),
    ]

    migrate(BEFORE)
    assert list(OldChange.objects.order_by("number").values_list("made_by", flat=True)) == [
        "a phone at the table",
        "Bo",
        "",
        "a phone at the table",
    ]
    assert list(OldLink.objects.order_by("token").values_list("label", flat=True)) == [
        "Started on this phone",
        "Table 3",
    ]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
