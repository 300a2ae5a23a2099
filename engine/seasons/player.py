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

Teams are bitmasks, scored through their "kind" (count of strikers and multiplier of the longest run: 24
kinds, cached per team) and a precomputed table of seasons between kinds. The opponent's replies are worked
out only for the exchanges that the season as it would stand does not already rule out, so a move costs a
few dozen look-ups.
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
    TEAM_SIZE,
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


_MULTIPLIERS = sorted({1, *MELD_MULTIPLIER.values()})  # 1, 3, 6, 9: they grow with the run
# Per suit's 13 rank bits: the index in _MULTIPLIERS of its longest same-kind run's multiplier (runs never cross
# 10-J: INTERPRETATIONS #4). A team's multiplier is that of its longest run: the largest index over the suits.
_SUIT_MULTIPLIER = [_MULTIPLIERS.index(MELD_MULTIPLIER.get(min(run, 5), 1))
                    for run in (max(_longest_run(m & ((1 << _DEFENDER_SPAN) - 1)), _longest_run(m >> _DEFENDER_SPAN))
                                for m in range(1 << 13))]


def _value(mine: tuple[int, int], theirs: tuple[int, int]) -> int:
    diff = mine[0] - theirs[0]
    if diff > 0:  # 2 per surplus striker for us, 1 per surplus defender for them
        a, b = 2 * diff * mine[1], diff * theirs[1]
    elif diff < 0:
        a, b = -diff * mine[1], -2 * diff * theirs[1]
    else:
        return 0
    return 100 * ((a > b) - (a < b)) + a - b


# A team's features (strikers, multiplier) take only 24 values: the player works with their number, the team's
# "kind" (strikers * 4 + the multiplier's index), so that a season between two kinds is one look-up in VALUE
# (the player's hot path) and a team's strength another.
KIND_FEATURES = [(strikers, mult) for strikers in range(TEAM_SIZE + 1) for mult in _MULTIPLIERS]
VALUE = [[_value(mine, theirs) for theirs in KIND_FEATURES] for mine in KIND_FEATURES]
STRENGTH = [2 * strikers + mult for strikers, mult in KIND_FEATURES]


class _Kinds(dict[int, int]):
    """Team bitmask -> its kind, worked out on first sight: teams recur from move to move within a match."""

    limit = 50_000

    def __missing__(self, team: int) -> int:
        suit = _SUIT_MULTIPLIER
        kind = (team & STRIKER_BITS).bit_count() * len(_MULTIPLIERS) + max(
            suit[team & 0x1FFF], suit[(team >> 13) & 0x1FFF], suit[(team >> 26) & 0x1FFF], suit[team >> 39])
        if len(self) >= self.limit:
            self.clear()
        self[team] = kind
        return kind


KINDS = _Kinds()


def features(team: int) -> tuple[int, int]:
    """(strikers, multiplier) of a team bitmask (the multiplier of its longest run; 1 without one)."""
    return KIND_FEATURES[KINDS[team]]


def season_value(mine: int, theirs: int) -> int:
    """How good team ``mine`` is against ``theirs`` this season: the result first (+/-100), then the margin.

    The same scoring as the rules' ``score_season`` (a team is five cards, so a striker surplus of n is a
    defender deficit of n): a surplus is multiplied by the owner's run.
    """
    return VALUE[KINDS[mine]][KINDS[theirs]]


def team_strength(team: int) -> int:
    """A team's worth for the seasons to come: strikers, and the multiplier of its run."""
    return STRENGTH[KINDS[team]]


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
        kinds = KINDS
        their_now = kinds[theirs]
        draft = [BIT[c] for c in draft_cards]
        # The opponent's replies take one of the draft cards we leave, or the one we release (none when it has
        # no exchange left: its pass leaves the season as it stands). Worked out only as far as asked: most
        # exchanges are ruled out by the season as it would stand.
        their_cards = _bits(theirs) if board["exchanges"][1 - me] < board["max_exchanges"] else []
        made: dict[int, set[int]] = {}  # card bit -> the kinds of the teams the opponent makes by taking it
        # after[kind][bit]: our season, with a team of that kind, after the opponent's best reply taking ``bit``
        # (or its pass).
        after: dict[int, dict[int, int]] = {}

        def after_reply(team: int, bit: int) -> int:
            """Works out ``after[team][bit]`` (``after[team]`` exists)."""
            theirs_made = made.get(bit)
            if theirs_made is None:
                theirs_made = made[bit] = {kinds[theirs - give + bit] for give in their_cards}
            row = VALUE[team]
            found = after[team][bit] = min([row[their_now], *[row[t] for t in theirs_made]])
            return found

        mine_now = kinds[mine]
        now = VALUE[mine_now][their_now]
        # Passing: after the opponent's pass it ends the draft; otherwise the opponent may still exchange.
        best = PASS
        if board["passes"] >= 1:
            season = now
        else:
            after[mine_now] = {}
            season = min([after_reply(mine_now, bit) for bit in draft], default=now)
        best_key = (season, now, STRENGTH[mine_now], True)
        for i, take in enumerate(draft_cards):
            take_bit = draft[i]
            rest = draft[:i] + draft[i + 1:]
            for give in team_cards:
                give_bit = BIT[give]
                kind = kinds[mine - give_bit + take_bit]
                # Their pass or exchange leaves us to act again: the season as it would then stand. Ties: the
                # better position if the reply is weak, then the stronger team, then passing (an exchange that
                # changes nothing is not worth making). A season no better than the best so far cannot make up
                # for it (the rest of the key only breaks ties): the search stops there.
                as_it_stands = VALUE[kind][their_now]
                if as_it_stands < best_key[0]:
                    continue
                season = as_it_stands
                table = after.get(kind)
                if table is None:
                    table = after[kind] = {}
                for bit in (give_bit, *rest):
                    value = table.get(bit)
                    if value is None:
                        value = after_reply(kind, bit)
                    if value < season:
                        season = value
                        if season < best_key[0]:
                            break
                if season < best_key[0]:
                    continue
                key = (season, as_it_stands, STRENGTH[kind], False)
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
