"""What the scoreboard page shows, worked out once for the page and its htmx partial."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext

from scorekeeper import rules
from scorekeeper.rules.keys import side_key
from scorekeeper.rules.scoreboard import LAST_HAND
from scorekeeper.rules.text import Says, join_names
from scorekeeper.rules.tiles import tile_name
from scorekeeper.tables.forms.chickenfoot import RoundForm
from scorekeeper.tables.forms.sedma import SedmaEndForm, TileForm
from scorekeeper.tables.forms.straight import PLAY_POINTS, HandEndForm, PlayForm
from scorekeeper.tables.i18n import (
    HAND_DOMINOED,
    HAND_ENDED,
    PIPS_LEFT,
    ROUND_OUT,
    game_name,
    how_said,
    rule_said,
    say,
)
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.recording import Outcome
from scorekeeper.tables.scoring import match_value
from scorekeeper.tables.seats import seat_names
from scorekeeper.tables.steps import last_entry
from scorekeeper.tables.turns import (
    names_at_hand,
    said_as,
    seat_turns,
    shared_seats_said,
    shown_names,
)


@dataclass
class SideRow:
    #: the side said by its players' names, "Ana & Cy"
    name: str
    total: int
    percent: int
    leading: bool
    #: who scores for the side, by name in seating order (a phone adds its pending plays)
    players: tuple[str, ...] = ()
    #: their seats, as the entry forms post them and the engine knows them
    seats: tuple[str, ...] = ()


@dataclass
class HandRow:
    number: int
    #: (points in the hand, running total) for each side
    cells: list[tuple[int, int]]
    explanation: list[str]
    #: the hand's first findings, and how many more it has (a list on a page stays bounded)
    findings: list[rules.Finding]
    #: who sat in each seat for this hand (a seat handed over later keeps its player's hands)
    names: dict[str, str]
    more_findings: int
    finished: bool
    overridden: bool
    entries: list[str]


def board_context(
    match: Match,
    *,
    forms: dict | None = None,
    outcome: Outcome | None = None,
    open_panel: str = "",
    value: rules.Match | None = None,
    board: rules.Scoreboard | None = None,
    change: Change | None = None,
    newest_hand_only: bool = False,
) -> dict:
    """What the board shows. ``value`` and ``board``, when given, are the engine's view and
    score of ``match`` as stored, and ``change`` its newest change (a saved entry brings them
    along); else ``match`` is to be fetched `with_everything`. ``newest_hand_only``: of the
    hands, the one being played alone (an answer that shows no other)."""
    context = live_board_context(
        match, value=value, board=board, change=change, newest_hand_only=newest_hand_only
    )
    value, board, names = context["seating"], context["board"], context["names"]
    game = match.game
    seat_names = list(names.values())
    forms = dict(forms or {})
    context.update(
        {
            "value": value,
            "outcome": outcome,
            "open_panel": open_panel,
            "house_rules": _house_rules(value),
            "points_choices": _points_choices(value),
        }
    )
    if outcome is not None and not outcome.saved and outcome.board.hands:
        shown = outcome.board.hands[-1]
        context["preview"] = {
            "number": shown.number,
            "points": [
                (side.said_with(names), shown.points[side], shown.running[side])
                for side in outcome.board.sides
            ],
            "explanation": said(shown.explanation, names),
        }
    context["shared_seats"] = shared_seats_said(context["turns"], game)
    context["undo_says"] = _undo_says(value, names)
    if outcome is not None and outcome.echo is not None:
        # a name the phone gave, or none ("a phone at the table" is no one to name)
        context["echo_by"] = outcome.echo.made_by
        context["echo_by_starter"] = not context["echo_by"] and _by_the_starter(outcome.echo)
    if game == "straight":
        leading = not _current_plays(value, board)
        # the lead is the leader's first tile: offered for the hand's first play only
        context["lead_by"] = (board.next.leader or "") if leading and board.next else None
        context["play_form"] = forms.get("play") or PlayForm(
            value,
            initial={"player": _default_scorer(value, board), "lead": leading},
            names=seat_names,
        )
        context["end_form"] = forms.get("end") or HandEndForm(value, names=seat_names)
    elif game == "chickenfoot":
        context["round_form"] = forms.get("round") or RoundForm(value, names=seat_names)
        context["double_blank_value"] = value.rule("double_blank")
    else:
        context["tile_form"] = forms.get("tile") or TileForm(
            value, initial={"player": _default_layer(value, board)}, names=seat_names
        )
        context["sedma_end_form"] = forms.get("end") or SedmaEndForm(value, names=seat_names)
        context["doubles"] = _doubles(value, board)
        context["current_line"] = _current_line(value, board)
        # a tile that is not a double is recorded only from the whole line's box
        context["line_open"] = any(
            play.tile is not None and not play.is_double for play in _current_plays(value, board)
        )
    return context


def live_board_context(
    match: Match,
    *,
    value: rules.Match | None = None,
    board: rules.Scoreboard | None = None,
    change: Change | None = None,
    newest_hand_only: bool = False,
) -> dict:
    """What the board's live parts show (``live_context``), which a poll after a change draws:
    no entry forms. ``value``, ``board`` and ``change`` as ``board_context`` takes them;
    ``newest_hand_only``: of the hands, the one being played alone (a play added to it)."""
    if value is None:
        value = match_value(match)
        # the page shows the match as stored; an unsaved entry's result appears beside its form
        board = rules.score_match(value)
    if change is None:
        change = match.changes.select_related("reverts").order_by("-number").first()
    assert board is not None  # given with the value, or scored above
    return live_context(
        match, value, board, latest_change=change, newest_hand_only=newest_hand_only
    )


def _marked(board: rules.Scoreboard, side: rules.Side, best: int) -> bool:
    """Whether the board marks ``side``'s total: the winners' once the match is won (points
    kept after the end, a target reached after a match was decided at time, can put a loser's
    total ahead), else the best total so far."""
    if board.winner is None:
        return len(board.hands) > 0 and board.totals[side] == best
    winners = board.winner if isinstance(board.winner, list) else [board.winner]
    return side in winners


def live_context(
    match: Match,
    value: rules.Match,
    board: rules.Scoreboard,
    *,
    latest_change: Change | None,
    newest_hand_only: bool = False,
) -> dict:
    """What changes with every entry: the totals, what comes next, the last change and the
    hands (``newest_hand_only``: the newest alone). A stored entry the rules call an error was
    kept on purpose: its hand is marked. The engine knows the players by seat (``value``); each
    is said here by the name of who sits there now, or sat there for the hand shown."""
    game = match.game
    seated = match.seating()
    # said as the public pages name them (initials where the player asked)
    names = seat_names(match.shown_players())
    target = int(value.rule("target")) if game != "chickenfoot" else None
    totals = board.totals
    best = (min if board.lowest_wins else max)(totals.values()) if totals else 0
    sides = [
        SideRow(
            name=side.said_with(names),
            total=totals[side],
            percent=min(100, round(100 * totals[side] / target)) if target else 0,
            leading=_marked(board, side, best),
            players=tuple(names[seat] for seat in value.players_of(side)),
            seats=tuple(value.players_of(side)),
        )
        for side in board.sides
    ]
    kept = {found.hand for found in board.errors}
    findings: dict[int | None, list[rules.Finding]] = {}
    for found in board.findings:
        findings.setdefault(found.hand, []).append(found)
    turns = seat_turns(match)
    shown = shown_names(match, turns) if turns else {}
    hands = []
    for hand in board.hands[-1:] if newest_hand_only else board.hands:
        # a hand played before a seat was handed over is said with who played it then
        hands.append(
            _hand_row(
                board,
                hand,
                value.hands[hand.number - 1],
                hand.number in kept,
                findings.get(hand.number, []),
                seat_names(said_as(names_at_hand(seated.players, turns, hand.number), shown))
                if turns
                else names,
            )
        )
    return {
        "match": match,
        "game": game,
        "game_name": game_name(game),
        "board": board,
        "sides": sides,
        "target": target,
        "hands": list(reversed(hands)),
        "next_up": board.next,
        "winners": [side.said_with(names) for side in _winners(board)],
        "winner_says": _winner_says(board, names),
        "hand_word": hand_word(game),
        # drawn anew with every board: the same tap sent twice carries the same key
        "entry_key": uuid.uuid4().hex,
        "latest_change": latest_change,
        "seating": value,
        "names": names,
        #: the seats by name, as the history's sentences say who did what
        "seated": seated,
        "seat_names": list(enumerate(names.values())),
        "turns": turns,
    }


def hand_word(game: str) -> str:
    """The heading of the hands' column: Chickenfoot players call a hand a round."""
    if game == "chickenfoot":
        return pgettext("heading of the column of rounds", "Round")
    return pgettext("heading of the column of hands", "Hand")


def hand_said(hand: rules.Hand, number: int, game: str, names: Mapping[str, str]) -> str:
    """A hand as the board lists it: its entries, how it ended and the pips left in each hand
    ("Round 2: Bo went out; pips left: Ana 12, Cy 3, Di 20 + 0-0"). A Chickenfoot round has no
    plays: it is who went out and the pips. ``names``: who sat in each seat for the hand."""
    end = hand.end
    if game == "chickenfoot" and end is not None:
        out = (
            gettext(ROUND_OUT) % {"player": names[end.player]} if end.player else how_said(end.how)
        )
        return f"{hand_word(game)} {number}: {out}{_pips_said(end, names)}"
    entries = [_entry_said(play, names) for play in hand.plays]
    words = f"{hand_word(game)} {number}: {', '.join(entries) or '—'}"
    if end is None:
        return words
    if end.how == "domino" and end.player:
        ended = gettext(HAND_DOMINOED) % {"player": names[end.player]}
    else:
        ended = gettext(HAND_ENDED) % {"how": how_said(end.how)}
    return f"{words}. {ended}{_pips_said(end, names)}"


def _pips_said(end: rules.HandEnd, names: Mapping[str, str]) -> str:
    """What each hand held ("; pips left: Ana 12, Di 5 + 0-0"); nothing where no pips were
    counted (Sedma)."""
    if not end.pips and not end.double_blank:
        return ""
    held = [
        f"{side_key(key, names)} {pips}{' + 0-0' if key in end.double_blank else ''}"
        for key, pips in end.pips.items()
    ]
    held += [f"{names[seat]} 0-0" for seat in end.double_blank if seat not in end.pips]
    return "; " + gettext(PIPS_LEFT) % {"pips": ", ".join(held)}


def said(lines: list[Says], names: Mapping[str, str]) -> list[str]:
    """The engine's sentences in the reader's language, with the players' names, leaving out
    any that say nothing."""
    return [text for text in (say(line, names) for line in lines) if text]


def _entry_said(play: rules.Play, names: Mapping[str, str]) -> str:
    """A play as the hand's entries show it: the player and their points, or the tile laid."""
    if play.points is not None:
        return f"{names[play.player]} {play.points}"
    assert play.tile is not None  # a play without points lays a tile
    return f"{names[play.player]} {tile_name(play.tile)}"


def _winners(board: rules.Scoreboard) -> list[rules.Side]:
    if board.winner is None:
        return []
    return board.winner if isinstance(board.winner, list) else [board.winner]


def _winner_says(board: rules.Scoreboard, names: Mapping[str, str]) -> str:
    winners = _winners(board)
    if len(winners) > 1:
        return gettext("%(names)s share the win.") % {"names": say(join_names(winners), names)}
    if winners:
        if winners[0].is_partnership:
            return gettext("%(side)s win the match.") % {"side": winners[0].said_with(names)}
        return gettext("%(player)s wins the match.") % {"player": winners[0].said_with(names)}
    return ""


#: the findings listed under a hand; the rest are counted
MOST_FINDINGS_SHOWN = 10


def _hand_row(
    board: rules.Scoreboard,
    hand: rules.HandScore,
    entered: rules.Hand,
    overridden: bool,
    findings: list[rules.Finding],
    names: dict[str, str],
) -> HandRow:
    return HandRow(
        number=hand.number,
        cells=[(hand.points[side], hand.running[side]) for side in board.sides],
        explanation=said(hand.explanation, names),
        findings=findings[:MOST_FINDINGS_SHOWN],
        names=names,
        more_findings=max(0, len(findings) - MOST_FINDINGS_SHOWN),
        finished=hand.finished,
        overridden=overridden,
        entries=[_entry_said(play, names) for play in entered.plays],
    )


def _house_rules(value: rules.Match) -> list[str]:
    words = []
    for name, setting in value.rules.items():
        if name in ("target", LAST_HAND):
            # the board says "Playing to ..." already; a last hand at time is said by the
            # round's clock over the board and by the hand's explanation
            continue
        words.append(rule_said(name, setting))
    return words


def _points_choices(value: rules.Match) -> list[int]:
    if value.game != "straight":
        return []
    highest = 35 if value.rule("spinner") else 20
    return [points for points in PLAY_POINTS if points <= highest]


def _default_scorer(value: rules.Match, board: rules.Scoreboard) -> str | None:
    """The hand's leader is picked for its first play (the lead); after a play nobody is: the
    next score is usually someone else's, and a tap on the points alone must not land on the
    last scorer. The seat, as the form posts it."""
    if value.hands and value.hands[-1].end is None and value.hands[-1].plays:
        return None
    return board.next.leader if board.next else None


def _default_layer(value: rules.Match, board: rules.Scoreboard) -> str | None:
    """Preselect who lays next: the opener for the first double, else the player to the left
    of the last one (the turn moves to the left; one tap picks another player)."""
    plays = _current_plays(value, board)
    if not plays:
        return board.next.opener if board.next else None
    return value.left_of(plays[-1].player)


def _undo_says(value: rules.Match, names: Mapping[str, str]) -> str:
    """What Undo takes back (entries.last_entry): "Dale 15", "Ana 4-4", "end of hand 3" ..."""
    kind, play = last_entry(value)
    number = {"number": len(value.hands)}
    if play is not None:
        return _entry_said(play, names)
    said = {
        "round": gettext("round %(number)s"),
        "end": gettext("end of hand %(number)s"),
        "hand": gettext("hand %(number)s"),
    }
    return said[kind] % number if kind else ""


def _by_the_starter(change: Change) -> bool:
    """Whether a change came from the phone that started its match: a phone that started a
    match without an account gave no name, and is known by that (the first change keeps the
    phone that made it, as every change does)."""
    if not change.phone:
        return False
    first = Change.objects.filter(match_id=change.match_id, number=1).values_list("phone")
    return first.first() == (change.phone,)


def _current_plays(value: rules.Match, board: rules.Scoreboard) -> tuple[rules.Play, ...]:
    if value.hands and value.hands[-1].end is None and len(board.hands) == len(value.hands):
        return value.hands[-1].plays
    return ()


def _doubles(value: rules.Match, board: rules.Scoreboard) -> list[dict]:
    """The seven Sedma doubles, each with whether it is already down in this hand."""
    plays = _current_plays(value, board)
    down = {play.tile[0] for play in plays if play.tile is not None and play.is_double}
    return [{"value": d, "tile": f"{d}-{d}", "down": d in down} for d in range(7)]


def _current_line(value: rules.Match, board: rules.Scoreboard) -> list[str]:
    return [
        f"{play.tile[0]}-{play.tile[1]}"
        for play in _current_plays(value, board)
        if play.tile is not None
    ]
