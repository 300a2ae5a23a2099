"""Seasons: the two-player football card game of eleven seasons (registers rule set and players)."""

from engine.seasons.player import SeasonsClubPlayer
from engine.seasons.rules import SeasonsState, score_season, season_points

__all__ = ["SeasonsClubPlayer", "SeasonsState", "score_season", "season_points"]
