"""The one seam through which the apps above tables (leagues, nights) act on a match at a table:
what refuses its correction, what it learns before an entry, the rows it is read with when
locked, what its board shows of the season or night it belongs to, what moves with its
result or a player's name, and which live pages besides its own scoreboard show it.

tables imports neither leagues nor nights (docs/development.md, *Layers*): each of them plugs
its part in here once, from its ``AppConfig.ready()``, and tables calls the functions below.
Nothing plugged in (tables on its own), each answers as for a match that belongs to no league
and no night: no refusal, nothing learnt, no joins, nothing shown.

Each function runs the query its plugged part runs, and no other: the seam adds none."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.db.models import Q, QuerySet
from django.http import HttpRequest

if TYPE_CHECKING:
    from scorekeeper.tables.models import Match, Player


class CorrectionRefused(Protocol):
    def __call__(self, match: Match, *, organizer: bool) -> str: ...


class TimeCalled(Protocol):
    def __call__(self, match: Match, *, now: datetime) -> bool: ...


def _never_refused(match: Match, *, organizer: bool) -> str:
    return ""


def _nothing_learnt(match: Match, *, now: datetime) -> bool:
    return False


def _not_shown(match: Match) -> bool:
    return False


def _no_signing(request: HttpRequest, match: Match) -> dict[str, Any] | None:
    return None


def _no_clock(match_id: int, now: datetime) -> dict[str, Any]:
    return {}


def _no_tournament(match_id: int) -> bool:
    return False


def _nobody() -> Q:
    return Q(pk__in=())


def _nothing_moves(match: Match) -> None:
    return None


def _nobody_told(player: Player) -> None:
    return None


@dataclass
class _Plugged:
    """What is plugged in: the defaults until an app plugs its part."""

    correction_refused: CorrectionRefused = _never_refused
    time_called: TimeCalled = _nothing_learnt
    locked_match_joins: list[str] = field(default_factory=list)
    shown_on_boards: Callable[[Match], bool] = _not_shown
    signing_part: Callable[[HttpRequest, Match], dict[str, Any] | None] = _no_signing
    round_clock: Callable[[int, datetime], dict[str, Any]] = _no_clock
    is_tournament_match: Callable[[int], bool] = _no_tournament
    league_members: Callable[[], Q] = _nobody
    result_moved: Callable[[Match], None] = _nothing_moves
    player_renamed: Callable[[Player], None] = _nobody_told
    live_topics: list[Callable[[Match], list[str]]] = field(default_factory=list)


_plugged = _Plugged()


def plug(
    *,
    correction_refused: CorrectionRefused | None = None,
    time_called: TimeCalled | None = None,
    locked_match_joins: Iterable[str] = (),
    shown_on_boards: Callable[[Match], bool] | None = None,
    signing_part: Callable[[HttpRequest, Match], dict[str, Any] | None] | None = None,
    round_clock: Callable[[int, datetime], dict[str, Any]] | None = None,
    is_tournament_match: Callable[[int], bool] | None = None,
    league_members: Callable[[], Q] | None = None,
    result_moved: Callable[[Match], None] | None = None,
    player_renamed: Callable[[Player], None] | None = None,
    live_topics: Callable[[Match], list[str]] | None = None,
) -> None:
    """Plug a higher app's part in, from its ``AppConfig.ready()``: each part given replaces
    the default; ``locked_match_joins`` and ``live_topics`` are added to those plugged
    already."""
    if correction_refused is not None:
        _plugged.correction_refused = correction_refused
    if time_called is not None:
        _plugged.time_called = time_called
    for join in locked_match_joins:
        if join not in _plugged.locked_match_joins:
            _plugged.locked_match_joins.append(join)
    if shown_on_boards is not None:
        _plugged.shown_on_boards = shown_on_boards
    if signing_part is not None:
        _plugged.signing_part = signing_part
    if round_clock is not None:
        _plugged.round_clock = round_clock
    if is_tournament_match is not None:
        _plugged.is_tournament_match = is_tournament_match
    if league_members is not None:
        _plugged.league_members = league_members
    if result_moved is not None:
        _plugged.result_moved = result_moved
    if player_renamed is not None:
        _plugged.player_renamed = player_renamed
    if live_topics is not None and live_topics not in _plugged.live_topics:
        _plugged.live_topics.append(live_topics)


def correction_refused(match: Match, *, organizer: bool) -> str:
    """Why a correction of ``match`` is refused, or "" (nights: a league night's result that
    the other side signed or disputed is corrected by an organizer only)."""
    return _plugged.correction_refused(match, organizer=organizer)


def time_called(match: Match, *, now: datetime) -> bool:
    """What the locked match learns before an entry is scored (nights: its round's time is up,
    so the hand being played is its last). ``match``: read with_locked_match_joins(). Says
    whether it learnt anything."""
    return _plugged.time_called(match, now=now)


def with_locked_match_joins(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` joined to the rows the parts above read of a match locked for an entry, so
    that they ask no query of their own (leagues: its season entry; nights: its table's round
    and night)."""
    joins = _plugged.locked_match_joins
    # select_related() without a path would follow every foreign key
    return matches.select_related(*joins) if joins else matches


def shown_on_boards(match: Match) -> bool:
    """Whether the hall's boards show ``match``, read with_locked_match_joins() (leagues: a
    match in a season)."""
    return _plugged.shown_on_boards(match)


def signing_part(request: HttpRequest, match: Match) -> dict[str, Any] | None:
    """What the finished board shows about signing its result (nights: the question handed
    over, the sides' links, who signed); None when nobody is asked to sign."""
    return _plugged.signing_part(request, match)


def round_clock(match_id: int, now: datetime) -> dict[str, Any]:
    """The clock of the round a match is played in, for its board; empty for none (nights)."""
    return _plugged.round_clock(match_id, now)


def is_tournament_match(match_id: int) -> bool:
    """Whether the next round's pairing decides who a match's players play next, so that its
    board offers no Rematch (nights: a Swiss or round robin night's table)."""
    return _plugged.is_tournament_match(match_id)


def league_members() -> Q:
    """The players a phone is offered besides those of its own matches, as a condition on
    players (leagues: the leagues' members); by default, nobody."""
    return _plugged.league_members()


def result_moved(match: Match) -> None:
    """What moves with the match's result as it now stands, in the transaction of the change
    that moved it (leagues: the season's kept standings and version, the game's kept ratings:
    leagues/moves.py). Called once by every service of tables that can change what a match
    counts for: an entry or a correction that finishes a match or changes a finished one, a
    match stored whole, a seat handed over."""
    _plugged.result_moved(match)


def player_renamed(player: Player) -> None:
    """What follows a player's new name (leagues: the pages of their seasons are drawn
    again)."""
    _plugged.player_renamed(player)


def live_topics(match: Match) -> list[str]:
    """The live pages that show ``match`` (scorekeeper/live): its scoreboard, and those the
    apps above plug in (leagues: its season's wall board; nights: its night's board, desk and
    pairings), read from the rows it was locked with (with_locked_match_joins), else asked."""
    topics = [f"match:{match.pk}"]
    for plugged in _plugged.live_topics:
        topics.extend(plugged(match))
    return topics
