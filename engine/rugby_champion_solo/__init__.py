"""Rugby Champion, solo mode: one person against the game (registers rule set and aware player)."""

from engine.rugby_champion_solo.player import RugbyChampionAwarePlayer
from engine.rugby_champion_solo.rules import RugbyChampionSoloState

__all__ = ["RugbyChampionAwarePlayer", "RugbyChampionSoloState"]
