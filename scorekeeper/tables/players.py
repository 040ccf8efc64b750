"""Players as the tables know them: the same player under another spelling, a match file's names
as the tables store them, and the people a phone or account plays with."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import rules
from scorekeeper.rules.keys import rekeyed
from scorekeeper.tables import seams
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.names import BadName, name_key, name_look, normal_name


def look_alikes(names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` (as stored, tables/names.py) that is a known player written another
    way, or that looks like a known player it is not (their names' looks are one), with the
    known player's name. A name that is a known player's is that player, whoever else looks
    like them."""
    names = list(names)
    typed = {name_key(name): name for name in names}
    looks = {name_look(name): name for name in names}
    known = list(
        Player.objects.filter(Q(key__in=typed) | Q(look__in=looks)).values_list(
            "key", "look", "name"
        )
    )
    found = {typed[key]: name for key, _look, name in known if key in typed and typed[key] != name}
    players = {typed[key] for key, _look, _name in known if key in typed}
    for key, look, name in known:
        written = looks.get(look)
        if written is not None and written not in players and key not in typed:
            found.setdefault(written, name)
    return found


def alike_among(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two of ``names`` (as stored, each a player of their own) that look alike
    (tables/names.py): the later and the earlier."""
    seen: dict[str, str] = {}
    for name in names:
        earlier = seen.setdefault(name_look(name), name)
        if earlier != name:
            return name, earlier
    return None


def alike_message(name: str, other: str) -> str:
    """A form's refusal of two new players whose names look alike."""
    return gettext(
        "%(name)s looks like %(other)s: give each player a name that tells them apart."
    ) % {"name": name, "other": other}


def stored_names(match: rules.Match) -> rules.Match:
    """A match read from a file, its players named as the tables store names (tables/names.py).

    BadName, saying where in the file, for a name no player can have, two names of the same
    player, or a known player's name written another way ("ana " for "Ana")."""
    names: list[str] = []
    seen: dict[str, str] = {}
    for i, written in enumerate(match.players):
        try:
            name = normal_name(written)
        except BadName as problem:
            raise BadName(f"players[{i}]: bad-value: {problem}") from None
        if name_key(name) in seen:
            raise BadName(
                f"players[{i}]: duplicate-player: {written!r} is the same player as "
                f"{seen[name_key(name)]!r} (names differing only in case and spaces are one)"
            )
        seen[name_key(name)] = written
        if " & " in name:
            raise BadName(
                f'players[{i}]: bad-value: {written!r}: a name cannot contain " & ", which '
                "joins partners' names"
            )
        names.append(name)
    alike = alike_among(names)
    if alike is not None:
        later, earlier = alike
        i = names.index(later)
        raise BadName(
            f"players[{i}]: look-alike: {match.players[i]!r} looks like "
            f"{match.players[names.index(earlier)]!r}; give each player a name that tells them "
            "apart"
        )
    known_as = look_alikes(names)
    for i, name in enumerate(names):
        known = known_as.get(name)
        if known is not None:
            raise BadName(
                f"players[{i}]: look-alike: {match.players[i]!r} is the known player "
                f"{known!r} written another way; write {known!r} for them, or a name that "
                "tells a new player apart"
            )
    return rekeyed(match, dict(zip(match.players, names, strict=True)))


#: the matches of a phone or account the picker and the players page look back over
RECENT_MATCHES = 30
#: how many names they offer at most
MOST_OFFERED = 300
#: how many players a search finds at most
MOST_FOUND = 50


def people_played_with(
    *, user, match_ids: Iterable[int], role_matches: QuerySet | None = None
) -> QuerySet[Player]:
    """The people a phone or account plays with: those of its recent matches (``match_ids``:
    the matches the phone joined or started; an account's: those it started, and
    ``role_matches``, the ids of those it has a role in) and the leagues' members
    (tables/seams.py). Not every name ever entered: anyone may start a match with made-up
    names, and they stay on that phone."""
    mine = Q(pk__in=list(match_ids))
    if user is not None and user.is_authenticated:
        mine |= Q(created_by=user)
    if role_matches is not None:
        mine |= Q(pk__in=role_matches)
    recent = Match.objects.filter(mine).order_by("-updated_at").values_list("pk", flat=True)
    around = Q(seats__match__in=list(recent[:RECENT_MATCHES])) | seams.league_members()
    ids = Player.objects.filter(around).values_list("pk", flat=True).distinct()
    return Player.objects.filter(pk__in=list(ids[:MOST_OFFERED])).order_by("name")


def players_found(text: str) -> QuerySet[Player]:
    """Players whose name holds ``text``, in any case and spacing: a search reaches anyone but
    those who asked that public pages show their initials, whose name a search would give
    away ("Lopez" finding "A. M. L.")."""
    key = name_key(text)
    if not key:
        return Player.objects.none()
    found = Player.objects.filter(key__contains=key, initials_only=False)
    return found.order_by("name")[:MOST_FOUND]


def player_renamed(player: Player) -> None:
    """After a player's new name is saved (the admin): every board of their matches drawn from
    now on shows it (a seat they left to someone too), and what else follows a name is told
    (tables/seams.py)."""
    played = Q(seats__player=player) | Q(seat_turns__player=player)
    Match.objects.filter(played).update(updated_at=timezone.now())
    seams.player_renamed(player)
