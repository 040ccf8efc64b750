"""What people entered at the table. Scores are derived from it by the rules engine."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy

from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.rules.text import join_names
from scorekeeper.tables.i18n import say

#: the games' names in the reader's language (the engine marks them for the translators)
GAME_CHOICES = [(game, gettext_lazy(name)) for game, name in GAME_NAMES.items()]


class Player(models.Model):
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    #: only the house rules that differ from the game's defaults, by their RULES.md names
    rules = models.JSONField(default=dict, blank=True)
    players = models.ManyToManyField(Player, through="Seat", related_name="matches")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Derived from the hands by the rules engine and rewritten in the same transaction as
    # every change to them (see scoring.save_scores), so lists need not score every match.
    totals = models.JSONField(default=dict, blank=True)
    finished = models.BooleanField(default=False)
    winner = models.JSONField(null=True, blank=True)
    hand_count = models.PositiveIntegerField(default=0)
    #: when the last hand made it finished (ratings take matches in this order)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: one more with every change, so an open scoreboard can ask cheaply whether to refresh
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches_started",
    )

    class Meta:
        ordering = ["-updated_at"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["finished", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def winner_text(self) -> str:
        """The winner, or the winners of a shared win joined by "and"."""
        if isinstance(self.winner, list):
            return say(join_names(self.winner))
        return self.winner or ""


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    #: 0-based, in playing order
    position = models.PositiveSmallIntegerField()
    #: Straight Dominoes partnerships: 0 for seats 1 and 3, 1 for seats 2 and 4
    team = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["match", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1}"


class Hand(models.Model):
    """A hand (a round, in Chickenfoot) as the table reported it. Names are the seated players'."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    #: 1-based
    number = models.PositiveIntegerField()
    leader = models.CharField(max_length=40, blank=True)
    starter = models.CharField(max_length=40, blank=True)
    double = models.PositiveSmallIntegerField(null=True, blank=True)
    opener = models.CharField(max_length=40, blank=True)
    passed_opening = models.JSONField(default=list, blank=True)
    #: blank while the hand is being played; else domino, blocked, all-doubles or target
    end_how = models.CharField(max_length=12, blank=True)
    end_player = models.CharField(max_length=40, blank=True)
    pips = models.JSONField(default=dict, blank=True)
    double_blank = models.JSONField(default=list, blank=True)
    claimed = models.JSONField(default=dict, blank=True)
    #: the table kept an entry the rules call impossible, on purpose
    overridden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number}"

    @property
    def is_over(self) -> bool:
        return bool(self.end_how)


class Play(models.Model):
    """One scoring play (Straight: points) or one tile laid (Sedma: tile such as "4-4")."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="plays")
    #: 1-based, in the order laid
    number = models.PositiveIntegerField()
    player = models.CharField(max_length=40)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    tile = models.CharField(max_length=5, blank=True)
    overridden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="one_play_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points if self.points is not None else self.tile}"


class Change(models.Model):
    """One change to a match, kept forever: who, when, and the hands it changed, before and
    after. The hands in front of the first one it changed are the same before and after and are
    not kept again, so a tap keeps one hand, however long the match (tables/changes.py puts the
    whole match back together)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    #: 1-based, in the order the changes were made
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=120)
    made_by = models.CharField(max_length=80, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    made_at = models.DateTimeField(auto_now_add=True)
    #: the number of the first hand in ``before`` and ``after``
    from_hand = models.PositiveIntegerField(default=1)
    #: the match file's "hands" from hand ``from_hand`` on, before and after the change
    before = models.JSONField(default=list)
    after = models.JSONField(default=list)
    reverts = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reverted_by"
    )

    class Meta:
        ordering = ["match", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_change_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match} change {self.number}: {self.action}"

    @property
    def hand_count_before(self) -> int:
        """How many hands the match had before the change."""
        return self.from_hand - 1 + len(self.before)

    @property
    def hand_count_after(self) -> int:
        return self.from_hand - 1 + len(self.after)


class EntryKey(models.Model):
    """The key of an entry already recorded: the same submission again is answered, not redone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entry_keys")
    key = models.CharField(max_length=160)
    change = models.ForeignKey(Change, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="one_entry_per_key"),
        ]

    def __str__(self) -> str:
        return self.key
