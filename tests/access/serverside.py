"""Run inside the server's database by `manage.py shell -c`: set it up, and read a match back.

The concurrency tests talk to a real server process with its own database, not the test run's;
these functions are how they reach that database, each printing one JSON object.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model

from scorekeeper import rules
from scorekeeper.rules.matchfile import write_match
from scorekeeper.tables.models import Change, EntryKey, Match
from scorekeeper.tables.scoring import match_file_value, with_everything
from scorekeeper.tables.seats import by_seat
from tests.clubs import organizer_of_the_club
from tests.seated import changes_said


def organizer(username: str, password: str) -> None:
    """Add an organizer who may sign in to the migrated database."""
    user = get_user_model().objects.create_user(username, password=password)
    organizer_of_the_club(user)
    print(json.dumps({"user": user.pk}))


def stored(pk: int) -> None:
    """The match as stored, and as the rules engine scores its stored hands."""
    match = with_everything(Match.objects.filter(pk=pk)).get()
    value = match_file_value(match)
    board = rules.score_match(value)
    print(
        json.dumps(
            {
                "version": match.version,
                "totals": {side.label: total for side, total in match.side_totals()},
                "hand_count": match.hand_count,
                "engine_totals": {side.label: total for side, total in board.totals.items()},
                "engine_hand_count": len(board.hands),
                "hands": [
                    {
                        "number": hand.number,
                        "end": hand.end_how,
                        "plays": [
                            [play.number, value.players[play.seat], play.points]
                            for play in hand.plays.all()
                        ],
                    }
                    for hand in match.hands.all()
                ],
                # players by seat, as a change keeps them
                "hands_file": write_match(by_seat(value))["hands"],
                "changes": [
                    {
                        "number": change.number,
                        "action": said,
                        "from_hand": change.from_hand,
                        "before": change.before,
                        "after": change.after,
                    }
                    for (_, said, _), change in zip(
                        changes_said(match),
                        Change.objects.filter(match=match).order_by("number"),
                        strict=True,
                    )
                ],
                "keys": [
                    {"key": key.key, "change": key.change.number if key.change else None}
                    for key in EntryKey.objects.filter(match=match).select_related("change")
                ],
            }
        )
    )
