"""What people entered at the table. Scores are derived from it by the rules engine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.rules.match import GAME_NAMES, Side
from scorekeeper.rules.match import Match as EngineMatch
from scorekeeper.rules.text import join_names
from scorekeeper.tables.i18n import say
from scorekeeper.tables.names import BadName, name_key, name_look, normal_name
from scorekeeper.tables.seats import seating

#: the games' names in the reader's language (the engine marks them for the translators)
GAME_CHOICES = [(game, gettext_lazy(name)) for game, name in GAME_NAMES.items()]


def initials(name: str) -> str:
    """A name as its initials: "Ana Maria Lopez" is "A. M. L."."""
    return " ".join(f"{word[0].upper()}." for word in name.split())


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """Players added in bulk get their keys as one saved would (Player.save)."""
        players = list(objs)
        for player in players:
            player.key = name_key(player.name)
            player.look = name_look(player.name)
        return super().bulk_create(players, *args, **kwargs)


class Player(models.Model):
    name = models.CharField(max_length=40)
    #: what the names of the same player share (tables/names.py): kept with every save, so
    #: two phones adding "Ana" and "ana " at once add one player
    key = models.CharField(max_length=160, unique=True, editable=False)
    #: how the name looks as a whole word (tables/names.py): a new name with another player's
    #: look is refused as a look-alike. Not unique: players kept before it may share one.
    look = models.CharField(max_length=160, db_index=True, editable=False, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    #: the account that owns the record (records/claims.py): one account owns at most one
    #: record, a record at most one account
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player_record",
    )
    #: the owner asked that public pages show the name's initials only (``shown_name``)
    initials_only = models.BooleanField(default=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        # unique by ``key``, which the app works out (tables/names.py): not by the database's
        # lower(), which on PostgreSQL took "Ina" and "İna" for one name where the key has two

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.key = name_key(self.name)
        self.look = name_look(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key", "look"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """A renamed player (the admin) keeps to the rules of names and to their own."""
        try:
            self.name = normal_name(self.name)
        except BadName as problem:
            raise ValidationError({"name": str(problem)}) from None
        other = Player.objects.filter(key=name_key(self.name)).exclude(pk=self.pk).first()
        if other is not None:
            raise ValidationError(
                {
                    "name": gettext("%(name)s is the same player as %(known)s.")
                    % {"name": self.name, "known": other.name}
                }
            )
        alike = Player.objects.filter(look=name_look(self.name)).exclude(pk=self.pk).first()
        if alike is not None:
            raise ValidationError(
                {
                    "name": gettext(
                        "%(name)s looks like the known player %(known)s: write %(known)s for "
                        "them, or a name that tells a new player apart."
                    )
                    % {"name": self.name, "known": alike.name}
                }
            )

    @property
    def shown_name(self) -> str:
        """The name as public pages show it: its initials when the owner asked for them."""
        return initials(self.name) if self.initials_only else self.name


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def shown_version(version: int, finished: bool, updated_at: datetime) -> str:
    """The version of a match as an open scoreboard shows it, and its poll asks whether it
    moved: the version, one more with every change to the match. A finished match's result is
    then signed or disputed (nights/signing.py), which moves the time of its last change and
    not the version: the finished board's poll names that time too, so the scorekeeper's phone
    shows the signature made on the other side's phone."""
    if not finished:
        return str(version)
    return f"{version}.{(updated_at - EPOCH) // timedelta(microseconds=1)}"


class Match(models.Model):
    game = models.CharField(max_length=12, choices=GAME_CHOICES)
    #: only the house rules that differ from the game's defaults, by their names in
    #: docs/rules.md (*House rules*)
    rules = models.JSONField(default=dict, blank=True)
    players: models.ManyToManyField[Player, Seat] = models.ManyToManyField(
        Player, through="Seat", related_name="matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Derived from the hands by the rules engine and rewritten in the same transaction as
    # every change to them (see scoring.save_scores), so lists need not score every match.
    #: each side's total, sides in seating order (seats 1 & 3 before 2 & 4)
    totals = models.JSONField(default=list, blank=True)
    finished = models.BooleanField(default=False)
    #: the winning sides by their place in ``totals``; more than one for a shared win
    winners = models.JSONField(default=list, blank=True)
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
    def poll_version(self) -> str:
        """What an open scoreboard's poll names (``shown_version``)."""
        return shown_version(self.version, self.finished, self.updated_at)

    # the engine's Match, by a name the field `rules` above does not hide
    def seating(self) -> EngineMatch:
        """The engine's view of the match's players, partnerships and rules, without its hands
        (fetch the seats and their players with it: ``with_seats``)."""
        seats = sorted(self.seats.all(), key=lambda seat: seat.position)
        return seating(self.game, [(seat.player.name, seat.team) for seat in seats], self.rules)

    def shown_players(self) -> tuple[str, ...]:
        """The players' names in seat order as the boards show them (``Player.shown_name``:
        initials where the owner asked); ``seating`` keeps the names that tell them apart."""
        seats = sorted(self.seats.all(), key=lambda seat: seat.position)
        return tuple(seat.player.shown_name for seat in seats)

    def shown_sides(self) -> list[Side]:
        """The sides in seating order, their players named as public pages name them
        (``shown_players``)."""
        seated = self.seating()
        shown = dict(zip(seated.players, self.shown_players(), strict=True))
        return [Side(tuple(shown[name] for name in side.players)) for side in seated.sides]

    def side_totals(self) -> list[tuple[Side, int]]:
        """Each side's name and total as kept, in seating order."""
        return self._with_totals(self.seating().sides)

    def shown_side_totals(self) -> list[tuple[Side, int]]:
        """Each side's name as public pages name it (``shown_sides``) and total as kept, in
        seating order."""
        return self._with_totals(self.shown_sides())

    def _with_totals(self, sides: list[Side]) -> list[tuple[Side, int]]:
        totals = list(self.totals) + [0] * (len(sides) - len(self.totals))
        return list(zip(sides, totals, strict=False))

    @property
    def winner_text(self) -> str:
        """The winner, or the winners of a shared win joined by "and", as public pages name
        them (``shown_players``)."""
        sides = self.shown_sides()
        return say(join_names([sides[i] for i in self.winners if i < len(sides)]))


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    #: 0-based, in playing order
    position = models.PositiveSmallIntegerField()
    #: Straight Dominoes partnerships: 0 for seats 1 and 3, 1 for seats 2 and 4
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    #: the seat handed over mid-match (a league night's *Leaving early*): the first hand
    #: ``player`` played in it, and the number of the change that seated them (0: from the
    #: start). Those who sat in it before are its ``SeatTurn`` rows.
    from_hand = models.PositiveIntegerField(default=1)
    from_change = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["match", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1}"


class SeatTurn(models.Model):
    """Someone who sat in a seat before it was handed over mid-match: from which hand, and from
    which change. The seat's ``Seat`` row is the player in it now; a seat never handed over has
    no turns. The hands and changes made while they sat there stay theirs on every page."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seat_turns")
    #: the seat, 0-based in playing order
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seat_turns")
    #: the first hand they played in the seat, and the change that seated them (0: the start)
    from_hand = models.PositiveIntegerField(default=1)
    from_change = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["match", "position", "from_change"]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1} from hand {self.from_hand}"


class Hand(models.Model):
    """A hand (a round, in Chickenfoot) as the table reported it. Players are named by their
    seat (0-based, in playing order): a name is stored once, on the player."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    #: 1-based
    number = models.PositiveIntegerField()
    #: Straight: who led
    leader_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Chickenfoot: who set the round's double, and the double (6 for 6-6)
    starter_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    double = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Sedma: who set the first double, and those before them (seats) who had none
    opener_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    passed_seats = models.JSONField(default=list, blank=True)
    #: blank while the hand is being played; else domino, blocked, all-doubles or target
    end_how = models.CharField(max_length=12, blank=True)
    end_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: the pips left in each hand, by seat ("0", "1" ...), or partners' counted together by
    #: side ("1 & 3")
    pips = models.JSONField(default=dict, blank=True)
    #: Chickenfoot: the seats left holding 0-0
    double_blank = models.JSONField(default=list, blank=True)
    #: the points the table wrote down, by seat or side ("0 & 2")
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


class Play(models.Model):
    """One scoring play (Straight: points) or one tile laid (Sedma: tile such as "4-4")."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="plays")
    #: 1-based, in the order laid
    number = models.PositiveIntegerField()
    #: who played it: their seat, 0-based in playing order
    seat = models.PositiveSmallIntegerField()
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    tile = models.CharField(max_length=5, blank=True)
    #: Straight: the leader's first tile of the hand (it can only score 5 or 10)
    lead = models.BooleanField(default=False)
    overridden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="one_play_per_number"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat + 1} {self.points if self.points is not None else self.tile}"


class Change(models.Model):
    """One change to a match, kept forever: what kind of change with its values (which seat,
    how many points, which hand ...), who, when, and the hands it changed, before and after.
    Each reader sees it said in their language from its kind and values (tables/i18n.py). The
    hands in front of the first one it changed are the same before and after and are not kept
    again, so a tap keeps one hand, however long the match (tables/changes.py puts the whole
    match back together). Players are named by seat here too."""

    class Kind(models.TextChoices):
        STARTED = "started"
        IMPORTED = "imported"
        REMATCH = "rematch"
        LEAGUE_MATCH = "league-match"
        SCORED = "scored"
        LAID = "laid"
        HAND_ENDED = "hand-ended"
        ROUND_RECORDED = "round-recorded"
        UNDONE = "undone"
        HAND_CORRECTED = "hand-corrected"
        HAND_DELETED = "hand-deleted"
        REVERTED = "reverted"
        #: a league night: a player left and another plays on in their seat
        SEAT_TAKEN = "seat-taken"
        #: a change stored as a sentence before changes kept their values
        NOTE = "note"

    class Maker(models.TextChoices):
        """Who made a change that carries no name, said in each reader's language."""

        #: a phone without an account whose holder gave no name
        PHONE = "phone", gettext_lazy("a phone at the table")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    #: 1-based, in the order the changes were made
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    #: the change's values: "seat", "points", "tile", "how", "hand", "match", "season" ...
    params = models.JSONField(default=dict, blank=True)
    #: the name the account or the phone gave, as typed; blank when none was given
    made_by = models.CharField(max_length=80, blank=True)
    #: who made it when no name was given (``Maker``), worded only where it is read
    maker = models.CharField(max_length=8, choices=Maker.choices, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    #: which phone sent it: a digest of its session, so the same play from a second phone at
    #: the table can be told from a retry of the first
    phone = models.CharField(max_length=16, blank=True)
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
        return f"{self.match} change {self.number}: {self.kind}"

    @property
    def made_by_said(self) -> str:
        """Who made it, in the reader's language: the name given, as typed, else what made
        it ("a phone at the table"); blank when neither is known (an import)."""
        return self.made_by or self.get_maker_display()

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
