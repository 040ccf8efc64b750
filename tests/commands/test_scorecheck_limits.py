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
