from __future__ import annotations

import pytest

from scorekeeper.rules.rounding import explain_round5, round5

# docs/rules.md: 0,1,2 -> 0; 3..7 -> 5; 8..12 -> 10; ... each band is centred on its multiple
# of five.
ROUNDING_TABLE = {
    0: 0, 1: 0, 2: 0,
    3: 5, 4: 5, 5: 5, 6: 5, 7: 5,
    8: 10, 9: 10, 10: 10, 11: 10, 12: 10,
    13: 15, 14: 15, 15: 15, 16: 15, 17: 15,
    18: 20, 19: 20, 20: 20, 21: 20, 22: 20,
    23: 25, 24: 25, 25: 25, 26: 25, 27: 25,
    28: 30, 29: 30, 30: 30, 31: 30, 32: 30,
    33: 35, 34: 35, 35: 35, 36: 35, 37: 35,
    38: 40, 39: 40, 40: 40,
}  # fmt: skip


def test_the_table_covers_every_pip_count_from_0_to_40() -> None:
    assert sorted(ROUNDING_TABLE) == list(range(41))


@pytest.mark.parametrize(("pips", "rounded"), sorted(ROUNDING_TABLE.items()))
def test_pips_round_to_the_nearest_five(pips: int, rounded: int) -> None:
    assert round5(pips) == rounded


def test_negative_pips_cannot_be_rounded() -> None:
    with pytest.raises(ValueError):
        round5(-1)


def test_the_explanation_names_the_pips_the_result_and_the_farther_five() -> None:
    text = str(explain_round5(22))

    assert "22" in text
    assert "rounds to 20" in text
    assert "nearer 20 than 25" in text


def test_the_explanation_rounds_up_when_the_upper_five_is_nearer() -> None:
    text = str(explain_round5(23))

    assert "rounds to 25" in text
    assert "nearer 25 than 20" in text


@pytest.mark.parametrize("pips", [0, 5, 35])
def test_a_multiple_of_five_is_explained_as_already_round(pips: int) -> None:
    text = str(explain_round5(pips))

    assert str(pips) in text
    assert "already a multiple of five" in text
    assert "rounds to" not in text
