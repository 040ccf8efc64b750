"""`manage.py demo`: players, one match of each game in progress and a small league with a
season already under way and tonight's league night started, for a first look; and an
organizer account to sign in with."""

from __future__ import annotations

import datetime
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.rules import Hand, HandEnd, Match, Play
from scorekeeper.tables.models import Match as StoredMatch
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match

#: the demo's organizer account: the demo's matches and round are signed with its name, as
#: that account's would be
ORGANIZER = "demo"
#: the club whose owner the demo account is, and which holds the demo league
DEMO_CLUB = "Demo Hall"


def _tiles(*laid: tuple[str, str]) -> tuple[Play, ...]:
    return tuple(Play(player, tile=(int(tile[0]), int(tile[-1]))) for player, tile in laid)


DEMO_MATCHES = [
    Match(
        game="straight",
        players=("Rosa", "Earl", "Lupe", "Dale"),
        partnerships=(("Rosa", "Lupe"), ("Earl", "Dale")),
        hands=(
            Hand(
                leader="Rosa",
                plays=(Play("Rosa", points=10), Play("Earl", points=15), Play("Lupe", points=5)),
                end=HandEnd("domino", player="Lupe", pips={"Rosa": 6, "Earl": 13, "Dale": 9}),
            ),
            Hand(
                leader="Lupe",
                plays=(Play("Lupe", points=20), Play("Dale", points=10)),
                end=HandEnd("blocked", pips={"Rosa": 8, "Earl": 4, "Lupe": 11, "Dale": 3}),
            ),
            Hand(leader="Dale", plays=(Play("Dale", points=5), Play("Rosa", points=15))),
        ),
    ),
    Match(
        game="chickenfoot",
        players=("Rosa", "Earl", "Wanda", "Hank"),
        hands=(
            Hand(
                double=6,
                starter="Wanda",
                end=HandEnd(
                    "domino",
                    player="Earl",
                    pips={"Rosa": 14, "Wanda": 22, "Hank": 5},
                    double_blank=("Hank",),
                ),
            ),
            Hand(
                double=5,
                starter="Rosa",
                end=HandEnd("domino", player="Rosa", pips={"Earl": 31, "Wanda": 9, "Hank": 17}),
            ),
        ),
    ),
    Match(
        game="sedma",
        players=("Jirka", "Bára", "Ota", "Lída"),
        hands=(
            Hand(
                opener="Jirka",
                plays=_tiles(
                    ("Jirka", "1-1"),
                    ("Lída", "4-4"),
                    ("Bára", "0-0"),
                    ("Lída", "6-6"),
                    ("Bára", "5-5"),
                    ("Lída", "2-2"),
                    ("Bára", "3-3"),
                ),
                end=HandEnd("all-doubles"),
            ),
            Hand(opener="Bára", plays=_tiles(("Bára", "3-3"), ("Ota", "5-5"))),
        ),
    ),
]


def _race_to_100(first: str, second: str, hands: list[tuple]) -> Match:
    """A short league match to 100: each hand is (plays, who dominoed, the other's pips)."""
    return Match(
        game="straight",
        players=(first, second),
        rules={"target": 100},
        hands=tuple(
            Hand(
                plays=tuple(Play(player, points=points) for player, points in plays),
                end=HandEnd("domino", player=out, pips={(second if out == first else first): pips})
                if out
                else None,
            )
            for plays, out, pips in hands
        ),
    )


LEAGUE_MATCHES = [
    _race_to_100(
        "Rosa",
        "Earl",
        [
            ([("Rosa", 15), ("Earl", 10)], "Rosa", 23),
            ([("Earl", 20), ("Rosa", 10)], "Earl", 12),
            ([("Rosa", 25), ("Rosa", 30)], None, 0),
        ],
    ),
    _race_to_100(
        "Lupe",
        "Dale",
        [
            ([("Dale", 30), ("Lupe", 5)], "Dale", 31),
            ([("Lupe", 20), ("Dale", 15)], "Lupe", 18),
            ([("Dale", 10), ("Dale", 25)], None, 0),
        ],
    ),
    _race_to_100(
        "Rosa",
        "Lupe",
        [
            ([("Lupe", 10), ("Rosa", 20)], "Rosa", 27),
            ([("Lupe", 35), ("Rosa", 10)], "Lupe", 8),
            ([("Lupe", 15), ("Rosa", 5), ("Lupe", 30)], None, 0),
        ],
    ),
]


class Command(BaseCommand):
    help = "Create demo players and one match of each game in progress (only in an empty database)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="add the demo matches even if matches exist"
        )

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        if StoredMatch.objects.exists() and not options["force"]:
            self.stdout.write("Matches exist already; no demo data added (use --force to add).")
            return
        for value in DEMO_MATCHES:
            match = create_match(value, made_by=ORGANIZER)
            self.stdout.write(f"Created {match} with {len(value.hands)} hands.")
        self._league()
        self._organizer()

    def _league(self) -> None:
        name = "Thursday Night (demo)"
        if League.objects.filter(name=name).exists():
            return
        club, _ = Club.objects.get_or_create(name=DEMO_CLUB)
        league = League.objects.create(club=club, name=name, game="straight", rules={"target": 100})
        season = Season.objects.create(
            league=league, name="Fall", starts_on=datetime.date.today().replace(day=1)
        )
        for value in LEAGUE_MATCHES:
            create_match(
                value,
                made_by=ORGANIZER,
                also_write=lambda match: SeasonMatch.objects.create(season=season, match=match),
            )
        league.members.set(
            {seat.player for entry in season.entries.all() for seat in entry.match.seats.all()}
        )
        self.stdout.write(f"Created the league {league} with {len(LEAGUE_MATCHES)} matches played.")
        self._night(season)

    def _night(self, season: Season) -> None:
        """Tonight's league night, its members checked in and the first round started."""
        night = Night(season=season, played_on=datetime.date.today())
        rounds.open_night(night, list(season.league.members.all()), [])
        rounds.start_round(round_draw.draw_round(night), by=Author(name=ORGANIZER))
        self.stdout.write(f"Started round 1 of {night}: its board is /nights/{night.pk}/board/.")

    def _organizer(self) -> None:
        """The demo club's owner, so the person trying the app can keep score, run leagues
        and invite others."""
        users = get_user_model().objects
        if users.filter(username=ORGANIZER).exists():
            return
        password = secrets.token_urlsafe(9)
        user = users.create_user(ORGANIZER, password=password)
        club, _ = Club.objects.get_or_create(name=DEMO_CLUB)
        Membership.objects.create(club=club, user=user, role=Role.OWNER)
        self.stdout.write(
            self.style.SUCCESS(
                f"Sign in as {ORGANIZER} with the password {password} to keep score of the demo "
                "matches and run the demo league."
            )
        )
