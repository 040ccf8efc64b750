from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.examples import matchfile_example

MANAGE_PY = Path(__file__).resolve().parents[2] / "manage.py"

# The example from the README's *The match file*: Ana & Cy 55, Bo & Di 15, a claimed-mismatch
# warning on hand 2.
EXAMPLE: dict[str, Any] = matchfile_example()


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.out)


def scorecheck(*args: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("scorecheck", *args, stdout=out, stderr=err)
    return Run(exited.value.code, out.getvalue(), err.getvalue())


def match_file(tmp_path: Path, data: Any, name: str = "match.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def with_change(path: str, value: Any) -> dict[str, Any]:
    """The example with the value at a dotted path (list items as numbers) replaced."""
    data = json.loads(json.dumps(EXAMPLE))
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


# -- a good file ------------------------------------------------------------------------------


def test_a_file_with_only_warnings_exits_0(tmp_path: Path) -> None:
    run = scorecheck(str(match_file(tmp_path, EXAMPLE)), "--json")

    assert run.code == 0
    assert run.err == ""


def test_the_json_output_has_the_shape_matchfile_md_describes(tmp_path: Path) -> None:
    report = scorecheck(str(match_file(tmp_path, EXAMPLE)), "--json").json

    assert report["game"] == "straight"
    assert report["sides"] == ["Ana & Cy", "Bo & Di"]
    assert [hand["number"] for hand in report["hands"]] == [1, 2]
    assert [hand["points"] for hand in report["hands"]] == [
        {"Ana & Cy": 35, "Bo & Di": 15},
        {"Ana & Cy": 20, "Bo & Di": 0},
    ]
    for hand in report["hands"]:
        assert hand["explanation"]
        assert all(isinstance(line, str) and line for line in hand["explanation"])
    assert report["totals"] == {"Ana & Cy": 55, "Bo & Di": 15}
    assert report["finished"] is False
    assert report["winner"] is None
    [finding] = report["findings"]
    assert {key: finding[key] for key in ("code", "severity", "hand", "play")} == {
        "code": "claimed-mismatch",
        "severity": "warning",
        "hand": 2,
        "play": None,
    }
    assert "35" in finding["message"] and "20" in finding["message"]


def test_a_finished_match_names_the_winner(tmp_path: Path) -> None:
    data = {
        "game": "straight",
        "rules": {"target": 30},
        "players": ["Ana", "Bo"],
        "hands": [{"end": {"how": "domino", "player": "Bo", "pips": {"Ana": 28}}}],
    }

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 0
    assert (run.json["finished"], run.json["winner"]) == (True, "Bo")
    assert run.json["totals"] == {"Ana": 0, "Bo": 30}


def test_a_shared_chickenfoot_win_is_a_list_of_sides(tmp_path: Path) -> None:
    rounds = [{"end": {"how": "domino", "player": "Cy", "pips": {"Ana": 2, "Bo": 2}}}] * 6
    rounds.append({"end": {"how": "blocked", "pips": {"Ana": 1, "Bo": 1, "Cy": 14}}})
    data = {"game": "chickenfoot", "players": ["Ana", "Bo", "Cy"], "hands": rounds}

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 0
    assert run.json["totals"] == {"Ana": 13, "Bo": 13, "Cy": 14}
    assert (run.json["finished"], run.json["winner"]) == (True, ["Ana", "Bo"])


# -- error findings ---------------------------------------------------------------------------


def test_a_file_with_an_error_finding_exits_1(tmp_path: Path) -> None:
    data = with_change("hands.0.plays.1.points", 12)

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    codes = [(f["code"], f["severity"], f["hand"], f["play"]) for f in run.json["findings"]]
    assert ("play-not-multiple-of-five", "error", 1, 2) in codes
    # the flagged 12 still counts for Bo & Di
    assert run.json["totals"]["Bo & Di"] == 12


def test_the_readable_sheet_exits_1_on_an_error_too(tmp_path: Path) -> None:
    data = with_change("hands.0.plays.1.points", 40)

    run = scorecheck(str(match_file(tmp_path, data)))

    assert run.code == 1
    assert "play-too-high" in run.out


def test_a_lead_above_10_exits_1_with_lead_too_high(tmp_path: Path) -> None:
    data = with_change("hands.0.plays.0", {"player": "Ana", "points": 25, "lead": True})

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    [lead] = [f for f in run.json["findings"] if f["code"] == "lead-too-high"]
    assert (lead["severity"], lead["hand"], lead["play"]) == ("error", 1, 1)
    assert lead["message"] == (
        "Hand 1, play 1: the lead scored 25, but a lead tile alone makes at most 10 (5 or 10)."
    )
    # the flagged 25 still counts for Ana & Cy: 25 + (Bo 12 + Di 11 = 23 -> 25)
    assert run.json["hands"][0]["points"]["Ana & Cy"] == 50


def test_a_lead_of_10_exits_0(tmp_path: Path) -> None:
    data = with_change("hands.0.plays.0", {"player": "Ana", "points": 10, "lead": True})

    assert scorecheck(str(match_file(tmp_path, data)), "--json").code == 0


def test_the_opponents_pips_counted_together_are_explained_and_exit_0(tmp_path: Path) -> None:
    data = with_change("hands.0.end.pips", {"Bo & Di": 23, "Cy": 9})

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 0
    first = run.json["hands"][0]
    assert first["points"] == {"Ana & Cy": 35, "Bo & Di": 15}
    assert "Bo & Di's pips, counted together: 23." in first["explanation"]


def test_the_losing_sides_pips_counted_together_on_a_blocked_hand_exit_0(tmp_path: Path) -> None:
    data = with_change("hands.1.end.pips", {"Ana": 3, "Cy": 5, "Bo & Di": 21})

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 0
    assert [f["code"] for f in run.json["findings"]] == ["claimed-mismatch"]


def test_the_winning_sides_pips_counted_together_on_a_blocked_hand_warn_and_exit_0(
    tmp_path: Path,
) -> None:
    data = with_change("hands.1.end.pips", {"Ana & Cy": 8, "Bo": 12, "Di": 9})

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 0
    [together] = [f for f in run.json["findings"] if f["code"] == "pips-counted-together"]
    assert (together["severity"], together["hand"], together["play"]) == ("warning", 2, None)
    assert run.json["totals"] == {"Ana & Cy": 55, "Bo & Di": 15}
    sheet = scorecheck(str(match_file(tmp_path, data)))
    assert "Next: Hand 3: the rules cannot tell who leads; the table says." in sheet.out


def test_a_lead_by_anyone_but_the_leader_exits_1(tmp_path: Path) -> None:
    data = with_change("hands.0.plays.1", {"player": "Bo", "points": 15, "lead": True})

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    [misplaced] = [f for f in run.json["findings"] if f["code"] == "lead-misplaced"]
    assert (misplaced["severity"], misplaced["hand"], misplaced["play"]) == ("error", 1, 2)
    assert misplaced["message"] == (
        "Hand 1, play 2: Bo's play is marked as the lead, but the lead is the hand's first play."
    )


def test_a_sedma_record_leaving_a_pass_off_exits_1(tmp_path: Path) -> None:
    first = [
        {"player": player, "tile": f"{d}-{d}"}
        for player, d in zip(["P1", "P2", "P3", "P4"] * 2, [1, 2, 3, 4, 5, 6, 0], strict=False)
    ]
    second = [
        {"player": "P4", "tile": "6-6"},
        {"player": "P1", "tile": "6-1"},
        {"player": "P2", "tile": "1-1"},
    ]
    data = {
        "game": "sedma",
        "players": ["P1", "P2", "P3", "P4"],
        "hands": [
            {"opener": "P1", "plays": first, "end": {"how": "all-doubles"}},
            {"opener": "P4", "passed_opening": ["P3"], "plays": second},
        ],
    }

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    assert [f["code"] for f in run.json["findings"]] == [
        "bad-opening",
        "opener-passed-but-held-double",
    ]


# -- unreadable files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "place", "code"),
    [
        (with_change("game", "mexican-train"), "game", "unknown-game"),
        (with_change("rules", {"set": 9}), "rules.set", "unknown-rule"),
        (
            with_change("hands.0.plays.0.player", "Zed"),
            "hands[0].plays[0].player",
            "unknown-player",
        ),
        (with_change("hands.1.end.pips.Bo", -3), "hands[1].end.pips.Bo", "invalid-number"),
        (with_change("hands.1.end.pips.Bo", "12"), "hands[1].end.pips.Bo", "invalid-number"),
        (with_change("players", "Ana, Bo, Cy, Di"), "players", "bad-value"),
        (with_change("hands", {"1": {}}), "hands", "bad-value"),
        (with_change("hands.0.plays.0.lead", "yes"), "hands[0].plays[0].lead", "bad-value"),
        (
            with_change("hands.0.end.pips", {"Bo & Cy": 21}),
            "hands[0].end.pips.Bo & Cy",
            "unknown-player",
        ),
        ('{"game": "straight", "players": [', "(file)", "not-json"),
    ],
    ids=[
        "unknown-game",
        "unknown-rule",
        "unknown-player",
        "negative-pips",
        "pips-as-text",
        "players-as-text",
        "hands-as-object",
        "lead-as-text",
        "pips-of-no-partnership",
        "not-json",
    ],
)
def test_an_unreadable_file_exits_2_with_place_code_and_reason(
    tmp_path: Path, data: Any, place: str, code: str
) -> None:
    path = match_file(tmp_path, data)

    run = scorecheck(str(path), "--json")

    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith(f"{path}: {place}: {code}: ")


def test_negative_pips_are_reported_word_for_word(tmp_path: Path) -> None:
    path = match_file(tmp_path, with_change("hands.1.end.pips.Bo", -3))

    run = scorecheck(str(path))

    assert run.code == 2
    assert run.err.strip() == (
        f"{path}: hands[1].end.pips.Bo: invalid-number: expected a whole number >= 0, got -3"
    )


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "no-such-match.json"

    run = scorecheck(str(path), "--json")

    assert run.code == 2
    assert run.err.startswith(f"{path}: unreadable: ")


# -- the readable sheet -----------------------------------------------------------------------


def numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", line)]


def test_the_sheet_shows_hands_as_rows_and_sides_as_columns(tmp_path: Path) -> None:
    run = scorecheck(str(match_file(tmp_path, EXAMPLE)))
    lines = run.out.splitlines()

    assert run.code == 0
    header = next(line for line in lines if "Ana & Cy" in line and "Bo & Di" in line)
    assert header.index("Ana & Cy") < header.index("Bo & Di")
    start = lines.index(header)
    hand_1, hand_2, total = lines[start + 1 : start + 4]
    # each cell: the hand's points, then the running total
    assert numbers(hand_1) == [1, 35, 35, 15, 15]
    assert numbers(hand_2) == [2, 20, 55, 0, 15]
    assert total.startswith("Total") and numbers(total) == [55, 15]


def test_the_sheet_explains_the_arithmetic_of_every_hand(tmp_path: Path) -> None:
    out = scorecheck(str(match_file(tmp_path, EXAMPLE))).out

    hand_1 = out[out.index("\nHand 1\n") : out.index("\nHand 2\n")]
    hand_2 = out[out.index("\nHand 2\n") :]
    # hand 1: Bo 12 + Di 11 = 23, which rounds to 25
    assert "23" in hand_1 and "25" in hand_1
    # hand 2: blocked, Ana & Cy hold 8, Bo & Di 21, which rounds to 20
    assert "21" in hand_2 and "20" in hand_2


def test_the_sheet_lists_the_findings(tmp_path: Path) -> None:
    out = scorecheck(str(match_file(tmp_path, EXAMPLE))).out

    [line] = [line for line in out.splitlines() if "claimed-mismatch" in line]
    assert "WARNING" in line.upper()
    assert "35" in line


def test_the_sheet_says_so_when_there_are_no_findings(tmp_path: Path) -> None:
    data = with_change("hands.1.claimed", {"Ana & Cy": 20})

    out = scorecheck(str(match_file(tmp_path, data))).out

    assert "claimed-mismatch" not in out
    assert "findings: none" in out.lower()


def test_a_chickenfoot_sheet_counts_rounds(tmp_path: Path) -> None:
    data = {
        "game": "chickenfoot",
        "players": ["Ana", "Bo", "Cy"],
        "hands": [{"end": {"how": "domino", "player": "Ana", "pips": {"Bo": 12, "Cy": 4}}}],
    }

    run = scorecheck(str(match_file(tmp_path, data)))

    [row] = [line for line in run.out.splitlines() if line.startswith("1 ")]
    assert numbers(row) == [1, 0, 0, 12, 12, 4, 4]
    assert "5-5" in run.out


# -- end to end -------------------------------------------------------------------------------


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}
    env.setdefault("DJANGO_SECRET_KEY", "scorecheck-tests")
    return subprocess.run(
        [sys.executable, str(MANAGE_PY), "scorecheck", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        cwd=MANAGE_PY.parent,
        timeout=60,
        check=False,
    )


def test_manage_py_scorecheck_prints_json_and_exits_0(tmp_path: Path) -> None:
    done = manage(str(match_file(tmp_path, EXAMPLE)), "--json")

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == {"Ana & Cy": 55, "Bo & Di": 15}


def test_manage_py_scorecheck_reads_standard_input(tmp_path: Path) -> None:
    done = manage("-", "--json", stdin=json.dumps(with_change("hands.0.plays.0.points", 40)))

    assert done.returncode == 1, done.stderr
    assert "play-too-high" in [f["code"] for f in json.loads(done.stdout)["findings"]]


def test_manage_py_scorecheck_exits_2_on_an_unreadable_file(tmp_path: Path) -> None:
    path = match_file(tmp_path, with_change("hands.1.end.pips.Bo", -3))

    done = manage(str(path))

    assert done.returncode == 2
    assert done.stdout == ""
    assert "hands[1].end.pips.Bo: invalid-number: expected a whole number >= 0, got -3" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


def test_a_match_decided_at_time_keeps_its_winner_though_the_other_reaches_the_target_later(
    tmp_path: Path,
) -> None:
    def hand(player: str, *points: int) -> dict[str, Any]:
        other = "Bo" if player == "Ana" else "Ana"
        return {
            "plays": [{"player": player, "points": p} for p in points],
            "end": {"how": "domino", "player": player, "pips": {other: 0}},
        }

    data = {
        "game": "straight",
        # time was called in hand 2: Ana is ahead 45 to 20 when it ends
        "rules": {"target": 100, "last_hand": 2},
        "players": ["Ana", "Bo"],
        "hands": [hand("Ana", 35, 10), hand("Bo", 20), hand("Bo", 35, 35, 35), hand("Bo", 5)],
    }

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    report = run.json
    assert (report["finished"], report["winner"]) == (True, "Ana")
    assert report["totals"] == {"Ana": 45, "Bo": 130}
    assert [(f["code"], f["hand"], f["play"]) for f in report["findings"]] == [
        ("after-match-end", 3, None),
        ("after-match-end", 4, None),
    ]
    assert report["findings"][0]["message"] == "Hand 3: recorded after Ana had won the match."


def test_a_first_sedma_hand_leaving_a_pass_off_exits_1(tmp_path: Path) -> None:
    # P1 was due, the first named; P2, left off, passed all the same and cannot set 1-1
    data = {
        "game": "sedma",
        "players": ["P1", "P2", "P3", "P4"],
        "hands": [
            {
                "opener": "P4",
                "passed_opening": ["P1", "P3"],
                "plays": [
                    {"player": "P4", "tile": "6-6"},
                    {"player": "P1", "tile": "6-1"},
                    {"player": "P2", "tile": "1-1"},
                ],
            }
        ],
    }

    run = scorecheck(str(match_file(tmp_path, data)), "--json")

    assert run.code == 1
    found = [(f["code"], f["hand"], f["play"]) for f in run.json["findings"]]
    assert found == [("bad-opening", 1, None), ("opener-passed-but-held-double", 1, 3)]
