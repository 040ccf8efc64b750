"""A league night: who came, the rounds drawn and the tables each round was played at."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scorekeeper.access.models import ShareLink
from scorekeeper.events.standings import DEFAULT_TIEBREAKS
from scorekeeper.leagues.models import Season
from scorekeeper.tables.models import Match, Player

#: a night has at most this many rounds: a long night plays eight or nine
MOST_ROUNDS = 20


def new_seed() -> str:
    """Eight hex digits: short enough to read out in the hall and type in to check a draw."""
    return secrets.token_hex(4)


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Night(models.Model):
    class Draw(models.TextChoices):
        BLIND = "blind", _("Blind draw: random partners and tables")
        ROTATING = "rotating", _("Rotating partners: everyone partners everyone")
        BALANCED = "balanced", _("Balanced: sides as even as the ratings allow")
        SWISS = "swiss", _("Swiss: pair by standings, no rematch")
        ROUND_ROBIN = "round_robin", _("Round robin: everyone meets everyone")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
    played_on = models.DateField()
    draw = models.CharField(max_length=12, choices=Draw.choices, default=Draw.BLIND)
    rounds = models.PositiveSmallIntegerField(
        default=3, validators=[MinValueValidator(1), MaxValueValidator(MOST_ROUNDS)]
    )
    #: Straight Dominoes: tables of four play as partnerships (seats 1 & 3 against 2 & 4)
    partnerships = models.BooleanField(default=True)
    #: the most players at a table, where the game allows tables of more than one size
    most_at_a_table = models.PositiveSmallIntegerField(default=4)
    #: a Swiss or round robin night ranks its entries by these, in order (events.standings)
    tiebreaks = models.JSONField(default=default_tiebreaks, blank=True)
    #: each round is drawn from "<seed>-<round>" unless the organizer gives another seed
    seed = models.CharField(max_length=32, default=new_seed)
    #: the standings count a match of the night once the other side signed its result (or the
    #: director did), not as soon as it finishes (nights/signing.py)
    signed_only = models.BooleanField(
        default=False, verbose_name=_("Count only results both sides signed")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: the accounts the club's organizers named to run this night: its rounds, clock, desk,
    #: disputes and corrections of its matches, nothing else of the club's (access/clubs.py)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="nights_directed"
    )

    class AtTime(models.TextChoices):
        FINISH_HAND = "finish_hand", _("Finish the hand being played, then the higher total wins")
        PLAY_ON = "play_on", _("Play to the target regardless: the clock is only shown")

    #: how long a round is on the round clock (nights/clock.py); none: rounds are untimed
    round_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    #: what a table does when its round's time is up
    at_time = models.CharField(max_length=12, choices=AtTime.choices, default=AtTime.FINISH_HAND)

    class Meta:
        ordering = ["-played_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.season.league} night, {self.played_on:%Y-%m-%d}"

    @property
    def is_tournament(self) -> bool:
        """Swiss or round robin: fixed entries paired two to a table (nights/tournament.py)."""
        return self.draw in (self.Draw.SWISS, self.Draw.ROUND_ROBIN)

    def draw_said(self, partnerships: bool) -> str:
        """The draw's name; a night without partners (Chickenfoot, Sedma, Straight every
        player for themself) draws tables and seats, never partners or sides."""
        if not partnerships:
            return str(DRAWS_WITHOUT_PARTNERS.get(self.draw, self.get_draw_display()))
        return self.get_draw_display()


#: the draws' names where every player plays for themself
DRAWS_WITHOUT_PARTNERS: dict[str, str | Promise] = {
    Night.Draw.BLIND: _("Blind draw: random tables and seats"),
    Night.Draw.BALANCED: _("Balanced: tables as even as the ratings allow"),
}


class CheckIn(models.Model):
    """A player who came to the night: from which round they play, and until which."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="check_ins")
    #: a late arrival plays from the first round not yet started when they came
    from_round = models.PositiveSmallIntegerField(default=1)
    #: the last round they played, when they left early
    left_after = models.PositiveSmallIntegerField(null=True, blank=True)
    #: came without being a member: checked in, they joined the league
    walk_in = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(auto_now_add=True)
    #: a Swiss or round robin night in partnerships: the partner for the whole night (each of
    #: the two check-ins names the other)
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["night", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="one_check_in_a_night"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.night}"

    def plays_in(self, number: int) -> bool:
        return self.from_round <= number and (self.left_after is None or number <= self.left_after)


class NightRound(models.Model):
    """A round's draw, and once started, its tables' matches."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="night_rounds")
    number = models.PositiveSmallIntegerField()
    #: what the round was drawn from (empty for a rotating schedule, which needs none)
    seed = models.CharField(max_length=64, blank=True)
    drawn_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The round clock (nights/clock.py), started, paused and ended from the director's desk:
    # the time left at any instant is worked out from these, never counted down in a row.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    #: set while the clock is paused
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    #: the time the clock stood still in pauses already over
    clock_paused_seconds = models.PositiveIntegerField(default=0)
    #: the director ended the round's time before it ran out
    clock_ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="one_round_a_number"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.night}"

    @property
    def sitting_out_ids(self) -> list[int]:
        """The players who sit this round out, by id, in the order drawn: from its
        ``sitting_out`` rows (prefetched where rounds are listed)."""
        return [row.player_id for row in self.sitting_out.all()]


class NightTable(models.Model):
    """A table of a round: its seats as drawn, and once the round starts its match and the
    scorekeeper's link printed on its card."""

    night_round = models.ForeignKey(NightRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="night_table"
    )
    link = models.ForeignKey(ShareLink, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["night_round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night_round", "number"], name="one_table_a_number"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}, {self.night_round}"

    @property
    def player_ids(self) -> list[int]:
        """The players in seat order, by id; in partnerships seats 1 & 3 against 2 & 4: from
        its ``seats`` rows (prefetched where tables are listed)."""
        return [seat.player_id for seat in self.seats.all()]


class TableSeat(models.Model):
    """A seat of a table as drawn (and as sat in, once someone took a leaver's seat). The
    match's own ``Seat`` rows say who plays it once the round starts."""

    night_table = models.ForeignKey(NightTable, on_delete=models.CASCADE, related_name="seats")
    #: 0-based, in seat order
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["night_table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["night_table", "position"], name="one_player_a_table_seat"
            ),
            models.UniqueConstraint(fields=["night_table", "player"], name="one_seat_a_player"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.position + 1}, {self.night_table}"


class SittingOut(models.Model):
    """A player the round's draw did not seat."""

    night_round = models.ForeignKey(
        NightRound, on_delete=models.CASCADE, related_name="sitting_out"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        # in the order drawn: the rows are written in one go, in that order
        ordering = ["night_round", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["night_round", "player"], name="sitting_out_once_a_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} sitting out {self.night_round}"


class Signature(models.Model):
    """A night's finished match whose result the side that did not keep score agreed to, or
    the director confirmed: from then on only the organizer changes it (nights/signing.py)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="signature")
    #: the side that agreed, by its place in the match's sides (seat order); null: the director
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    #: how: on the scorekeeper's phone handed over, through the side's own link, or the director
    via = models.CharField(max_length=8)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    #: which phone: a digest of its session, as the history keeps it
    phone = models.CharField(max_length=16, blank=True)
    signed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.match} signed"


class Dispute(models.Model):
    """A side that did not agree with a night's result: which hand, why, and once the director
    looked at it, how it ended."""

    class Reason(models.TextChoices):
        POINTS = "points", _("Wrong points")
        PLAYER = "player", _("Wrong player")
        MISSING = "missing", _("A hand is missing")
        TWICE = "twice", _("A hand was counted twice")
        PIPS = "pips", _("Pips counted wrong")
        OTHER = "other", _("Something else")

    class Closed(models.TextChoices):
        CORRECTED = "corrected", _("corrected")
        CONFIRMED = "confirmed", _("confirmed as it was")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    #: the hand (a round, in Chickenfoot) the side disputes, 1-based
    hand = models.PositiveIntegerField()
    reason = models.CharField(max_length=8, choices=Reason.choices)
    text = models.CharField(max_length=200, blank=True)
    side = models.PositiveSmallIntegerField()
    via = models.CharField(max_length=8)
    phone = models.CharField(max_length=16, blank=True)
    #: the browser, in short ("Chrome on Android"), to tell the phones at a table apart
    device = models.CharField(max_length=40, blank=True)
    #: the match's version when the side disputed it: a later one means the director corrected it
    version = models.PositiveIntegerField(default=0)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed = models.CharField(max_length=9, choices=Closed.choices, blank=True)

    class Meta:
        ordering = ["opened_at", "pk"]
        constraints = [
            # a match is disputed once at a time: the second phone's tap finds it disputed
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(closed_at=None),
                name="one_open_dispute_a_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} disputed, hand {self.hand}"


# -- what access is told of a night (access/seams.py) --------------------------------------------


def at_a_night_on(to_match: str, day: datetime.date) -> models.Q:
    """A table's match at a league night played on ``day``, as a condition on the rows at
    ``to_match`` from the match (``"match__"``, or ``""`` for matches)."""
    return models.Q(**{f"{to_match}night_table__night_round__night__played_on": day})
