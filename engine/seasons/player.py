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
kinds) and a precomputed table of seasons between kinds. A team's kind is its count of strikers alone unless its
cards hold a run of three (one test on the bitmask: ``RUN_STARTS``), which spares most teams the cache of kinds.
The opponent's replies with one card are summed up as the set of kinds they make, and a move's worst season
against a union of such sets is one look-up (``_WORST``): a decision costs a few dozen look-ups (perf17q: with
the seat view, a lean club match takes 4.2 M instructions instead of 10.0 M, callgrind over seeds 0-199).
It reads only its seat view (:class:`~engine.seasons.rules.SeasonsSeatView`: the teams, the draft and the counts),
or the same keys of ``view(seat)``.
"""

from __future__ import annotations

import math
import random

from engine.core import GameState, SeatView, View
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
    SeasonsSeatView,
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
# VALUE by the opponent's kind first: the season as it stands, for each kind our team may take.
VALUE_AGAINST = [list(column) for column in zip(*VALUE, strict=True)]
KIND_SPAN = len(_MULTIPLIERS)  # kinds per count of strikers: a team without a run has kind strikers * KIND_SPAN


class _Kinds(dict[int, int]):
    """Team bitmask -> its kind, worked out on first sight: teams recur from move to move within a match."""

    limit = 50_000

    def __missing__(self, team: int) -> int:
        suit = _SUIT_MULTIPLIER
        kind = (team & STRIKER_BITS).bit_count() * KIND_SPAN + max(
            suit[team & 0x1FFF], suit[(team >> 13) & 0x1FFF], suit[(team >> 26) & 0x1FFF], suit[team >> 39])
        if len(self) >= self.limit:
            self.clear()
        self[team] = kind
        return kind


KINDS = _Kinds()

# The bits where a run of three cards of one kind can start (the bit and the next two in one suit, all defenders
# or all strikers): ``cards & cards >> 1 & cards >> 2 & RUN_STARTS`` is 0 when ``cards`` hold no run of three,
# so that no team made of some of them has a multiplier -- and its kind is its count of strikers alone, which
# spares most teams the work (and the cache) of ``KINDS``.
RUN_STARTS = sum(1 << (suit * 13 + rank) for suit in range(len(SUIT_ORDER)) for rank in range(len(RANKS) - 2)
                 if rank + 2 < _DEFENDER_SPAN or rank >= _DEFENDER_SPAN)


class _Worst(dict[int, int]):
    """For one kind of our team: a set of the opponent's kinds (a bitmask over the 24 kinds) -> our worst season
    against any of them, worked out on first sight. The sets asked for hold the kinds an opponent can reach with
    one exchange (its count of strikers moves by one at most: 12 kinds), so they are few (some 600 in all after
    300 matches)."""

    def __init__(self, row: list[int]):
        super().__init__()
        self.row = row

    def __missing__(self, theirs: int) -> int:
        worst = self[theirs] = min(value for kind, value in enumerate(self.row) if theirs >> kind & 1)
        return worst


_WORST = [_Worst(row) for row in VALUE]


def team_strength(team: int) -> int:
    """A team's worth for the seasons to come: strikers, and the multiplier of its run."""
    return STRENGTH[KINDS[team]]


def best_move(me: int, teams: list[list[str]], draft_cards: list[str], passes: int, they_can_exchange: bool) -> str:
    """The club player's exchange (or pass) for seat ``me``: see the module. ``they_can_exchange``: whether the
    opponent has an exchange left in this draft.

    A move's worth is the season after the opponent's best reply: the worst, for us, of the season as it stands
    and of the seasons after each exchange the opponent could make with a card we leave in the draft (or the one
    we release) -- one look-up in ``_WORST`` of the union of the kinds those replies make (``_replies``).
    """
    team_cards = teams[me]
    bit_of = BIT
    gives = [bit_of[card] for card in team_cards]
    their_gives = [bit_of[card] for card in teams[1 - me]]
    mine, theirs = sum(gives), sum(their_gives)  # the cards' bits are distinct: their sum is the team's bitmask
    kinds = KINDS
    strikers = (theirs & STRIKER_BITS).bit_count()
    plain = strikers * KIND_SPAN  # the opponent's kind when its team has no run of three (see RUN_STARTS)
    run = theirs & theirs >> 1 & theirs >> 2 & RUN_STARTS
    their_now = kinds[theirs] if run else plain
    # The opponent's replies: taking a card, the kinds its team can become (a bitmask over the kinds); none when
    # it has no exchange left, as its pass leaves the season as it stands.
    if they_can_exchange:
        # Without a run of three among its cards and the one it takes, the team it makes has no multiplier: taking
        # a defender keeps its strikers (giving a defender) or loses one; taking a striker gains one or keeps them.
        gives_defender = strikers < TEAM_SIZE
        gives_striker = strikers > 0
        takes_defender = (1 << plain if gives_defender else 0) | (1 << plain - KIND_SPAN if gives_striker else 0)
        takes_striker = (1 << plain + KIND_SPAN if gives_defender else 0) | (1 << plain if gives_striker else 0)
        # The cards that make a run of three with its team: any, if it has one; else the third card of a run
        # of which it holds two (the first, the middle or the last missing).
        if run:
            completing = -1
        else:
            next1, next2 = theirs >> 1, theirs >> 2
            completing = ((~theirs & next1 & next2 & RUN_STARTS) | (theirs & ~next1 & next2 & RUN_STARTS) << 1
                          | (theirs & next1 & ~next2 & RUN_STARTS) << 2)
        draft = [bit_of[card] for card in draft_cards]
        draft_replies = [_replies(theirs, their_gives, bit) if bit & completing
                         else takes_striker if bit & STRIKER_BITS else takes_defender for bit in draft]
        give_replies = [_replies(theirs, their_gives, bit) if bit & completing
                        else takes_striker if bit & STRIKER_BITS else takes_defender for bit in gives]
    else:
        draft = [bit_of[card] for card in draft_cards]
        draft_replies = [0] * len(draft)
        give_replies = [0] * len(gives)

    against_now = VALUE_AGAINST[their_now]  # our kind -> the season as it stands
    now_bit = 1 << their_now
    my_strikers = (mine & STRIKER_BITS).bit_count()
    mine_now = kinds[mine] if mine & mine >> 1 & mine >> 2 & RUN_STARTS else my_strikers * KIND_SPAN
    now = against_now[mine_now]
    # Passing: after the opponent's pass it ends the draft; otherwise the opponent may still exchange.
    if passes >= 1:
        season = now
    else:
        any_reply = now_bit
        for made in draft_replies:
            any_reply |= made
        season = _WORST[mine_now][any_reply]
    best = PASS
    best_key = (season, now, STRENGTH[mine_now], True)
    best_season = season
    # Our team's kind after giving each card, when no run can be made (see RUN_STARTS).
    plain_after = [(my_strikers - (give & STRIKER_BITS != 0)) * KIND_SPAN for give in gives]
    for i, take in enumerate(draft_cards):
        take_bit = draft[i]
        # The opponent's replies with the draft cards we leave (or its pass, leaving the season as it stands).
        others = now_bit
        for j, made in enumerate(draft_replies):
            if j != i:
                others |= made
        cards = mine | take_bit
        plain = not cards & cards >> 1 & cards >> 2 & RUN_STARTS
        takes = KIND_SPAN if take_bit & STRIKER_BITS else 0
        for j, give_bit in enumerate(gives):
            kind = plain_after[j] + takes if plain else kinds[cards - give_bit]
            # Their pass or exchange leaves us to act again: the season as it would then stand. Ties: the
            # better position if the reply is weak, then the stronger team, then passing (an exchange that
            # changes nothing is not worth making). A season no better than the best so far cannot make up
            # for it (the rest of the key only breaks ties): such a move is not looked at further.
            as_it_stands = against_now[kind]
            if as_it_stands < best_season:
                continue
            season = _WORST[kind][others | give_replies[j]]
            if season < best_season:
                continue
            key = (season, as_it_stands, STRENGTH[kind], False)
            if key > best_key:
                best, best_key, best_season = swap_action(take, team_cards[j]), key, season
    return best


def _replies(theirs: int, their_gives: list[int], bit: int) -> int:
    """The kinds (a bitmask over the kinds) the opponent's team ``theirs`` can become by taking ``bit``."""
    made = 0
    for give in their_gives:
        made |= 1 << KINDS[theirs - give + bit]
    return made


@register_player("seasons", "club")
class SeasonsClubPlayer(Player):
    """Chooses the exchange (or pass) that is best against the opponent's best reply; see the module."""

    level = "club"
    needs_view = True
    reads_seat_view = True  # the teams, the draft and its counts (SeasonsSeatView)
    uses_rng = False

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view is not None and view["seat"] is not None
        board = view["board"]
        me = view["seat"]
        return best_move(me, board["teams"], board["draft"], board["passes"],
                         board["exchanges"][1 - me] < board["max_exchanges"])

    def choose_seen(self, seen: SeatView, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert isinstance(seen, SeasonsSeatView)
        me = seen.seat
        return best_move(me, seen.teams, seen.draft, seen.passes, seen.exchanges[1 - me] < seen.max_exchanges)


def _mask(cards: list[str]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


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
