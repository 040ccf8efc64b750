"""Swiss rounds and round robin: pairs by the standings, never a rematch, byes to the lowest
ranked who has not had one, and every pair of a round robin meeting once."""

from __future__ import annotations

import pytest

from scorekeeper.events.pairing import NoPairing, Pairing, results_of, round_robin, swiss_round
from scorekeeper.events.standings import Bye, Game


def won(winner: str, loser: str) -> Game:
    return Game(winner, loser, 250, 185)


def test_the_first_round_pairs_the_seeded_order_one_against_two() -> None:
    pairing = swiss_round("abcdef", [])

    assert pairing == Pairing((("a", "b"), ("c", "d"), ("e", "f")))


def test_the_top_two_of_the_score_group_meet() -> None:
    round_1 = [won("a", "e"), won("b", "f"), won("c", "g"), won("d", "h")]

    pairing = swiss_round("abcdefgh", round_1)

    assert pairing.tables == (("a", "b"), ("c", "d"), ("e", "f"), ("g", "h"))


def test_entries_who_met_are_never_paired_again() -> None:
    pairing = swiss_round("abcd", [won("a", "b"), won("c", "d")])

    # a and c, b and d: each two places apart rather than a against the last
    assert pairing.tables == (("a", "c"), ("b", "d"))
    assert pairing.rematches == ()


def test_the_odd_one_of_a_score_group_meets_the_top_of_the_next() -> None:
    round_1 = [won("a", "d"), won("b", "e"), won("c", "f")]

    pairing = swiss_round("abcdef", round_1)

    assert pairing.tables == (("a", "b"), ("c", "d"), ("e", "f"))


def test_a_bye_goes_to_the_lowest_ranked_entry() -> None:
    assert swiss_round("abcde", []).bye == "e"


def test_a_bye_goes_to_the_lowest_ranked_without_one() -> None:
    round_1 = [won("a", "b"), won("c", "d"), Bye("e")]

    pairing = swiss_round("aecbd", round_1)

    assert pairing.bye == "d"
    assert pairing.tables == (("a", "e"), ("c", "b"))


def test_nobody_has_a_second_bye_while_someone_has_none() -> None:
    # everyone but a has had a bye, and a leads: a still sits out
    results = [Bye("b"), Bye("c"), won("a", "b"), won("a", "c")]

    assert swiss_round("abc", results).bye == "a"


def test_the_bye_goes_higher_only_when_a_lower_one_would_force_a_rematch() -> None:
    # c sitting out would leave a against b again
    pairing = swiss_round("abc", [won("a", "b")])

    assert pairing.bye == "b"
    assert pairing.tables == (("a", "c"),)


def test_a_round_that_cannot_avoid_a_rematch_is_refused_with_a_reason() -> None:
    everyone_met = [won("a", "b"), won("c", "d"), won("a", "c"), won("b", "d")]
    everyone_met += [won("a", "d"), won("b", "c")]

    with pytest.raises(NoPairing, match="every pairing of this round has a rematch") as refused:
        swiss_round("abcd", everyone_met)

    assert refused.value.reason == "rematch"


def test_an_odd_field_out_of_new_opponents_is_refused_naming_the_bye_too() -> None:
    with pytest.raises(NoPairing) as refused:
        swiss_round("abc", [won("a", "b"), won("a", "c"), won("b", "c")])

    assert refused.value.reason == "rematch_or_second_bye"


def test_allowed_rematches_are_as_few_as_the_field_allows_and_listed() -> None:
    # a has met everyone; b, c and d have met only a
    results = [won("a", "b"), won("a", "c"), won("a", "d")]

    pairing = swiss_round("abcd", results, allow_rematches=True)

    assert len(pairing.rematches) == 1
    assert pairing.rematches[0][0] == "a"
    assert sorted(entry for table in pairing.tables for entry in table) == list("abcd")


def test_the_same_ranking_and_results_give_the_same_pairing_in_any_order() -> None:
    results = [won("a", "e"), won("b", "f"), won("c", "g"), won("h", "d"), Bye("i")]

    assert swiss_round("abchdefgi", results) == swiss_round("abchdefgi", results[::-1])


def test_an_entry_that_withdrew_is_left_out_and_the_rest_are_paired_as_before() -> None:
    # e withdrew after round 1; a and b met, so did c and d
    round_1 = [won("a", "b"), won("c", "d"), won("e", "f")]

    pairing = swiss_round("acbdf", round_1)

    assert pairing.bye == "f"
    assert pairing.tables == (("a", "c"), ("b", "d"))


def test_an_entry_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        swiss_round("abca", [])


def test_a_round_robin_of_four_takes_three_rounds_with_nobody_sitting_out() -> None:
    rounds = round_robin("abcd")

    assert [round_.bye for round_ in rounds] == [None, None, None]
    assert rounds[0].tables == (("a", "d"), ("b", "c"))


def test_a_round_robin_of_five_gives_each_entry_exactly_one_bye() -> None:
    rounds = round_robin("edcba")

    assert len(rounds) == 5
    assert sorted(round_.bye for round_ in rounds) == list("abcde")
    assert all(len(round_.tables) == 2 for round_ in rounds)


def test_a_round_s_results_follow_its_tables_and_its_bye() -> None:
    pairing = Pairing((("a", "b"),), bye="c")

    assert results_of(pairing, [(250, 185)]) == [Game("a", "b", 250, 185), Bye("c")]
