"""The Seasons club player: a look-ahead over the draft that knows the draft goes on.

Both teams and the draft are public, so the player can weigh each of its exchanges
(and passing) against the opponent's best reply. What makes it play well against
itself as well as against people:

* a pass ends the draft only after the opponent's pass; otherwise the opponent may still
  exchange, and after its exchange this player may answer -- so a position after a reply
  is judged as it stands (the season as it would be scored), not as final;
* among moves that the opponent's best reply makes equal, it prefers the move that is
  best if the opponent cannot answer it well, then the stronger team for the seasons to
  come (strikers and a long run), and exchanges over passing. (The former "aware" player
  broke ties towards passing, assuming the reply ended the draft: two of them let 44% of
  seasons end 0-0 and 43% of drafts pass without an exchange.)

Teams are scored as bitmasks through a cached table of their features (count of strikers,
multiplier of their longest run), so a move costs a few hundred dictionary look-ups.
It reads only ``view(seat)`` (its ``player_board``: the teams, the draft and the counts).
"""

from __future__ import annotations

import math
import random

from engine.core import GameState, View
from engine.players import Player, register_player
from engine.search import SearchPlayer, normal_cdf, result_value
from engine.seasons.rules import (
    DEFENDER_RANKS,
    MELD_MULTIPLIER,
    PASS,
    RANKS,
    SEASONS,
    STRIKER_RANKS,
    SeasonsState,
    swap_action,
)

SUIT_ORDER = "SHDC"
# A card as a bit: suit * 13 + rank index (ranks 2..A as 0..12).
BIT = {r + s: 1 << (SUIT_ORDER.index(s) * 13 + RANKS.index(r)) for s in SUIT_ORDER for r in RANKS}
STRIKER_BITS = sum(bit for card, bit in BIT.items() if card[0] in STRIKER_RANKS)
_DEFENDER_SPAN = len(DEFENDER_RANKS)  # ranks 0..8 are defenders, 9..12 strikers


def _longest_run(bits: int) -> int:
    best = run = 0
    while bits:
        if bits & 1:
            run += 1
            best = max(best, run)
        else:
            run = 0
        bits >>= 1
    return best


# Longest same-kind run within one suit's 13 rank bits (runs never cross 10-J: INTERPRETATIONS #4).
_SUIT_RUN = [max(_longest_run(m & ((1 << _DEFENDER_SPAN) - 1)), _longest_run(m >> _DEFENDER_SPAN))
             for m in range(1 << 13)]
_MULTIPLIER = [MELD_MULTIPLIER.get(min(run, 5), 1) for run in range(14)]
# Teams recur from move to move within a match: a bounded cache of their features.
_FEATURES: dict[int, tuple[int, int]] = {}
_FEATURES_MAX = 50_000


def features(team: int) -> tuple[int, int]:
    """(strikers, multiplier) of a team bitmask (the multiplier of its longest run; 1 without one)."""
    found = _FEATURES.get(team)
    if found is None:
        run = _SUIT_RUN
        found = ((team & STRIKER_BITS).bit_count(),
                 _MULTIPLIER[max(run[team & 0x1FFF], run[(team >> 13) & 0x1FFF], run[(team >> 26) & 0x1FFF],
                                 run[team >> 39])])
        if len(_FEATURES) >= _FEATURES_MAX:
            _FEATURES.clear()
        _FEATURES[team] = found
    return found


def season_value(mine: int, theirs: int) -> int:
    """How good team ``mine`` is against ``theirs`` this season: the result first (+/-100), then the margin.

    The same scoring as the rules' ``score_season`` (a team is five cards, so a striker surplus of n is a
    defender deficit of n): a surplus is multiplied by the owner's run.
    """
    return _value(features(mine), features(theirs))


def _value(mine: tuple[int, int], theirs: tuple[int, int]) -> int:
    diff = mine[0] - theirs[0]
    if diff > 0:  # 2 per surplus striker for us, 1 per surplus defender for them
        a, b = 2 * diff * mine[1], diff * theirs[1]
    elif diff < 0:
        a, b = -diff * mine[1], -2 * diff * theirs[1]
    else:
        return 0
    return 100 * ((a > b) - (a < b)) + a - b


def team_strength(team: int) -> int:
    """A team's worth for the seasons to come: strikers, and the multiplier of its run."""
    strikers, mult = features(team)
    return 2 * strikers + mult


@register_player("seasons", "club")
class SeasonsClubPlayer(Player):
    """Chooses the exchange (or pass) that is best against the opponent's best reply; see the module."""

    level = "club"
    needs_view = True

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view is not None and view["seat"] is not None
        me = view["seat"]
        board = view["board"]
        team_cards, draft_cards = board["teams"][me], board["draft"]
        mine, theirs = _mask(team_cards), _mask(board["teams"][1 - me])
        their_now = features(theirs)
        value = _value
        # The opponent's replies, by the card it would take (one of the draft cards we leave, or the one we
        # release): only the features of the team it would make matter.
        replies: dict[int, set[tuple[int, int]]] = {}
        if board["exchanges"][1 - me] < board["max_exchanges"]:
            their_cards = _bits(theirs)
            for card in (*draft_cards, *team_cards):
                bit = BIT[card]
                replies[bit] = {features(theirs - give + bit) for give in their_cards}
        draft = [BIT[c] for c in draft_cards]
        # worst[f][bit]: our season, with team features f, after the opponent's best reply taking ``bit``.
        worst_by_bit: dict[tuple[int, int], dict[int, int]] = {}

        def worst(team: tuple[int, int], pool: list[int]) -> int:
            """Our season after the opponent's best reply (its pass leaves the season as it stands)."""
            table = worst_by_bit.get(team)
            if table is None:
                base = value(team, their_now)
                table = worst_by_bit[team] = {bit: min([base, *(value(team, t) for t in found)])
                                              for bit, found in replies.items()}
                table[0] = base
            result = table[0]
            for bit in pool:
                v = table.get(bit, result)
                if v < result:
                    result = v
            return result

        mine_now = features(mine)
        now = value(mine_now, their_now)
        # Passing: after the opponent's pass it ends the draft; otherwise the opponent may still exchange.
        best = PASS
        best_key = (now if board["passes"] >= 1 else worst(mine_now, draft), now, 2 * mine_now[0] + mine_now[1],
                    True)
        for i, take in enumerate(draft_cards):
            take_bit = BIT[take]
            rest = draft[:i] + draft[i + 1:]
            for give in team_cards:
                give_bit = BIT[give]
                feats = features(mine - give_bit + take_bit)
                # Their pass or exchange leaves us to act again: the season as it would then stand. Ties: the
                # better position if the reply is weak, then the stronger team, then passing (an exchange that
                # changes nothing is not worth making).
                key = (worst(feats, [*rest, give_bit]), value(feats, their_now), 2 * feats[0] + feats[1], False)
                if key > best_key:
                    best, best_key = swap_action(take, give), key
        return best


def _mask(cards: list[str]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


@register_player("seasons", "international")
class SeasonsInternationalPlayer(SearchPlayer):
    """Plays each exchange (and passing) out: the rest of the draft and the season after it by club play from
    both sides, over fresh stocks (only the order of the stock is hidden), then judges the match."""

    move_iterations = 160
    simulation_iterations = 40
    horizon = 40

    def make_club(self) -> Player:
        return SeasonsClubPlayer()

    def marker(self, state: GameState) -> object:
        assert isinstance(state, SeasonsState)
        return state.season

    def settled(self, state: GameState, start: object) -> bool:
        assert isinstance(state, SeasonsState) and isinstance(start, int)
        return state.season > start + 1

    def evaluate(self, state: GameState, seat: int) -> float:
        assert isinstance(state, SeasonsState)
        if state.over:
            return result_value(state, seat)
        halves = state.halves_won()
        lead = (halves[seat] - halves[1 - seat]) / 2
        left = SEASONS - state.season
        strength = team_strength(_mask(state.teams[seat])) - team_strength(_mask(state.teams[1 - seat]))
        return normal_cdf((lead + 0.05 * strength) / (0.6 * math.sqrt(left) + 0.3))
