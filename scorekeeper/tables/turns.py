"""Seats handed over mid-match (a league night's *Leaving early*): who sat in each seat, from
which hand and from which change, so that what was entered stays under the player who made it.

A seat's ``Seat`` row is the player in it now, from ``Seat.from_hand``; those before them are
its ``SeatTurn`` rows. A match whose seats were never handed over has no turns, and reading
its turns reads nothing more than its seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils.translation import gettext

from scorekeeper.tables import seams
from scorekeeper.tables.models import Change, Match, Player, Seat, SeatTurn
from scorekeeper.tables.recording import Author


@dataclass(frozen=True)
class Turn:
    """Someone's time in a seat: from hand ``from_hand``, and from change ``from_change`` (0:
    from the start)."""

    name: str
    from_hand: int
    from_change: int
    #: the player's id: a change keeps who left a seat by it
    player_id: int
    #: the name as public pages show it (Player.shown_name: initials where the player asked)
    shown: str = ""


#: each handed-over seat (by position) with its turns in order, the player in it now last
Turns = Mapping[int, list[Turn]]


def seat_turns(match: Match) -> dict[int, list[Turn]]:
    """The turns of ``match``'s handed-over seats; {} when none was (fetch the seats with the
    match: ``with_seats``). Only a match with a seat handed over reads its earlier turns."""
    seats = [seat for seat in match.seats.all() if seat.from_change]
    if not seats:
        return {}
    earlier = SeatTurn.objects.filter(match=match).select_related("player")
    return turns_of(seats, earlier)


def turns_of(seats: Iterable[Seat], earlier: Iterable[SeatTurn]) -> dict[int, list[Turn]]:
    """The turns by seat, from the handed-over ``seats`` and the ``earlier`` turns of theirs."""
    turns: dict[int, list[Turn]] = {}
    for turn in sorted(earlier, key=lambda turn: (turn.position, turn.from_change)):
        turns.setdefault(turn.position, []).append(
            Turn(
                turn.player.name,
                turn.from_hand,
                turn.from_change,
                turn.player_id,
                turn.player.shown_name,
            )
        )
    for seat in seats:
        turns.setdefault(seat.position, []).append(
            Turn(
                seat.player.name,
                seat.from_hand,
                seat.from_change,
                seat.player_id,
                seat.player.shown_name,
            )
        )
    return turns


#: the shared matches a player's page lists at most
MOST_SHARED_SHOWN = 15


def shared_a_seat() -> Q:
    """Whether a player (the row of a Player query) left a seat to someone or took one over,
    asked within that query: ``Player.objects.annotate(shared=shared_a_seat())``."""
    left = Exists(SeatTurn.objects.filter(player=OuterRef("pk")))
    took = Exists(Seat.objects.filter(player=OuterRef("pk"), from_change__gt=0))
    return left | took


def matches_shared(player: Player) -> list[tuple[Match, str]]:
    """The newest matches in which ``player`` left a seat to someone or took one over, finished
    or not, each with how their seat was shared (three queries)."""
    earlier = Prefetch("seat_turns", SeatTurn.objects.select_related("player"))
    seats = Prefetch("seats", Seat.objects.select_related("player"))
    found = (
        Match.objects.filter(
            Q(seat_turns__player=player) | Q(seats__player=player, seats__from_change__gt=0)
        )
        .distinct()
        .order_by("-updated_at", "-pk")
        .prefetch_related(seats, earlier)[:MOST_SHARED_SHOWN]
    )
    shared = []
    for match in found:
        handed_over = [seat for seat in match.seats.all() if seat.from_change]
        turns = turns_of(handed_over, match.seat_turns.all())
        said = [
            turns_said(in_seat, match.game)
            for _, in_seat in sorted(turns.items())
            if any(turn.name == player.name for turn in in_seat)
        ]
        shared.append((match, "; ".join(said)))
    return shared


def names_by_id(turns: Turns) -> dict[int, str]:
    """The name, as it is now, of everyone who sat in a handed-over seat, by id: a change that
    keeps a player by id (a seat taken: who left) is said with it. Read with the turns, no
    query of its own."""
    return {turn.player_id: turn.name for in_seat in turns.values() for turn in in_seat}


def shown_names(match: Match, turns: Turns) -> dict[str, str]:
    """Each name of the match's players, those in its seats now and those who sat there
    before, with the name public pages show (initials where the player asked): read with the
    seats and turns, no query of its own (fetch the seats ``with_seats``)."""
    shown = {seat.player.name: seat.player.shown_name for seat in match.seats.all()}
    shown.update(
        {turn.name: turn.shown or turn.name for in_seat in turns.values() for turn in in_seat}
    )
    return shown


def said_as(names: tuple[str, ...], shown: Mapping[str, str]) -> tuple[str, ...]:
    """``names`` as public pages show them (``shown_names``)."""
    return tuple(shown.get(name, name) for name in names)


def names_at_hand(players: tuple[str, ...], turns: Turns, hand: int) -> tuple[str, ...]:
    """Who sat in each seat for hand ``hand``: a hand belongs to whoever sat in the seat from
    it on (a hand under way at a handover to the one who took the seat)."""
    return _names(players, turns, lambda turn: turn.from_hand <= hand)


def names_at_change(players: tuple[str, ...], turns: Turns, number: int) -> tuple[str, ...]:
    """Who sat in each seat when change ``number`` was made."""
    return _names(players, turns, lambda turn: turn.from_change <= number)


def _names(players: tuple[str, ...], turns: Turns, seated_by) -> tuple[str, ...]:
    names = list(players)
    for position, in_seat in turns.items():
        if position < len(names):
            sat = [turn for turn in in_seat if seated_by(turn)] or in_seat[:1]
            names[position] = sat[-1].name
    # a player back in another seat later: the names as they are now, which the engine can read
    return tuple(names) if len(set(names)) == len(names) else players


def turns_said(in_seat: list[Turn], game: str) -> str:
    """How a seat was shared: "Bo, rounds 1-2; Di from round 3" (hands in Straight and
    Sedma), named as public pages name the players (initials where asked). Someone who left
    before playing a hand is left out."""
    rounds = game == "chickenfoot"
    parts = []
    for turn, after in zip(in_seat, in_seat[1:], strict=False):
        last = after.from_hand - 1
        if last < turn.from_hand:
            continue
        if last == turn.from_hand:
            template = (
                gettext("%(player)s, round %(first)s")
                if rounds
                else gettext("%(player)s, hand %(first)s")
            )
        else:
            template = (
                gettext("%(player)s, rounds %(first)s-%(last)s")
                if rounds
                else gettext("%(player)s, hands %(first)s-%(last)s")
            )
        parts.append(
            template % {"player": turn.shown or turn.name, "first": turn.from_hand, "last": last}
        )
    now = in_seat[-1]
    template = (
        gettext("%(player)s from round %(first)s")
        if rounds
        else gettext("%(player)s from hand %(first)s")
    )
    parts.append(template % {"player": now.shown or now.name, "first": now.from_hand})
    return "; ".join(parts)


def shared_seats_said(turns: Turns, game: str) -> list[str]:
    """Each handed-over seat, in playing order, said as ``turns_said`` says it."""
    return [turns_said(turns[position], game) for position in sorted(turns)]


def seat_hand_over(*, match: Match, seat: Seat, player: Player, by: Author) -> Change:
    """``player`` takes ``seat`` and plays on in the match as it stands: the one leaving keeps
    the hands played and the changes made so far (a ``SeatTurn``), the newcomer has the seat
    from the hand under way (or the next), and the history says so. Call inside a transaction
    holding ``match``'s row locked, as every entry does: its changes are numbered in turn."""
    last = match.hands.order_by("-number").values_list("number", "end_how").first()
    from_hand = 1 if last is None else last[0] + (1 if last[1] else 0)
    number = match.version + 1
    SeatTurn.objects.create(
        match=match,
        position=seat.position,
        player_id=seat.player_id,
        from_hand=seat.from_hand,
        from_change=seat.from_change,
    )
    left = seat.player_id
    seat.player, seat.from_hand, seat.from_change = player, from_hand, number
    seat.save(update_fields=["player", "from_hand", "from_change"])
    # the boards, the history and the season's standings show who plays on, at once
    match.version = number
    match.save(update_fields=["version", "updated_at"])
    seams.result_moved(match)
    return Change.objects.create(
        match=match,
        number=number,
        kind=Change.Kind.SEAT_TAKEN,
        params={"seat": seat.position, "left": left},
        made_by=by.name[:80],
        maker=by.maker,
        user=by.user,
        phone=by.phone,
        from_hand=match.hand_count + 1,
    )
