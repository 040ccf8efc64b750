"""Nothing doubled, nothing lost, nothing destroyed.

The same tap arriving twice is recorded once; every change is kept with who made it and can be
reverted as a new change; a correction of a hand someone else changed meanwhile is refused; and
an open scoreboard learns of another phone's entry by a cheap poll.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Change, EntryKey, Hand, Match, Play
from tests.access.conftest import Persona
from tests.seated import changes_said, named_plays
from tests.web.pages import HTMX, content, text, totals
from tests.web.table import correction, seat_of

BEFORE = [65, 35, 5, 0]
STALE = (
    "Someone changed this hand since you opened it; nothing was saved. Here it is as it is now: "
    "make your correction again if it is still needed."
)


def scoreboard(client: Client, match: Match) -> HttpResponse:
    response = client.get(reverse("tables:scoreboard", args=[match.pk]))
    assert response.status_code == 200
    return response


def entry_key_on(page: HttpResponse) -> str:
    """The one-time key the page's entry forms carry."""
    keys = set(re.findall(r'name="entry_key" value="([^"]+)"', content(page)))
    assert len(keys) == 1, keys
    return keys.pop()


def tap(client: Client, match: Match, data: dict, *, key: str, htmx: bool = True, view="play"):
    name = {"play": "record_play", "end": "end_hand", "undo": "undo"}[view]
    if "player" in data:
        # the player by name here, posted by seat as the board does
        data = {**data, "player": seat_of(match, data["player"])}
    return client.post(
        reverse(f"tables:{name}", args=[match.pk]),
        {**data, "entry_key": key},
        headers=HTMX if htmx else {},
    )


def plays(match: Match) -> list[tuple[int, int, str, int]]:
    """(hand, play, player, points) of every stored play."""
    return list(
        named_plays(Play.objects.filter(hand__match=match))
        .order_by("hand__number", "number")
        .values_list("hand__number", "number", "player", "points")
    )


def hands(match: Match) -> list[tuple[int, str]]:
    return list(Hand.objects.filter(match=match).values_list("number", "end_how"))


def changes(match: Match) -> list[tuple[int, str, str]]:
    return changes_said(match)


def changes_stored(match: Match) -> list[tuple]:
    """Every change as stored, to show that later changes leave earlier ones alone."""
    return list(
        Change.objects.filter(match=match)
        .order_by("number")
        .values_list("number", "kind", "params", "made_by", "made_at", "before", "after")
    )


PLAYED = [(1, 1, "Ana", 10), (1, 2, "Bo", 15), (2, 1, "Bo", 20), (3, 1, "Cy", 5)]


# -- the same tap twice ----------------------------------------------------------------------------


def test_a_double_tap_is_recorded_once_and_both_answers_show_the_same_board(
    scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))

    first = tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key=key)
    second = tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key=key)

    assert (first.status_code, second.status_code) == (200, 200)
    assert totals(first) == totals(second) == [75, 35, 5, 0]
    assert plays(match) == [*PLAYED, (3, 2, "Ana", 10)]
    assert changes(match)[-1] == (3, "Ana scored 10", "sam")
    assert EntryKey.objects.filter(match=match).count() == 1


def test_a_form_sent_again_after_a_dropped_connection_is_answered_like_the_first_time(
    link_scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(link_scorekeeper.client, match))

    first = tap(
        link_scorekeeper.client, match, {"player": "Di", "points": "15"}, key=key, htmx=False
    )
    again = tap(
        link_scorekeeper.client, match, {"player": "Di", "points": "15"}, key=key, htmx=False
    )

    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == reverse("tables:scoreboard", args=[match.pk])
    assert totals(scoreboard(link_scorekeeper.client, match)) == [65, 35, 5, 15]
    assert plays(match) == [*PLAYED, (3, 2, "Di", 15)]


def test_a_retry_that_arrives_after_another_phones_entry_is_still_not_recorded_again(
    scorekeeper: Persona, link_scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))
    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key=key)
    other = entry_key_on(scoreboard(link_scorekeeper.client, match))
    tap(link_scorekeeper.client, match, {"player": "Bo", "points": "20"}, key=other)

    retry = tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key=key)

    assert retry.status_code == 200
    assert totals(retry) == [75, 55, 5, 0]
    assert plays(match) == [*PLAYED, (3, 2, "Ana", 10), (3, 3, "Bo", 20)]


def test_a_different_tap_on_the_same_form_is_a_second_entry(
    scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))

    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key=key)
    second = tap(scorekeeper.client, match, {"player": "Bo", "points": "15"}, key=key)

    assert second.status_code == 200
    assert totals(second) == [75, 50, 5, 0]
    assert plays(match) == [*PLAYED, (3, 2, "Ana", 10), (3, 3, "Bo", 15)]
    assert [action for _, action, _ in changes(match)[-2:]] == ["Ana scored 10", "Bo scored 15"]


def test_the_end_of_a_hand_sent_twice_ends_that_hand_and_not_the_next_one_too(
    scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))
    end = {"out": "2", "pips_0": "4", "pips_1": "6", "pips_3": "5"}

    first = tap(scorekeeper.client, match, end, key=key, view="end")
    second = tap(scorekeeper.client, match, end, key=key, view="end")

    assert totals(first) == totals(second) == [65, 35, 20, 0]
    assert hands(match) == [(1, "domino"), (2, "blocked"), (3, "domino")]


@pytest.mark.parametrize("htmx", [True, False])
def test_the_play_that_won_the_match_sent_again_is_answered_like_the_first_time(
    scorekeeper: Persona, match: Match, htmx: bool
) -> None:
    """A phone whose answer was lost sends the winning play again: the match is over, but this
    is no new entry, so it is not refused as one ("Not recorded" on a play that was)."""
    key = entry_key_on(scoreboard(scorekeeper.client, match))
    # 65 + 185 = 250: Ana reaches the target (a play over 35 is kept on the table's say)
    won = {"player": "0", "points": "185", "override": "on"}

    first = tap(scorekeeper.client, match, won, key=key, htmx=htmx)
    again = tap(scorekeeper.client, match, won, key=key, htmx=htmx)

    assert first.status_code == again.status_code == (200 if htmx else 302)
    assert "Ana wins the match." in text(scoreboard(scorekeeper.client, match))
    if htmx:
        assert totals(again) == [250, 35, 5, 0]
        assert "nothing more can be recorded" not in text(again)
    assert plays(match) == [*PLAYED, (3, 2, "Ana", 185)]
    assert EntryKey.objects.filter(match=match).count() == 1


def test_the_end_of_hand_that_won_the_match_sent_again_is_answered_like_the_first_time(
    scorekeeper: Persona, match: Match
) -> None:
    tap(
        scorekeeper.client,
        match,
        {"player": "0", "points": "180", "override": "on"},
        key=entry_key_on(scoreboard(scorekeeper.client, match)),
    )
    key = entry_key_on(scoreboard(scorekeeper.client, match))
    # Ana goes out: 4 + 6 + 5 = 15 more, 260
    end = {"out": "0", "pips_1": "4", "pips_2": "6", "pips_3": "5"}

    first = tap(scorekeeper.client, match, end, key=key, view="end")
    again = tap(scorekeeper.client, match, end, key=key, view="end")

    assert first.status_code == again.status_code == 200
    assert totals(first) == totals(again) == [260, 35, 5, 0]
    assert "nothing more can be recorded" not in text(again)
    assert hands(match) == [(1, "domino"), (2, "blocked"), (3, "domino")]


def test_a_preview_asked_as_the_match_ended_shows_nothing_and_refuses_nothing(
    scorekeeper: Persona, match: Match
) -> None:
    """The pips were being typed on one phone when the match was won: the preview that typing
    asks for has nothing to show, and is no refused entry (no 422 on the phone's console)."""
    won = {"player": "0", "points": "185", "override": "on"}
    tap(scorekeeper.client, match, won, key=entry_key_on(scoreboard(scorekeeper.client, match)))
    typed = {"out": "0", "pips_1": "4", "preview": "1"}

    preview = tap(scorekeeper.client, match, typed, key="late", view="end")

    assert preview.status_code == 204
    assert hands(match) == [(1, "domino"), (2, "blocked"), (3, "")]


def test_undo_tapped_twice_takes_back_one_entry(scorekeeper: Persona, match: Match) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))

    tap(scorekeeper.client, match, {}, key=key, view="undo")
    tap(scorekeeper.client, match, {}, key=key, view="undo")

    # Cy's 5 went (and with it the empty hand 3); hand 2's end stays
    assert hands(match) == [(1, "domino"), (2, "blocked")]
    assert plays(match) == PLAYED[:3]


def test_delete_tapped_twice_deletes_one_hand_not_the_one_that_moved_into_its_place(
    scorekeeper: Persona, match: Match
) -> None:
    key = entry_key_on(scoreboard(scorekeeper.client, match))
    url = reverse("tables:delete_hand", args=[match.pk, 2])

    scorekeeper.client.post(url, {"entry_key": key})
    again = scorekeeper.client.post(url, {"entry_key": key})

    assert again.status_code == 302
    assert hands(match) == [(1, "domino"), (2, "")]
    assert plays(match) == [(1, 1, "Ana", 10), (1, 2, "Bo", 15), (2, 1, "Cy", 5)]


# -- history ---------------------------------------------------------------------------------------


def history(client: Client, match: Match) -> list[tuple[int, str, str]]:
    """The history page's changes, newest first: (number, action, who)."""
    response = client.get(reverse("tables:history", args=[match.pk]))
    assert response.status_code == 200
    found = re.findall(
        r'<li id="change-(\d+)"[^>]*>\s*<details>\s*<summary><strong>(.*?)</strong> '
        r'<span class="muted">by (.*?), ',
        content(response),
    )
    return [(int(number), action, who) for number, action, who in found]


def correct_hand_1(client: Client, match: Match, *, ana: int, fingerprint: str) -> HttpResponse:
    """Hand 1 with Ana's first play made ``ana`` points; everything else as it was."""
    data = {
        "play-0-player": "Ana",
        "play-0-points": str(ana),
        "play-1-player": "Bo",
        "play-1-points": "15",
        "out": "0",
        "pips_1": "12",
        "pips_2": "9",
        "pips_3": "11",
        # the fingerprint of the hand as the page showed it, not as it is now
        "fingerprint": fingerprint,
    }
    return client.post(reverse("tables:edit_hand", args=[match.pk, 1]), correction(match, 1, data))


def correction_form(client: Client, match: Match, number: int) -> tuple[HttpResponse, str]:
    """The correction form as a phone loads it, and the fingerprint it carries."""
    response = client.get(reverse("tables:edit_hand", args=[match.pk, number]))
    assert response.status_code == 200
    found = re.search(r'name="fingerprint" value="([0-9a-f]+)"', content(response))
    assert found is not None
    return response, found.group(1)


def test_every_change_is_listed_in_the_history_with_who_made_it(
    scorekeeper: Persona,
    link_scorekeeper: Persona,
    organizer: Persona,
    owner: Persona,
    match: Match,
) -> None:
    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key="k1")
    end = {"out": "2", "pips_0": "4", "pips_1": "6", "pips_3": "5"}
    tap(link_scorekeeper.client, match, end, key="k2", view="end")
    _, fingerprint = correction_form(organizer.client, match, 1)
    correct_hand_1(organizer.client, match, ana=15, fingerprint=fingerprint)
    owner.client.post(reverse("tables:delete_hand", args=[match.pk, 2]), {"entry_key": "k3"})
    tap(link_scorekeeper.client, match, {}, key="k4", view="undo")

    assert history(Client(), match) == [
        (7, "Undo of the end of hand 2", "Bea"),
        (6, "Hand 2 deleted", "rosa"),
        (5, "Hand 1 corrected", "olga"),
        (4, "Hand ended: Cy dominoed", "Bea"),
        (3, "Ana scored 10", "sam"),
        (2, "Cy scored 5", "sam"),
        (1, "Match started", "rosa"),
    ]
    latest = text(scoreboard(Client(), match))
    assert "Last change: Undo of the end of hand 2, by Bea," in latest


def test_a_change_keeps_the_hand_it_changed_before_and_after_it(
    scorekeeper: Persona, match: Match
) -> None:
    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key="k1")

    change = Change.objects.get(match=match, number=3)

    assert change.user.username == "sam"
    # a tap changes the hand being played, hand 3: hands 1 and 2 are not written again
    assert change.from_hand == 3
    # players by seat: Ana in seat 1 ("0"), Cy in seat 3 ("2")
    assert change.before == [{"leader": "0", "plays": [{"player": "2", "points": 5}]}]
    assert change.after == [
        {
            "leader": "0",
            "plays": [{"player": "2", "points": 5}, {"player": "0", "points": 10}],
        }
    ]
    page = text(scorekeeper.client.get(reverse("tables:history", args=[match.pk])))
    assert "Hands before: 3; after: 3. Changed from hand 3 on:" in page


def test_a_correction_keeps_the_hand_corrected_and_the_hands_after_it(
    scorekeeper: Persona, match: Match
) -> None:
    _, fingerprint = correction_form(scorekeeper.client, match, 1)
    correct_hand_1(scorekeeper.client, match, ana=15, fingerprint=fingerprint)
    scorekeeper.client.post(reverse("tables:delete_hand", args=[match.pk, 2]), {"entry_key": "k"})

    corrected, deleted = Change.objects.filter(match=match, number__in=[3, 4]).order_by("number")

    assert (corrected.from_hand, corrected.hand_count_before, corrected.hand_count_after) == (
        1,
        3,
        3,
    )
    assert corrected.before[0]["plays"][0] == {"player": "0", "points": 10}
    assert corrected.after[0]["plays"][0] == {"player": "0", "points": 15}
    # hand 3 moved up to be hand 2: from hand 2 on, both hands differ
    assert (deleted.from_hand, len(deleted.before), len(deleted.after)) == (2, 2, 1)
    assert deleted.after == deleted.before[1:]


def test_a_revert_puts_the_hands_back_as_a_new_change_and_destroys_nothing(
    scorekeeper: Persona, match: Match
) -> None:
    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key="k1")
    end = {"out": "2", "pips_0": "4", "pips_1": "6", "pips_3": "5"}
    tap(scorekeeper.client, match, end, key="k2", view="end")
    earlier = changes_stored(match)

    response = scorekeeper.client.post(reverse("tables:revert", args=[match.pk, 3]), follow=True)

    # back to just before "Ana scored 10": Cy's 5 only, hand 3 still being played
    assert totals(scoreboard(scorekeeper.client, match)) == BEFORE
    assert plays(match) == PLAYED
    assert hands(match) == [(1, "domino"), (2, "blocked"), (3, "")]
    assert changes_stored(match)[:4] == earlier
    assert changes(match)[4] == (5, "Reverted change 3 (Ana scored 10)", "sam")
    assert Change.objects.get(match=match, number=5).reverts.number == 3
    assert "Change 3 and the 1 change after it reverted" in text(response)


def test_a_revert_can_itself_be_reverted(scorekeeper: Persona, match: Match) -> None:
    tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key="k1")
    after_play = plays(match)
    scorekeeper.client.post(reverse("tables:revert", args=[match.pk, 3]))
    earlier = changes_stored(match)

    scorekeeper.client.post(reverse("tables:revert", args=[match.pk, 4]))

    assert plays(match) == after_play
    assert totals(scoreboard(scorekeeper.client, match)) == [75, 35, 5, 0]
    assert changes_stored(match)[:4] == earlier
    assert [number for number, _, _ in changes(match)] == [1, 2, 3, 4, 5]


# -- the stale correction --------------------------------------------------------------------------


def test_a_correction_of_a_hand_someone_changed_meanwhile_is_refused_and_shows_it_as_it_is(
    scorekeeper: Persona, link_scorekeeper: Persona, match: Match
) -> None:
    _, loaded = correction_form(scorekeeper.client, match, 1)
    _, fresh = correction_form(link_scorekeeper.client, match, 1)
    assert (
        correct_hand_1(link_scorekeeper.client, match, ana=15, fingerprint=fresh).status_code == 302
    )
    changes_before = changes(match)

    response = correct_hand_1(scorekeeper.client, match, ana=20, fingerprint=loaded)

    assert response.status_code == 409
    assert STALE in text(response)
    # the form now shows the other phone's correction, to start again from
    assert 'name="play-0-points" value="15"' in content(response)
    assert plays(match)[:2] == [(1, 1, "Ana", 15), (1, 2, "Bo", 15)]
    assert changes(match) == changes_before


def test_a_correction_of_a_hand_deleted_meanwhile_does_not_land_on_the_hand_now_in_its_place(
    scorekeeper: Persona, owner: Persona, match: Match
) -> None:
    _, loaded = correction_form(scorekeeper.client, match, 1)
    owner.client.post(reverse("tables:delete_hand", args=[match.pk, 1]), {"entry_key": "k1"})
    before = plays(match)

    response = correct_hand_1(scorekeeper.client, match, ana=20, fingerprint=loaded)

    assert response.status_code == 409
    assert STALE in text(response)
    assert plays(match) == before == [(1, 1, "Bo", 20), (2, 1, "Cy", 5)]


def test_a_correction_loaded_before_nothing_changed_is_saved(
    scorekeeper: Persona, match: Match
) -> None:
    _, loaded = correction_form(scorekeeper.client, match, 1)
    tap(scorekeeper.client, match, {"player": "Di", "points": "5"}, key="k1")  # another hand

    response = correct_hand_1(scorekeeper.client, match, ana=20, fingerprint=loaded)

    assert response.status_code == 302
    assert plays(match)[0] == (1, 1, "Ana", 20)


# -- the live scoreboard ---------------------------------------------------------------------------


def poll(client: Client, match: Match, version: int | str, **headers: str) -> HttpResponse:
    return client.get(reverse("tables:live", args=[match.pk]), {"v": version}, headers=headers)


def version_on(page: HttpResponse, match: Match) -> str:
    found = re.search(
        rf'hx-get="{reverse("tables:live", args=[match.pk])}\?v=(\d+)"', content(page)
    )
    assert found is not None, "the page does not poll for changes"
    return found.group(1)


def test_a_poll_while_nothing_changed_is_answered_304_with_nothing_in_it(
    link_viewer: Persona, match: Match
) -> None:
    seen = version_on(scoreboard(link_viewer.client, match), match)

    response = poll(link_viewer.client, match, seen, **HTMX)

    assert seen == "2"
    assert response.status_code == 304
    assert response.content == b""


def test_a_poll_after_another_phones_entry_brings_the_new_total_and_who_entered_it(
    link_viewer: Persona, link_scorekeeper: Persona, match: Match
) -> None:
    seen = version_on(scoreboard(link_viewer.client, match), match)
    tap(link_scorekeeper.client, match, {"player": "Di", "points": "25"}, key="k1")

    response = poll(link_viewer.client, match, seen, **HTMX)

    assert response.status_code == 200
    assert totals(response) == [65, 35, 5, 25]
    assert "Last change: Di scored 25, by Bea," in text(response)
    # the next poll asks about the new version, and is answered 304 again
    assert version_on(response, match) == "3"
    assert poll(link_viewer.client, match, "3", **HTMX).status_code == 304


def test_a_poll_answer_gives_a_watcher_no_buttons_to_change_the_hands(
    link_viewer: Persona, scorekeeper: Persona, match: Match
) -> None:
    tap(scorekeeper.client, match, {"player": "Di", "points": "25"}, key="k1")

    watched = content(poll(link_viewer.client, match, "2", **HTMX))
    kept_score = content(poll(scorekeeper.client, match, "2", **HTMX))

    delete = reverse("tables:delete_hand", args=[match.pk, 1])
    assert delete not in watched
    assert delete in kept_score


def test_a_poll_for_the_end_of_the_match_on_another_phone_reloads_the_page(
    link_viewer: Persona, scorekeeper: Persona, match: Match
) -> None:
    # Ana has 65 of 250: 185 more ends the match
    for n, points in enumerate((35, 35, 35, 35, 35, 10)):
        tap(scorekeeper.client, match, {"player": "Ana", "points": str(points)}, key=f"k{n}")
    assert Match.objects.get(pk=match.pk).finished

    response = poll(link_viewer.client, match, "2", **HTMX)

    assert response["HX-Refresh"] == "true"
    assert "Ana wins the match." in text(response)


@pytest.mark.parametrize("persona", ["link_viewer", "scorekeeper"], indirect=True)
def test_a_poll_that_draws_the_end_committed_as_it_asked_names_it_and_reloads_the_page(
    persona: Persona, scorekeeper: Persona, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream tells a page of one play while the next commits: the poll asked about the
    first reads the match again to draw it, and finds the match over. What it draws is what it
    names (the next poll is not told "unchanged" of a page it never reloaded)."""
    from scorekeeper.table_pages import history

    for n, points in enumerate((35, 35, 35, 35, 35)):
        tap(scorekeeper.client, match, {"player": "Ana", "points": str(points)}, key=f"k{n}")
    drawn = history.match_to_watch

    def the_last_play_commits_first(request, pk):
        tap(scorekeeper.client, match, {"player": "Ana", "points": "10"}, key="last")
        return drawn(request, pk)

    monkeypatch.setattr(history, "match_to_watch", the_last_play_commits_first)
    cache.clear()  # nothing drawn for watchers yet: the poll draws
    response = poll(persona.client, match, "2", **HTMX)

    ended = Match.objects.get(pk=match.pk)
    assert ended.finished
    assert response["HX-Refresh"] == "true"
    assert "Ana wins the match." in text(response)
    assert response["ETag"] == f'"{ended.poll_version}"'


@pytest.mark.parametrize("persona", ["stranger", "link_viewer", "scorekeeper"], indirect=True)
def test_a_poll_while_nothing_changed_costs_at_most_two_queries(
    persona: Persona, match: Match, django_assert_max_num_queries
) -> None:
    seen = version_on(scoreboard(persona.client, match), match)

    with django_assert_max_num_queries(2):
        response = poll(persona.client, match, seen, **HTMX)

    assert response.status_code == 304
