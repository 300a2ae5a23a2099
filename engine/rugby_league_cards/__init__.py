"""Rugby League with a 52-card deck: registers the rule set and its players."""

from engine.rugby_league_cards.player import RugbyLeagueClubPlayer
from engine.rugby_league_cards.rules import (
    CARD_NAMES,
    RugbyLeagueCardsState,
    card_name,
    parse_card,
    parse_cards,
)

__all__ = ["CARD_NAMES", "RugbyLeagueClubPlayer", "RugbyLeagueCardsState", "card_name", "parse_card", "parse_cards"]
