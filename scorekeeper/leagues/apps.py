from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # what a match at a table is told of the season it belongs to, and what moves with
        # its result (tables/seams.py); the club whose organizers may change a league's
        # matches (access/clubs.py)
        from scorekeeper.access import seams as access
        from scorekeeper.leagues.models import (
            MATCH_SEASON_ENTRY,
            in_a_season,
            league_members,
            season_topics,
        )
        from scorekeeper.leagues.moves import player_renamed, result_moved
        from scorekeeper.tables import seams as tables

        access.plug(
            match_club="league_entry__season__league__club_id", player_clubs="leagues__club"
        )

        tables.plug(
            locked_match_joins=[MATCH_SEASON_ENTRY],
            shown_on_boards=in_a_season,
            league_members=league_members,
            result_moved=result_moved,
            player_renamed=player_renamed,
            live_topics=season_topics,
        )
