"""Rugby League with a 52-card deck: registers the rule set and its aware player."""

from engine.rugby_league_cards.player import RugbyLeagueAwarePlayer
from engine.rugby_league_cards.rules import (
    CARD_NAMES,
    RugbyLeagueCardsState,
    card_name,
    parse_card,
    parse_cards,
)

__all__ = ["CARD_NAMES", "RugbyLeagueAwarePlayer", "RugbyLeagueCardsState", "card_name", "parse_card", "parse_cards"]
