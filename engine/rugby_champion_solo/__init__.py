"""Rugby Champion, solo mode: one person against the game (registers rule set and players)."""

from engine.rugby_champion_solo.player import RugbyChampionClubPlayer
from engine.rugby_champion_solo.rules import RugbyChampionSoloState

__all__ = ["RugbyChampionClubPlayer", "RugbyChampionSoloState"]
