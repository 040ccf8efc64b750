"""`manage.py demo`: a few players and one match of each game in progress, for a first look."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scorekeeper.rules import Hand, HandEnd, Match, Play
from scorekeeper.tables.models import Match as StoredMatch
from scorekeeper.tables.scoring import create_match


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


class Command(BaseCommand):
    help = "Create demo players and one match of each game in progress (only in an empty database)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="add the demo matches even if matches exist"
        )

    def handle(self, *args, **options) -> None:
        if StoredMatch.objects.exists() and not options["force"]:
            self.stdout.write("Matches exist already; no demo data added (use --force to add).")
            return
        for value in DEMO_MATCHES:
            match = create_match(value)
            self.stdout.write(f"Created {match} with {len(value.hands)} hands.")
