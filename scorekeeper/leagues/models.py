"""Leagues, their seasons, and which matches were played for them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club
from scorekeeper.leagues.standings import Ranking
from scorekeeper.tables.models import GAME_CHOICES, Match, Player


class League(models.Model):
    #: the club (a hall) whose organizers run the league (clubs/models.py)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    #: the house rules a league match starts with (only those that differ from the defaults)
    rules = models.JSONField(default=dict, blank=True)
    members = models.ManyToManyField(Player, related_name="leagues", blank=True)
    #: what orders the standings before the tie-breaks (leagues/standings.py: Ranking)
    ranking = models.CharField(
        max_length=8,
        choices=[
            ("wins", _("Most matches won")),
            ("points", _("Most points: 2 for a win, 1 for a shared win")),
            ("win %", _("Best win %")),
        ],
        default="wins",
        verbose_name=_("Ranking"),
    )
    #: with the win % ranking: players with fewer matches come after the others
    ranking_minimum = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("Matches played to be ranked by win %")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # two halls may each have their "Tuesday League"
            models.UniqueConstraint(fields=["club", "name"], name="one_league_name_per_club"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ranking_rule(self) -> Ranking:
        return Ranking(self.ranking, self.ranking_minimum if self.ranking == "win %" else 0)


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    #: one more with every change to the season's matches (leagues/moves.py), in the same
    #: transaction: the cached standings are keyed by it
    version = models.PositiveIntegerField(default=0, editable=False)
    #: how many of its matches count in its standings (finished or forfeited), kept with its
    #: standings rows (leagues/kept.py)
    counted_matches = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["league", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class SeasonMatch(models.Model):
    """A match played for a season; a forfeit names the side that gave it up."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="league_entry")
    #: index of the forfeiting side in the match's sides (seat order), or null
    forfeited_by = models.PositiveSmallIntegerField(null=True, blank=True)
    #: the result as the season's kept standings count it (leagues/kept.py), its sides by
    #: player id; null while it counts for nothing (being played)
    counted = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "created_at", "pk"]
        verbose_name_plural = "season matches"
        # the season's newest entry, found without reading the others (standings.py's key)
        indexes = [models.Index(fields=["season", "id"], name="season_entries_newest")]

    def __str__(self) -> str:
        return f"{self.match} in {self.season}"


class RatingChange(models.Model):
    """One player's rating change in one rated match (leagues/ratings.py), kept when the match
    finishes and worked out again from a match on when a finished match is corrected
    (leagues/kept_ratings.py). The ratings of a game are one sequence over every match that
    counts, in the order they finished."""

    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    #: the season the match was played for, if any (the ratings page filters by it)
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the ratings' order: when the match finished, then the match's id
    finished_at = models.DateTimeField()
    #: the player's n-th rated match in the game
    number = models.PositiveIntegerField()
    #: the player's side (seating order) and where it placed (1 best)
    side = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    #: the side's chance to win, as the model predicted before the match
    expected = models.FloatField()
    #: the player's part of the side's move
    share = models.FloatField()

    class Meta:
        ordering = ["finished_at", "match_id", "side", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_rating_change_a_match"),
        ]
        indexes = [
            models.Index(fields=["game", "finished_at", "match"], name="rating_changes_in_order"),
            models.Index(
                fields=["player", "game", "finished_at", "match"], name="rating_changes_of_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.match_id}"


class Rating(models.Model):
    """A player's rating in a game now: their last RatingChange's, kept with it."""

    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    #: the shown rating (leagues/ratings.py), kept to sort by in the database
    shown = models.IntegerField()
    #: rated matches played
    played = models.PositiveIntegerField()
    #: the shown rating's move in the player's last match
    last_delta = models.IntegerField(default=0)

    class Meta:
        ordering = ["game", "-shown"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_rating_a_game"),
        ]
        indexes = [models.Index(fields=["game", "-shown"], name="ratings_best_first")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.shown}"


class StandingRow(models.Model):
    """A player's line in a season's standings, kept in the transaction that changes a match
    of the season (leagues/kept.py): pages read these instead of working out the season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)
    shared_wins = models.PositiveIntegerField(default=0)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    total_sum = models.IntegerField(default=0)
    #: place -> how many times (Chickenfoot's placings), the places as strings (JSON's keys)
    placings = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_row_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.season_id}"


class HeadToHead(models.Model):
    """How many of a season's counted matches a player finished ahead of an opponent in: the
    standings' head-to-head tie-break, kept with the rows."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="head_to_heads")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player", "opponent"], name="head_to_head_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} over {self.opponent_id} in {self.season_id}"


class ExportBuild(models.Model):
    """One heavy export (a season's hands.csv, a league's bundle.zip) at one version of what it
    holds, built once by the worker (leagues/exports.py). One row per export and version
    (unique): however many ask for it at once, one of them starts its build; the file itself
    is under ``settings.EXPORTS_ROOT``, named by ``name`` and ``digest``."""

    class State(models.TextChoices):
        BUILDING = "building"
        READY = "ready"
        FAILED = "failed"

    #: the export, unique to its season or league: ``hands-12``, ``league-3``
    name = models.CharField(max_length=40)
    #: the version of what it holds and the release, as a digest (exports.Export.digest)
    digest = models.CharField(max_length=24)
    state = models.CharField(max_length=8, choices=State.choices, default=State.BUILDING)
    #: when its build was asked for (again, after one lost or failed)
    asked_at = models.DateTimeField()
    built_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name", "digest"], name="one_build_per_export_version")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.digest} ({self.state})"


class BundleImport(models.Model):
    """A league bundle being imported by the worker (leagues/imports.py): the page that shows
    its progress reads this row. The bundle itself waits under ``settings.BUNDLES_ROOT`` until
    it is imported or refused."""

    class State(models.TextChoices):
        QUEUED = "queued"
        READING = "reading"
        WRITING = "writing"
        DONE = "done"
        FAILED = "failed"

    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    #: the matches league.json lists, once read; and how many of them are read and checked
    matches = models.PositiveIntegerField(default=0)
    read = models.PositiveIntegerField(default=0)
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL)
    #: the club the league is imported into
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE)
    #: why it was refused, and the status the page answers with (413, 422)
    error = models.TextField(blank=True)
    status = models.PositiveSmallIntegerField(default=200)
    asked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"import {self.pk} ({self.state})"


# -- what tables is told of a league (tables/seams.py) -------------------------------------------

#: the join that reads a match's season entry with it
MATCH_SEASON_ENTRY = "league_entry"


def in_a_season(match: Match) -> bool:
    """Whether a season counts ``match`` (the hall's boards show only those), read with its
    season entry joined (``MATCH_SEASON_ENTRY``)."""
    return getattr(match, MATCH_SEASON_ENTRY, None) is not None


def season_topics(match: Match) -> list[str]:
    """The live page of the season ``match`` counts in (its wall board, scorekeeper/live): read
    from its season entry where it was joined (``MATCH_SEASON_ENTRY``), else asked."""
    cached = match._state.fields_cache
    if MATCH_SEASON_ENTRY in cached:
        entry = cached[MATCH_SEASON_ENTRY]
        season = entry.season_id if entry is not None else None
    else:
        season = (
            SeasonMatch.objects.filter(match_id=match.pk)
            .values_list("season_id", flat=True)
            .first()
        )
    return [f"season:{season}"] if season is not None else []


def league_members() -> models.Q:
    """The players who belong to a league, as a condition on players."""
    return models.Q(leagues__isnull=False)
