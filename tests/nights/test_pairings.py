"""The round's pairings by table and by name, as the public page lists them: no database."""

from __future__ import annotations

from scorekeeper.nights.pairings import PlayerPairing, by_name, by_table, name_matches


def test_partners_sit_opposite_and_play_the_other_two():
    tables = by_table([(1, ["Ana", "Bo", "Cy", "Di"])], partnerships=True)

    assert tables[0].sides == (("Ana", "Cy"), ("Bo", "Di"))
    rows = {row.name: row for row in by_name(tables)}
    assert rows["Bo"] == PlayerPairing("Bo", 1, 2, ("Di",), ("Ana", "Cy"))
    assert rows["Cy"] == PlayerPairing("Cy", 1, 3, ("Ana",), ("Bo", "Di"))


def test_without_partnerships_everyone_else_at_the_table_is_an_opponent():
    tables = by_table([(2, ["Ana", "Bo", "Cy"])], partnerships=False)

    assert tables[0].sides == ()
    rows = {row.name: row for row in by_name(tables)}
    assert rows["Bo"] == PlayerPairing("Bo", 2, 2, (), ("Ana", "Cy"))


def test_by_name_is_alphabetical_accents_and_case_aside_with_those_sitting_out():
    tables = by_table(
        [(2, ["Zofia", "bo", "Ábel", "Cy"]), (1, ["Dana", "Eve", "Ela", "Ana"])], partnerships=True
    )

    rows = by_name(tables, ["Čeněk"])

    assert [table.number for table in tables] == [1, 2]
    assert [row.name for row in rows] == [
        "Ábel", "Ana", "bo", "Čeněk", "Cy", "Dana", "Ela", "Eve", "Zofia"
    ]  # fmt: skip
    assert next(row for row in rows if row.name == "Čeněk").sits_out


def test_a_name_is_found_by_any_part_without_its_accents_or_case():
    assert name_matches("José Núñez", "jose")
    assert name_matches("José Núñez", "NUNEZ")
    assert name_matches("Bo", " bo ")
    assert name_matches("Ana", "")
    assert not name_matches("Ana", "bo")
