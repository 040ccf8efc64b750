from __future__ import annotations

from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scorekeeper.nights"
    label = "nights"
    verbose_name = "League nights"

    def ready(self) -> None:
        """Plug the nights into the seams of the apps below (docs/development.md, *Layers*):
        what a match at a table, a season and the access rules are told of a league night."""
        from scorekeeper.access import seams as access
        from scorekeeper.leagues import seams as leagues
        from scorekeeper.nights import desk, live, sign_views, signing, tournament
        from scorekeeper.nights.models import at_a_night_on
        from scorekeeper.tables import seams as tables

        tables.plug(
            correction_refused=signing.correction_refused,
            time_called=desk.time_called,
            locked_match_joins=[desk.ROUND_OF_MATCH, *signing.STATE_JOINS],
            signing_part=sign_views.board_part,
            round_clock=desk.round_clock_of,
            is_tournament_match=tournament.is_tournament_match,
            live_topics=live.night_topics,
        )
        leagues.plug(
            awaits_signature=signing.awaits_signature,
            provisional_counts=signing.provisional_counts,
        )
        access.plug(
            at_a_night_on=at_a_night_on,
            match_directors="night_table__night_round__night__directors",
        )
