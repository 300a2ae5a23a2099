"""RUGBY_Bokx, the dice board game (rule set id ``bokx``): registers the rule set and its aware player."""

from engine.bokx import field
from engine.bokx.player import AwareBokxPlayer
from engine.bokx.rules import BokxState

__all__ = ["AwareBokxPlayer", "BokxState", "field"]
