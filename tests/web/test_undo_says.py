"""Undo always says what it takes back: whatever a Sedma table has entered (doubles, hands
that ended blocked, with nobody out or refused, undos one after another), the button reads
"Undo: " and an entry, on the answer to the entry and on the board drawn afresh, or is not
offered."""

from __future__ import annotations

import re

from django.http import HttpResponse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.table import FOUR, board, lay, post, scorekeeper_client, stored

#: the Undo button's words, markup left out
UNDO = re.compile(r'<button class="btn btn-undo" type="submit">(.*?)</button>', re.S)
SAYS = re.compile(r"↶ Undo: \S")

STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("lay"), st.sampled_from(FOUR), st.integers(0, 6)),
        st.tuples(st.just("end"), st.sampled_from(["blocked", "domino", ""]), st.just(0)),
        st.tuples(st.just("undo"), st.just(""), st.just(0)),
    ),
    max_size=12,
)


def undo_buttons(response: HttpResponse) -> list[str]:
    return [" ".join(words.split()) for words in UNDO.findall(response.content.decode())]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS, htmx=st.booleans())
def test_undo_names_what_it_takes_back_after_any_sedma_entries(
    db: None, steps: list[tuple[str, str, int]], htmx: bool
) -> None:
    match = stored("sedma", *FOUR)
    client = scorekeeper_client()

    for kind, what, double in steps:
        if kind == "lay":
            answer = lay(client, match, what, f"{double}-{double}", htmx=htmx)
        elif kind == "end":
            answer = post(client, "end_hand", match, {"how": what}, htmx=htmx)
        else:
            answer = post(client, "undo", match, {}, htmx=htmx)

        for says in undo_buttons(answer) + undo_buttons(board(client, match)):
            assert SAYS.match(says), (kind, what, says)
