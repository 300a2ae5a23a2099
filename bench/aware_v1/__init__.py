"""The computer players as they were before issue 20 ("aware"), frozen for the benchmarks.

``bench/engine.py`` and ``bench/levels.py`` play the new *club* players against these to show that making
them fast lost no strength (issue 17 item 5). Not used by the engine or the site: do not edit them, except
to follow a rename of a rule set's constants. Each reads ``view(seat)`` on every move, as before.
"""

from __future__ import annotations

from bench.aware_v1.bokx import AwareBokxPlayer
from bench.aware_v1.rugby_champion_solo import RugbyChampionAwarePlayer
from bench.aware_v1.rugby_league_cards import RugbyLeagueAwarePlayer
from bench.aware_v1.seasons import SeasonsAwarePlayer
from engine.players import Player

OLD_AWARE: dict[str, type[Player]] = {
    "bokx": AwareBokxPlayer,
    "rugby-league-cards": RugbyLeagueAwarePlayer,
    "seasons": SeasonsAwarePlayer,
    "rugby-champion-solo": RugbyChampionAwarePlayer,
}
