"""Seasons: the two-player football card game of eleven seasons (registers rule set and aware player)."""

from engine.seasons.player import SeasonsAwarePlayer
from engine.seasons.rules import SeasonsState, score_season, season_points

__all__ = ["SeasonsAwarePlayer", "SeasonsState", "score_season", "season_points"]
