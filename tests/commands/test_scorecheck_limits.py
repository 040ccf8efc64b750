"""`scorecheck` reads a file within the same bounds as the import page: past them the file is
unreadable (exit 2) with the place, the code and the bound; below them a number is kept and
flagged (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import limits
from tests.commands.test_scorecheck import scorecheck


def straight(pips: int) -> dict[str, Any]:
    return {
        "game": "straight",
        "players": ["Ana", "Bo"],
        "hands": [{"end": {"how": "domino", "player": "Ana", "pips": {"Bo": pips}}}],
    }


def written(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "match.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_three_billion_pips_make_the_file_unreadable(tmp_path: Path) -> None:
    run = scorecheck(written(tmp_path, straight(3_000_000_000)), "--json")

    assert run.code == 2
    assert "hands[0].end.pips.Bo: invalid-number: expected a whole number from 0 to 1092" in run.err


def test_pips_past_the_set_but_within_bounds_are_kept_and_flagged(tmp_path: Path) -> None:
    run = scorecheck(written(tmp_path, straight(500)), "--json")

    assert run.code == 1
    assert run.json["totals"] == {"Ana": 500, "Bo": 0}
    assert [f["code"] for f in run.json["findings"]] == ["pips-exceed-set"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (" " * limits.MOST_FILE_BYTES + "{}", "(file): too-large"),
        ("[" * 50 + "]" * 50, "(file): too-deep"),
        (
            json.dumps({**straight(3), "hands": straight(3)["hands"] * (limits.MOST_HANDS + 1)}),
            "hands: too-many",
        ),
    ],
    ids=["too large", "too deep", "too many hands"],
)
def test_a_file_past_the_limits_is_unreadable(tmp_path: Path, text: str, where: str) -> None:
    run = scorecheck(written(tmp_path, text), "--json")

    assert run.code == 2
    assert where in run.err


PARTNERS = {
    "game": "straight",
    "players": ["Ana", "Bo", "Cy", "Di"],
    "partnerships": [["Ana", "Cy"], ["Bo", "Di"]],
}
SEDMA_PLAY = {"game": "sedma", "players": ["P1", "P2", "P3", "P4"]}


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (straight(limits.MOST_PIPS + 1), "hands[0].end.pips.Bo: invalid-number"),
        (
            {**PARTNERS, "hands": [{"end": {"how": "blocked", "pips": {"Bo & Di": 1093}}}]},
            "hands[0].end.pips.Bo & Di: invalid-number",
        ),
        (
            {**PARTNERS, "hands": [{"plays": [{"player": "Bo", "points": 1001}]}]},
            "hands[0].plays[0].points: invalid-number",
        ),
        ({**straight(5), "rules": {"target": 10_001}}, "rules.target: invalid-number"),
        (
            {**PARTNERS, "hands": [{"end": {"how": "blocked"}, "claimed": {"Ana & Cy": 10_001}}]},
            "hands[0].claimed.Ana & Cy: invalid-number",
        ),
        (straight(5) | {"rules": {"target": 250.0}}, "rules.target: invalid-number"),
        (
            {**PARTNERS, "hands": [{"plays": [{"player": "Bo", "points": 12.0}]}]},
            "hands[0].plays[0].points: invalid-number",
        ),
        (
            {
                **SEDMA_PLAY,
                "hands": [
                    {"opener": "P1", "plays": [{"player": "P1", "tile": "1-1", "points": 1}]}
                ],
            },
            "hands[0].plays[0].points: unknown-field",
        ),
    ],
    ids=[
        "pips over 1092",
        "a side's pips over 1092",
        "a play over 1000",
        "a target over 10,000",
        "a claim over 10,000",
        "a target of 250.0",
        "a play of 12.0",
        "points on a Sedma play",
    ],
)
def test_numbers_past_the_bounds_and_fields_the_format_lacks_are_unreadable(
    tmp_path: Path, data: dict[str, Any], where: str
) -> None:
    run = scorecheck(written(tmp_path, data), "--json")

    assert run.code == 2
    assert where in run.err
