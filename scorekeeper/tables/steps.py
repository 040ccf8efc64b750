"""What an entry does to the match, worked out without writing anything: a Step for a Straight
play, a Sedma tile, the end of a hand and an undo, as the services keep them (entries.py) and a
phone's entries not yet sent are worked out (outbox.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from scorekeeper import rules
from scorekeeper.rules.sedma import DOUBLES as SEDMA_DOUBLES
from scorekeeper.rules.sedma import TILES_EACH as SEDMA_TILES_EACH
from scorekeeper.rules.sedma import due_to_open
from scorekeeper.rules.tiles import parse_tile

#: What an entry does to the match (players by name): the match after it.
Step = Callable[[rules.Match], rules.Match]


def last_entry(value: rules.Match) -> tuple[str, rules.Play | None]:
    """What ``undo_last`` takes back: a Chickenfoot "round" (entered whole), the "end" of the
    last hand, its last "play" (the hand goes with its only one), or an empty "hand" after the
    first; "" when there is nothing (a first hand with nothing in it is how the match started)."""
    if not value.hands:
        return "", None
    last = value.hands[-1]
    if value.game == "chickenfoot":
        return "round", None
    if last.end is not None:
        return "end", None
    if last.plays:
        return "play", last.plays[-1]
    if len(value.hands) == 1:
        # the first hand's leader or opener chosen as the match started: the start is no entry
        return "", None
    return "hand", None


def _playing(value: rules.Match) -> tuple[tuple[rules.Hand, ...], rules.Hand]:
    """The hands before the one being played, and that one, started now when there is none.
    A new hand names no leader or opener: the engine knows who leads or opens it from the hands
    before."""
    if value.hands and value.hands[-1].end is None:
        return value.hands[:-1], value.hands[-1]
    return value.hands, rules.Hand()


def _opened(before: rules.Match, playing: rules.Hand, player: str) -> rules.Hand:
    """A Sedma hand's first double, laid by ``player``, opens it; those who had the turn to
    open before ``player`` passed (``opened_out_of_turn`` asks the table at once). ``before``:
    the match with the hands before this one."""
    if playing.plays:
        return playing
    scheduled = playing.opener or due_to_open(before) or player
    passed: list[str] = []
    while scheduled != player and len(passed) < len(before.players):
        passed.append(scheduled)
        scheduled = before.left_of(scheduled)
    opened = tuple(passed) if scheduled == player else ()
    return replace(playing, opener=player, passed_opening=opened)


def _sedma_over(hand: rules.Hand, player: str) -> rules.Hand:
    """A Sedma hand is over once all seven doubles are down, or a player has laid seven tiles."""
    doubles = {play.tile for play in hand.plays if play.is_double}
    if len(doubles) == SEDMA_DOUBLES:
        return replace(hand, end=rules.HandEnd("all-doubles"))
    if (
        any(not play.is_double for play in hand.plays)
        and sum(1 for play in hand.plays if play.player == player) == SEDMA_TILES_EACH
    ):
        return replace(hand, end=rules.HandEnd("domino", player=player))
    return hand


def _with_play(hand: rules.Hand, play: rules.Play) -> rules.Hand:
    return replace(hand, plays=(*hand.plays, play))


def play_step(player: str, points: int, lead: bool = False) -> Step:
    """Straight: a scoring play (``lead``: the leader's first tile)."""

    def step(value: rules.Match) -> rules.Match:
        hands, playing = _playing(value)
        if lead and not hands and not playing.plays and playing.leader is None:
            # the first hand's leader was left to the table: the lead says who it was
            playing = replace(playing, leader=player)
        playing = _with_play(playing, rules.Play(player, points=points, lead=lead))
        return value.with_hands((*hands, playing))

    return step


def tile_step(player: str, tile: str) -> Step:
    """Sedma: a tile laid (the first double of a hand opens it), and the hand over when it was
    the last one (``_sedma_over``)."""

    def step(value: rules.Match) -> rules.Match:
        hands, playing = _playing(value)
        playing = _opened(value.with_hands(hands), playing, player)
        playing = _with_play(playing, rules.Play(player, tile=parse_tile(tile)))
        return value.with_hands((*hands, _sedma_over(playing, player)))

    return step


def end_step(end: rules.HandEnd, starter: str | None = None) -> Step:
    """Straight and Sedma: the hand being played ends. Chickenfoot: a whole round."""

    def step(value: rules.Match) -> rules.Match:
        if value.game == "chickenfoot":
            return value.with_hands((*value.hands, rules.Hand(end=end, starter=starter)))
        hands, playing = _playing(value)
        return value.with_hands((*hands, replace(playing, end=end)))

    return step


def undo_step(value: rules.Match) -> rules.Match:
    """The match without its last entry (``last_entry``)."""
    kind, _ = last_entry(value)
    if not kind:
        return value
    *earlier, last = value.hands
    if kind == "end":
        return value.with_hands((*earlier, replace(last, end=None)))
    if kind == "play" and len(last.plays) > 1:
        return value.with_hands((*earlier, replace(last, plays=last.plays[:-1])))
    return value.with_hands(tuple(earlier))
