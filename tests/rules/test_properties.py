from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Hand, HandEnd, Match, Play, Severity, Side, score_match
from scorekeeper.rules.keys import rekeyed
from scorekeeper.rules.match import GAMES
from scorekeeper.rules.matchfile import MatchFileError, dumps_match, read_match, write_match
from scorekeeper.rules.rounding import round5

NAMES = st.text(
    alphabet=st.characters(exclude_characters="&", exclude_categories=("Cs", "Cc")),
    min_size=1,
    max_size=6,
).filter(lambda name: name.strip() != "")


def seated(count: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(NAMES, min_size=count, max_size=count, unique=True).map(tuple)


def maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return st.none() | strategy


@st.composite
def claims(draw: st.DrawFn, match: Match) -> dict[str, int]:
    keys = st.sampled_from(sorted({*match.players, *(side.label for side in match.sides)}))
    return draw(st.dictionaries(keys, st.integers(0, 120), max_size=2))


@st.composite
def hand_list(draw: st.DrawFn, match: Match, one_hand: st.SearchStrategy) -> tuple[Hand, ...]:
    """Hands as the file allows them: only the last one may be still in play."""
    hands = draw(st.lists(one_hand, max_size=7))
    if hands and draw(st.booleans()):
        hands[-1] = replace(hands[-1], end=None)
    return tuple(
        replace(hand, claimed=draw(claims(match))) if draw(st.booleans()) else hand
        for hand in hands
    )


# -- Straight ---------------------------------------------------------------------------------


@st.composite
def straight_matches(draw: st.DrawFn, *, low_target: bool = False, partners: bool = False) -> Match:
    players = draw(seated(4) if partners else st.integers(2, 4).flatmap(seated))
    partnerships: tuple[tuple[str, ...], ...] = ()
    if len(players) == 4 and (partners or draw(st.booleans())):
        teams = [(players[0], players[2]), (players[1], players[3])]
        teams = [draw(st.permutations(team)) for team in draw(st.permutations(teams))]
        partnerships = tuple(tuple(team) for team in teams)
    rules: dict[str, int | bool] = {}
    if low_target or draw(st.booleans()):
        rules["target"] = draw(st.integers(1, 150) if low_target else st.integers(251, 2000))
    for name, changed in (("spinner", False), ("round_each_hand", True), ("subtract_own", True)):
        if draw(st.booleans()):
            rules[name] = changed
    match = Match("straight", players, partnerships, rules)
    pips = st.integers(0, 25)

    @st.composite
    def straight_hand(draw: st.DrawFn) -> Hand:
        scoring = st.builds(
            lambda player, fives, lead: Play(player, points=5 * fives, lead=lead),
            st.sampled_from(players),
            st.integers(1, 7),
            st.booleans(),
        )
        if draw(st.booleans()):
            out = draw(st.sampled_from(players))
            held = {name: draw(pips) for name in players if name != out}
            if draw(st.booleans()):
                held[out] = 0
            end = HandEnd("domino", player=out, pips=draw(counted_together(match, held)))
        else:
            winner = draw(maybe(st.sampled_from(players)))
            held = {name: draw(pips) for name in players}
            end = HandEnd("blocked", player=winner, pips=draw(counted_together(match, held)))
        return Hand(
            plays=tuple(draw(st.lists(scoring, max_size=4))),
            end=end,
            leader=draw(maybe(st.sampled_from(players))),
        )

    return match.with_hands(draw(hand_list(match, straight_hand())))


def together(match: Match, held: dict[str, int], side: Side) -> dict[str, int]:
    """``held`` with the pips of partners ``side`` counted together."""
    apart = {name: pips for name, pips in held.items() if name not in side.players}
    return {**apart, side.label: sum(held.get(name, 0) for name in (side.label, *side.players))}


@st.composite
def counted_together(draw: st.DrawFn, match: Match, held: dict[str, int]) -> dict[str, int]:
    """``held``, now and then with a partnership's pips counted together."""
    for side in match.sides:
        if side.is_partnership and draw(st.booleans()):
            held = together(match, held, side)
    return held


# -- Chickenfoot ------------------------------------------------------------------------------


@st.composite
def chickenfoot_matches(draw: st.DrawFn) -> Match:
    highest = draw(st.sampled_from([6, 9, 12]))
    players = draw(st.integers(2, 4 if highest == 6 else 8).flatmap(seated))
    rules: dict[str, int | bool] = {} if highest == 6 else {"set": highest}
    blank = draw(st.sampled_from([50, 25, 0]))
    if blank != 50:
        rules["double_blank"] = blank
    match = Match("chickenfoot", players, (), rules)

    @st.composite
    def chickenfoot_round(draw: st.DrawFn) -> Hand:
        held = draw(st.dictionaries(st.sampled_from(players), st.integers(0, 60)))
        holders = tuple(draw(st.lists(st.sampled_from(players), max_size=2, unique=True)))
        how = draw(st.sampled_from(["domino", "blocked"]))
        out = draw(st.sampled_from(players) if how == "domino" else maybe(st.sampled_from(players)))
        return Hand(
            double=draw(maybe(st.integers(0, highest))),
            starter=draw(maybe(st.sampled_from(players))),
            end=HandEnd(how, player=out, pips=held, double_blank=holders),
        )

    return match.with_hands(draw(hand_list(match, chickenfoot_round())))


# -- Sedma ------------------------------------------------------------------------------------

DOUBLE_SIX_TILES = [(a, b) for a in range(7) for b in range(7)]


@st.composite
def sedma_matches(draw: st.DrawFn) -> Match:
    players = draw(seated(4))
    rules: dict[str, int | bool] = {}
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(1, 200).filter(lambda target: target != 61))
    match = Match("sedma", players, (), rules)

    @st.composite
    def sedma_hand(draw: st.DrawFn) -> Hand:
        tiles = st.builds(
            lambda player, tile: Play(player, tile=tile),
            st.sampled_from(players),
            st.sampled_from(DOUBLE_SIX_TILES),
        )
        return Hand(
            plays=tuple(draw(st.lists(tiles, max_size=10))),
            opener=draw(maybe(st.sampled_from(players))),
            passed_opening=tuple(draw(st.lists(st.sampled_from(players), max_size=3))),
            end=HandEnd(
                draw(st.sampled_from(["domino", "blocked", "all-doubles", "target"])),
                player=draw(maybe(st.sampled_from(players))),
            ),
        )

    return match.with_hands(draw(hand_list(match, sedma_hand())))


ANY_MATCH = st.one_of(
    straight_matches(), straight_matches(low_target=True), chickenfoot_matches(), sedma_matches()
)


# -- rounding ---------------------------------------------------------------------------------


@given(st.integers(0, 100_000))
def test_rounding_gives_a_multiple_of_five_within_two_pips(pips: int) -> None:
    rounded = round5(pips)

    assert rounded % 5 == 0
    assert abs(rounded - pips) <= 2


@given(st.integers(0, 100_000), st.integers(0, 100_000))
def test_rounding_never_puts_more_pips_below_fewer(fewer: int, more: int) -> None:
    fewer, more = sorted((fewer, more))

    assert round5(fewer) <= round5(more)


# -- totals -----------------------------------------------------------------------------------


@given(straight_matches() | straight_matches(low_target=True))
def test_straight_totals_are_the_sum_of_the_hands_and_the_last_running_total(
    match: Match,
) -> None:
    board = score_match(match)

    for side in board.sides:
        assert board.totals[side] == sum(hand.points[side] for hand in board.hands)
    if board.hands:
        assert board.totals == board.hands[-1].running
    else:
        assert board.totals == dict.fromkeys(board.sides, 0)


@given(straight_matches() | straight_matches(low_target=True))
def test_straight_totals_count_every_play_and_every_hand_end(match: Match) -> None:
    board = score_match(match)

    for hand, score in zip(match.hands, board.hands, strict=True):
        extra = sum(score.points.values()) - sum(play.points for play in hand.plays)
        # the end of a hand gives one side a multiple of five, or nothing
        assert extra >= 0 and extra % 5 == 0
        if hand.end is None:
            assert extra == 0


@given(straight_matches(low_target=True))
def test_a_straight_match_is_won_by_the_first_side_to_reach_the_target(match: Match) -> None:
    board = score_match(match)
    target = match.rule("target")

    reached = [side for side in board.sides if board.totals[side] >= target]
    assert board.finished == bool(reached)
    if board.finished:
        assert board.winner in reached
        assert board.next is None


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MATCH)
def test_scoring_the_first_hands_gives_exactly_those_hands_of_the_whole_match(
    match: Match,
) -> None:
    whole = score_match(match)

    for count in range(len(match.hands) + 1):
        part = score_match(match.with_hands(match.hands[:count]))
        assert part.hands == whole.hands[:count]
        expected = whole.hands[count - 1].running if count else dict.fromkeys(whole.sides, 0)
        assert part.totals == expected
        assert part.findings == [
            found for found in whole.findings if found.hand is None or found.hand <= count
        ]


# -- players known by seat ---------------------------------------------------------------------


def said(board: Any, names: dict[str, str] | None = None) -> list[str]:
    """Every sentence a scoreboard says, its totals by side said by name, and what comes next."""
    names = names or {}
    lines = [f"{side.said_with(names)} {board.totals[side]}" for side in board.sides]
    lines += [line.render(names=names) for hand in board.hands for line in hand.explanation]
    lines += [found.says.render(names=names) for found in board.findings]
    if board.next is not None:
        lines.append(board.next.says.render(names=names))
    return lines


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MATCH)
def test_a_match_scored_by_seat_says_the_same_as_by_name(match: Match) -> None:
    """The engine keeps no name: scored with its players known by seat, a match's totals,
    explanations, findings and what comes next, said with the names, are the match's by name."""
    seats = {name: str(seat) for seat, name in enumerate(match.players)}
    names = {seat: name for name, seat in seats.items()}

    by_seat = score_match(rekeyed(match, seats))
    by_name = score_match(match)

    assert said(by_seat, names) == said(by_name)
    assert [by_seat.totals[side] for side in by_seat.sides] == [
        by_name.totals[side] for side in by_name.sides
    ]
    assert [(f.code, f.hand, f.play) for f in by_seat.findings] == [
        (f.code, f.hand, f.play) for f in by_name.findings
    ]


# -- partners' pips counted together ----------------------------------------------------------


@given(straight_matches(partners=True))
def test_opponents_pips_counted_together_score_as_counted_apart(match: Match) -> None:
    # a count together cannot be rounded hand by hand; every other rule takes it
    match = replace(match, rules={**match.rules, "round_each_hand": False})
    hands = []
    for hand in match.hands:
        if hand.end is not None and hand.end.how == "domino":
            theirs = next(side for side in match.sides if hand.end.player not in side.players)
            hand = replace(hand, end=replace(hand.end, pips=together(match, hand.end.pips, theirs)))
        hands.append(hand)

    apart, counted = score_match(match), score_match(match.with_hands(tuple(hands)))

    assert counted.totals == apart.totals
    assert [hand.points for hand in counted.hands] == [hand.points for hand in apart.hands]


@given(straight_matches(partners=True))
def test_a_side_total_is_a_warning_only_on_the_winning_side_of_a_blocked_hand(
    match: Match,
) -> None:
    # without round_each_hand, only a blocked hand's winners need each partner's own count
    match = replace(match, rules={**match.rules, "round_each_hand": False})
    board = score_match(match)

    expected = set()
    for number, hand in enumerate(match.hands, 1):
        if hand.end is None or hand.end.how != "blocked":
            continue
        held = {side: side_pips(match, hand.end, side) for side in match.sides}
        fewest = [side for side in match.sides if held[side] == min(held.values())]
        if len(fewest) == 1 and fewest[0].label in hand.end.pips:
            expected.add(number)
    flagged = [f for f in board.findings if f.code == "pips-counted-together"]
    assert {f.hand for f in flagged} == expected
    assert all(f.severity == Severity.WARNING for f in flagged)


def side_pips(match: Match, end: HandEnd, side: Side) -> int:
    if side.label in end.pips:
        return end.pips[side.label]
    return sum(end.pips.get(name, 0) for name in side.players)


# -- the lead ---------------------------------------------------------------------------------


@given(straight_matches())
def test_every_lead_above_10_is_one_lead_too_high_and_no_other_play_is(match: Match) -> None:
    board = score_match(match)

    leads_above_10 = [
        (number, place)
        for number, hand in enumerate(match.hands, 1)
        for place, play in enumerate(hand.plays, 1)
        if play.lead and play.points > 10
    ]
    assert [(f.hand, f.play) for f in board.findings if f.code == "lead-too-high"] == leads_above_10


# -- Sedma ------------------------------------------------------------------------------------


@st.composite
def seven_doubles(draw: st.DrawFn) -> tuple[list[int], Match]:
    order = draw(st.permutations(range(7)))
    setters = draw(st.lists(st.sampled_from(["P1", "P2", "P3", "P4"]), min_size=7, max_size=7))
    plays = tuple(Play(player, tile=(d, d)) for player, d in zip(setters, order, strict=True))
    hand = Hand(plays=plays, opener=plays[0].player, end=HandEnd("all-doubles"))
    return list(order), Match("sedma", ("P1", "P2", "P3", "P4"), hands=(hand,))


@given(seven_doubles())
def test_a_sedma_hand_with_every_double_set_once_scores_at_most_28(
    drawn: tuple[list[int], Match],
) -> None:
    order, match = drawn

    points = sum(score_match(match).hands[0].points.values())

    assert points <= 28
    # 7 for the doubles themselves, 6 for 0-0 against each other double (whichever comes
    # first, one of the pair counts it), and 1 for every other pair set lighter first
    lighter_first = sum(
        1 for i, earlier in enumerate(order) for later in order[i + 1 :] if 0 < earlier < later
    )
    assert points == 7 + 6 + lighter_first


# -- the match file ---------------------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MATCH)
def test_writing_then_reading_a_match_gives_it_back_exactly(match: Match) -> None:
    assert read_match(dumps_match(match)) == match


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=10)
    | st.sampled_from(["Ana", "Bo", "domino", "blocked", "4-4", "straight", *GAMES]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)

FIELD_NAMES = sorted(
    {
        *("format", "game", "rules", "players", "partnerships", "hands"),
        *("leader", "plays", "end", "claimed", "double", "starter", "opener", "passed_opening"),
        *("how", "player", "pips", "double_blank", "points", "tile", "lead"),
        *("target", "spinner", "set", "round_each_hand", "subtract_own"),
    }
)
MATCH_SHAPED = st.recursive(
    JSON,
    lambda children: (
        st.dictionaries(st.sampled_from(FIELD_NAMES), children, max_size=5)
        | st.lists(children, max_size=3)
    ),
    max_leaves=30,
)


def read_or_refuse(text: str) -> None:
    """Reading either gives a match that can be scored or refuses it with a MatchFileError."""
    try:
        match = read_match(text)
    except MatchFileError as error:
        # the path may be "" only for a key that is itself "", so only its type is checked
        assert isinstance(error.path, str)
        assert error.code and error.reason
        return
    score_match(match)


@given(JSON | MATCH_SHAPED)
def test_the_reader_answers_any_json_garbage_with_a_match_or_a_match_file_error(data: Any) -> None:
    read_or_refuse(json.dumps(data))


@given(st.text(max_size=40) | st.binary(max_size=40))
def test_the_reader_answers_any_text_garbage_with_a_match_or_a_match_file_error(
    text: str | bytes,
) -> None:
    try:
        read_match(text)
    except MatchFileError:
        pass


def places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in decoded JSON that holds a value, as a path of keys and indexes."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += places(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += places(value, (*path, index))
    return found


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    if isinstance(data, dict):
        return {**data, head: replaced(data[head], tuple(rest), value)}
    return [
        replaced(item, tuple(rest), value) if i == head else item for i, item in enumerate(data)
    ]


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MATCH, st.data())
def test_garbage_inside_a_good_match_gives_a_match_or_a_match_file_error(
    match: Match, data: st.DataObject
) -> None:
    good = write_match(match)
    path = data.draw(st.sampled_from(places(good)))
    garbage = data.draw(JSON | MATCH_SHAPED | st.sampled_from([-1, 0, 1.5, True, "Zed", [], {}]))

    read_or_refuse(json.dumps(replaced(good, path, garbage)))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MATCH, st.data())
def test_an_extra_field_anywhere_in_a_good_match_never_crashes_the_reader(
    match: Match, data: st.DataObject
) -> None:
    good = write_match(match)
    objects = [path for path in places(good) if isinstance(_at(good, path), dict)]
    path = data.draw(st.sampled_from(objects))
    target = _at(good, path)
    key = data.draw(st.sampled_from(FIELD_NAMES).filter(lambda name: name not in target))
    value = data.draw(JSON)

    read_or_refuse(json.dumps(replaced(good, path, {**target, key: value})))


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data
