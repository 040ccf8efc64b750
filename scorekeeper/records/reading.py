"""A player's record across every club, as "My record" and its download show it: the matches
that count (leagues/results.py: counted), grouped by the club of their league, the kept
standings of each season the player has a row in (leagues/kept.py: standings_read) and the
kept ratings (leagues/models.py: Rating)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import Rating, Season, StandingRow
from scorekeeper.leagues.results import counted, sides_of, with_seats
from scorekeeper.leagues.standings import Standing
from scorekeeper.rules.match import Side
from scorekeeper.tables.i18n import game_name
from scorekeeper.tables.models import Match, Player


@dataclass(frozen=True)
class MatchRow:
    match: Match
    sides: list[str]
    totals: list[int]
    #: the player's side, by its place in ``sides`` (None: they left their seat)
    side: int | None
    won: bool

    @property
    def scored(self) -> list[tuple[str, int]]:
        """Each side with its total."""
        return list(zip(self.sides, self.totals, strict=True))


@dataclass
class ClubRecord:
    """What the player did in one club (``club`` None: matches of no league)."""

    club: object | None
    standings: list[tuple[Season, Standing]] = field(default_factory=list)
    matches: list[MatchRow] = field(default_factory=list)


@dataclass
class Record:
    player: Player
    clubs: list[ClubRecord]
    ratings: list[Rating]


def _match_row(match: Match, player: Player) -> MatchRow:
    sides = sides_of(match)
    side = next((i for i, players in enumerate(sides) if player.name in players), None)
    # the others as public pages name them; the player by their own name
    shown = {seat.player.name: seat.player.shown_name for seat in match.seats.all()}
    shown[player.name] = player.name
    totals = [int(total) for total in match.totals] + [0] * len(sides)
    return MatchRow(
        match=match,
        sides=[Side(tuple(shown.get(p, p) for p in players)).label for players in sides],
        totals=totals[: len(sides)],
        side=side,
        won=side is not None and match.finished and side in match.winners,
    )


def record_read(player: Player) -> Record:
    """The player's record, each club's part together: its seasons' standings rows (each
    season's table read as its page reads it) and its matches, newest first."""
    played = Q(seats__player=player) | Q(seat_turns__player=player)
    matches = with_seats(
        counted(Match.objects.filter(played).distinct()).select_related(
            "league_entry__season__league__club"
        )
    ).order_by("-created_at", "-pk")
    clubs: dict[int | None, ClubRecord] = {}
    for match in matches:
        entry = getattr(match, "league_entry", None)
        club = entry.season.league.club if entry is not None else None
        kept = clubs.setdefault(club.pk if club else None, ClubRecord(club))
        kept.matches.append(_match_row(match, player))
    seasons = Season.objects.filter(
        pk__in=StandingRow.objects.filter(player=player).values("season_id")
    ).select_related("league__club")
    for season in seasons.order_by("league__club__name", "league__name", "-starts_on"):
        club = season.league.club
        row = next(
            (
                row
                for row in standings_read(season, season.league.ranking_rule)
                if row.player_id == player.pk
            ),
            None,
        )
        if row is not None:
            clubs.setdefault(club.pk, ClubRecord(club)).standings.append((season, row))
    ordered = sorted(
        clubs.values(), key=lambda kept: (kept.club is None, str(kept.club or "").casefold())
    )
    ratings = list(Rating.objects.filter(player=player).order_by("game"))
    return Record(player, ordered, ratings)


def record_data(player: Player) -> dict:
    """The player's own data, as their download holds it (JSON)."""
    record = record_read(player)
    matches = []
    standings = []
    for kept in record.clubs:
        club = str(kept.club) if kept.club is not None else None
        for row in kept.matches:
            match = row.match
            entry = getattr(match, "league_entry", None)
            matches.append(
                {
                    "id": match.pk,
                    "date": (match.finished_at or match.created_at).isoformat(),
                    "game": match.game,
                    "game_name": str(game_name(match.game)),
                    "club": club,
                    "league": str(entry.season.league) if entry is not None else None,
                    "season": entry.season.name if entry is not None else None,
                    "sides": row.sides,
                    "totals": row.totals,
                    "finished": match.finished,
                    "side": row.side,
                    "won": row.won,
                }
            )
        for season, standing in kept.standings:
            standings.append(
                {
                    "club": club,
                    "league": str(season.league),
                    "season": season.name,
                    "rank": standing.rank,
                    "played": standing.played,
                    "won": standing.won,
                    "lost": standing.lost,
                    "forfeits": standing.forfeits,
                    "points_for": standing.points_for,
                    "points_against": standing.points_against,
                }
            )
    return {
        "name": player.name,
        "public_name": player.shown_name,
        "matches": matches,
        "standings": standings,
        "ratings": [
            {
                "game": rating.game,
                "rating": rating.shown,
                "played": rating.played,
                "mu": rating.mu,
                "sigma": rating.sigma,
            }
            for rating in record.ratings
        ],
    }
