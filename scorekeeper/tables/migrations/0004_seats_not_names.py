"""Hands, plays and the history name players by seat; totals and winners by side; a change keeps
its kind and values instead of an English sentence."""

import re

from django.db import migrations, models

from scorekeeper import rules

SHAPES = [
    (r"Match started", "started", {}),
    (r"Imported", "imported", {}),
    (r"Round recorded, blocked", "round-recorded", {"how": "blocked"}),
    (r"Undo the last entry", "undone", {}),
    (r"Reverted change (?P<number>\d+) \(.*\)", "reverted", {}),
    (r"Hand ended: (?P<player>.+) dominoed", "hand-ended", {"how": "domino"}),
    (r"Hand ended: (?P<how>[\w-]+)", "hand-ended", {}),
    (r"Round recorded, (?P<player>.+) went out", "round-recorded", {"how": "domino"}),
    (r"(?:Round|Hand) (?P<hand>\d+) deleted", "hand-deleted", {}),
    (r"(?:Round|Hand) (?P<hand>\d+) corrected", "hand-corrected", {}),
    (r"Rematch of .*#(?P<match>\d+)", "rematch", {}),
    (r"League match started for (?P<season>.+)", "league-match", {}),
    (r"(?P<player>.+) scored (?P<points>\d+)", "scored", {}),
    (r"(?P<player>.+) laid (?P<tile>\d-\d)", "laid", {}),
]


def change_of(action, seat_of):
    for pattern, kind, fixed in SHAPES:
        found = re.fullmatch(pattern, action, re.S)
        if found is None:
            continue
        params = dict(fixed)
        for name, value in found.groupdict().items():
            if name == "player":
                if value not in seat_of:
                    break
                params["seat"] = seat_of[value]
            elif name in ("number", "hand", "points", "match"):
                params[name] = int(value)
            else:
                params[name] = value
        else:
            return kind, params
    return "note", {"text": action}


def side_key(key, seat_of):
    if key in seat_of:
        return str(seat_of[key])
    return " & ".join(str(seat_of.get(part, part)) for part in key.split(" & "))


def hand_by_seat(hand, seat_of):
    """A hand as the match file writes it, players named by seat key."""

    def key(name):
        return str(seat_of.get(name, name))

    hand = dict(hand)
    for field in ("leader", "starter", "opener"):
        if field in hand:
            hand[field] = key(hand[field])
    if "passed_opening" in hand:
        hand["passed_opening"] = [key(name) for name in hand["passed_opening"]]
    if "plays" in hand:
        hand["plays"] = [{**play, "player": key(play["player"])} for play in hand["plays"]]
    if "end" in hand:
        end = dict(hand["end"])
        if "player" in end:
            end["player"] = key(end["player"])
        if "pips" in end:
            end["pips"] = {key(name): pips for name, pips in end["pips"].items()}
        if isinstance(end.get("double_blank"), list):
            end["double_blank"] = [key(name) for name in end["double_blank"]]
        elif "double_blank" in end:
            end["double_blank"] = key(end["double_blank"])
        hand["end"] = end
    if "claimed" in hand:
        hand["claimed"] = {side_key(k, seat_of): v for k, v in hand["claimed"].items()}
    return hand


def to_seats(apps, schema_editor):
    Match = apps.get_model("tables", "Match")
    for match in Match.objects.prefetch_related("seats__player", "hands__plays", "changes"):
        seats = sorted(match.seats.all(), key=lambda seat: seat.position)
        names = [seat.player.name for seat in seats]
        seat_of = {name: i for i, name in enumerate(names)}
        seat_of.update({name.lower(): i for i, name in enumerate(names)})

        def seat(name):
            return seat_of.get(name, seat_of.get((name or "").lower())) if name else None

        teams = {}
        for one in seats:
            if one.team is not None:
                teams.setdefault(one.team, []).append(one.player.name)
        sides = rules.Match(
            game=match.game,
            players=tuple(names),
            partnerships=tuple(tuple(team) for _, team in sorted(teams.items())),
        ).sides
        old_totals = match.totals if isinstance(match.totals, dict) else {}
        match.totals = [int(old_totals.get(side, 0)) for side in sides]
        winners = match.winner if isinstance(match.winner, list) else [match.winner]
        match.winners = [i for i, side in enumerate(sides) if side in winners]
        match.save(update_fields=["totals", "winners"])
        for hand in match.hands.all():
            hand.leader_seat = seat(hand.leader)
            hand.starter_seat = seat(hand.starter)
            hand.opener_seat = seat(hand.opener)
            hand.passed_seats = [seat(name) for name in hand.passed_opening]
            hand.end_seat = seat(hand.end_player)
            hand.pips = {str(seat(name)): pips for name, pips in hand.pips.items()}
            hand.double_blank = [seat(name) for name in hand.double_blank]
            hand.claimed = {side_key(k, seat_of): v for k, v in hand.claimed.items()}
            hand.save()
            for play in hand.plays.all():
                play.seat = seat(play.player) or 0
                play.save(update_fields=["seat"])
        for change in match.changes.all():
            change.kind, change.params = change_of(change.action, seat_of)
            change.before = [hand_by_seat(hand, seat_of) for hand in change.before]
            change.after = [hand_by_seat(hand, seat_of) for hand in change.after]
            change.save(update_fields=["kind", "params", "before", "after"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_change_keeps_the_hands_it_changed"),
    ]

    operations = [
        migrations.AddField("hand", "leader_seat", models.PositiveSmallIntegerField(null=True, blank=True)),
        migrations.AddField("hand", "starter_seat", models.PositiveSmallIntegerField(null=True, blank=True)),
        migrations.AddField("hand", "opener_seat", models.PositiveSmallIntegerField(null=True, blank=True)),
        migrations.AddField("hand", "passed_seats", models.JSONField(default=list, blank=True)),
        migrations.AddField("hand", "end_seat", models.PositiveSmallIntegerField(null=True, blank=True)),
        migrations.AddField("play", "seat", models.PositiveSmallIntegerField(null=True)),
        migrations.AddField("match", "winners", models.JSONField(default=list, blank=True)),
        migrations.AddField(
            "change",
            "kind",
            models.CharField(
                max_length=16,
                default="note",
                choices=[
                    ("started", "Started"),
                    ("imported", "Imported"),
                    ("rematch", "Rematch"),
                    ("league-match", "League Match"),
                    ("scored", "Scored"),
                    ("laid", "Laid"),
                    ("hand-ended", "Hand Ended"),
                    ("round-recorded", "Round Recorded"),
                    ("undone", "Undone"),
                    ("hand-corrected", "Hand Corrected"),
                    ("hand-deleted", "Hand Deleted"),
                    ("reverted", "Reverted"),
                    ("note", "Note"),
                ],
            ),
            preserve_default=False,
        ),
        migrations.AddField("change", "params", models.JSONField(default=dict, blank=True)),
        # Going back leaves the name columns empty: restore a backup taken before instead.
        migrations.RunPython(to_seats, migrations.RunPython.noop, elidable=False),
        migrations.RemoveField("hand", "leader"),
        migrations.RemoveField("hand", "starter"),
        migrations.RemoveField("hand", "opener"),
        migrations.RemoveField("hand", "passed_opening"),
        migrations.RemoveField("hand", "end_player"),
        migrations.RemoveField("play", "player"),
        migrations.RemoveField("match", "winner"),
        migrations.RemoveField("change", "action"),
        migrations.AlterField("play", "seat", models.PositiveSmallIntegerField()),
        migrations.AlterField("match", "totals", models.JSONField(default=list, blank=True)),
    ]
