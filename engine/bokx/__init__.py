"""RUGBY_Bokx, the dice board game (rule set id ``bokx``): registers the rule set and its players."""

from engine.bokx import field
from engine.bokx.player import BokxClubPlayer
from engine.bokx.rules import BokxState

__all__ = ["BokxClubPlayer", "BokxState", "field"]
