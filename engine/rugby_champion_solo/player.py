"""A Rugby Champion solo player that chooses its cards well (stands in for absent entrants).

It reads only what ``view(0)`` shows (in play, the same facts through the state's lazily computed seat view):
the cards it has seen (its hand, the face-up cards, the discard pile) and the public counts. It knows the deck
list (``cards.toml``), so the Non-player's face-down card is, to it, any player card it has not seen. For every
legal play it weighs the chances of each challenge result against that unseen pool.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import filterfalse
from typing import NamedTuple

from engine.core import AWAY, HOME, JSON, GameState, SeatView, View
from engine.players import Player, register_player
from engine.rugby_champion_solo.cards import DECK, SetPieceCard
from engine.rugby_champion_solo.rules import _CHALLENGES, _PAIRS, ChampionSeatView, RugbyChampionSoloState
from engine.search import SearchPlayer, normal_cdf, result_value

# What each challenge result is worth to the person, roughly in points.
TRY, SHIFT, DRAW, LOSE_ONE, NP_TRY = 6.5, 1.0, -0.3, -1.5, -6.0


_DECK_IDS = tuple(DECK.players)
# What the worths of a decision depend on: (no support draw to come, Kickers set aside, who has the Advantage).
Situation = tuple[bool, int, str | None]


def _unseen(seen: list[str]) -> list[str]:
    """The player cards the person has not seen (in deck order)."""
    return list(filterfalse(set(seen).__contains__, _DECK_IDS))


_SUPPORTS = list(DECK.supports.values())
_FOULS = sum(1 for s in _SUPPORTS if s.effect == "foul")
_KICKERS = sum(1 for s in _SUPPORTS if s.effect == "kicker")
_BLUES = [float(s.bonus) for s in _SUPPORTS if s.effect == "support"]


def _support_odds(situation: Situation) -> tuple[float, float, list[float]]:
    """(chance of a foul, chance of a kicker, bonuses of blue cards each with its chance) of a support draw."""
    no_draw, kickers_aside, _advantage = situation
    if no_draw:
        return 0.0, 0.0, []
    n = len(_SUPPORTS) - kickers_aside
    return _FOULS / n, (_KICKERS - kickers_aside) / n, _BLUES


def _worth(c: JSON) -> float:
    vals: list[int] = sorted(c["values"].values(), reverse=True)
    return 0.15 * (vals[0] + vals[1]) + (0.6 if c["goal"] else 0.0)


_WORTH = {card_id: _worth(c.to_dict()) for card_id, c in DECK.players.items()}
# What a challenge of each type reads of a card: (value, Referee, whistles).
_CHALLENGE_KEY = {ctype: {card_id: (c.values[ctype], c.referee, c.whistles) for card_id, c in DECK.players.items()}
                  for ctype in DECK.challenge_types}
# The same as small ints per challenge type (cards with the same key are one group), and the group's key.
_GROUP_KEYS = {ctype: list(dict.fromkeys(keys.values())) for ctype, keys in _CHALLENGE_KEY.items()}
_GROUP_OF = {ctype: {card_id: _GROUP_KEYS[ctype].index(key) for card_id, key in keys.items()}
             for ctype, keys in _CHALLENGE_KEY.items()}


def _margin(mine: tuple[int, bool, int], theirs: tuple[int, bool, int]) -> int | None:
    """The margin of a challenge between two cards' (value, Referee, whistles), or None when a Referee meets
    two whistles (a scrum, worth half a win). A Referee cancels an opposing card with one whistle."""
    pv, my_ref, my_whistles = mine
    nv, referee, whistles = theirs
    if my_ref and not referee and whistles:
        if whistles == 2:
            return None
        nv = 0
    elif referee and not my_ref and my_whistles:
        if my_whistles == 2:
            return None
        pv = 0
    return pv - nv


# _MARGINS[ctype][my group][their group]: every challenge's margin, worked out once.
_MARGINS = {ctype: [[_margin(mine, theirs) for theirs in keys] for mine in keys] for ctype, keys in _GROUP_KEYS.items()}


def _result_value(margin: int, lose_one: float) -> float:
    """What a challenge won (or lost) by ``margin`` is worth; ``lose_one`` is a loss by 1 (Advantage-dependent)."""
    if margin >= 2:
        return TRY
    if margin == 1:
        return SHIFT
    if margin == 0:
        return DRAW
    if margin == -1:
        return lose_one
    return NP_TRY


# The worth of each margin a challenge can end on, per worth of a loss by 1 (built once: every decision reads it).
_RESULTS = {lose_one: {m: _result_value(m, lose_one) for m in range(-12, 13)} for lose_one in (NP_TRY, -0.8, LOSE_ONE)}


def _won_value(margin: int, foul: float, blue_share: float, lose_one: float) -> float:
    """A won challenge's worth once the Non-player's support draw is made (a foul, a bonus, or nothing)."""
    v = foul * 0.5
    rest = 1.0 - foul
    for bonus in _BLUES:
        v += _result_value(int(margin - bonus), lose_one) * blue_share
        rest -= blue_share
    return v + rest * _result_value(margin, lose_one)


# _WORTHS[situation][ctype][my group][their group]: what a challenge between two groups is worth, per situation
# (chance of a foul, share of each blue card, worth of a loss by 1, whether a support draw is to come): a handful
# of situations, since the support pile only ever lacks the Kickers set aside, so they are kept all match long.
_WORTHS: dict[tuple[float, float, float, bool], dict[str, list[list[float]]]] = {}


def _challenge_worths(foul: float, blue_share: float, lose_one: float, supported: bool) -> dict[str, list[list[float]]]:
    key = (foul, blue_share, lose_one, supported)
    found = _WORTHS.get(key)
    if found is None:
        results = _RESULTS[lose_one]

        def worth(margin: int | None) -> float:
            if margin is None:  # a scrum: half a win
                return 0.5
            if margin >= 1 and supported:
                return _won_value(margin, foul, blue_share, lose_one)
            return results[margin]

        found = _WORTHS[key] = {ctype: [[worth(m) for m in row] for row in rows] for ctype, rows in _MARGINS.items()}
    return found


# The situations a decision can be in, as the board says them: (no support draw to come, Kickers set aside, who
# has the Advantage). Each has its _challenge_worths table, and the same in whole numbers (_whole_worths).
_SITUATIONS: dict[Situation, dict[str, list[list[float]]]] = {}


def _situation(seen: Seen) -> Situation:
    """What the worths of a decision depend on, as the board says it."""
    return seen._decision_facts()[2]


def _situation_worths(situation: Situation) -> dict[str, list[list[float]]]:
    """_challenge_worths of a situation: the support draw's odds and the worth of a loss by 1."""
    found = _SITUATIONS.get(situation)
    if found is None:
        foul, _kicker, blues = _support_odds(situation)
        _no_draw, kickers_aside, advantage = situation
        blue_share = 1 / (len(DECK.supports) - kickers_aside)
        lose_one = NP_TRY if advantage == "away" else (-0.8 if advantage == "home" else LOSE_ONE)
        found = _SITUATIONS[situation] = _challenge_worths(foul, blue_share, lose_one, bool(foul or blues))
    return found


# ---- the same worths in whole numbers (the club player's attack choice) --------------------------------------
# Every worth above is a fraction with a small denominator (tenths, halves, the support pile's 1/8 to 1/10; a
# card's worth in twentieths), which its float only rounds. Scaled by their common denominator they become whole
# numbers, which add up exactly in any order: so a play's sum over the unseen cards is the whole deck's sum less
# the seen cards', and two plays compare exactly. Two plays' exact values are either level or apart by at least
# 1 / (that denominator x the unseen cards), far more than the floats' rounding: whole numbers pick the very play
# the floats pick, except between two plays that come out level, where the floats' rounding decided and the first
# of them in ``legal`` is played (asking the floats there cost 73 K instructions each time, 3 % of a lean club
# match, for choices the rounding made, no stronger: over seeds 0..1999 941 wins v the Non-player either way).

def _exact(worth: float) -> Fraction:
    """The fraction a worth's float stands for (its denominator is at most 100; the float is within 1e-13)."""
    exact = Fraction(worth).limit_denominator(1000)
    if abs(exact - Fraction(worth)) > 1e-9:  # not a small fraction: whole numbers would not stand for it
        raise ValueError(f"a worth of {worth!r} is not a fraction with a small denominator")
    return exact


def _canonical(situation: Situation) -> Situation:
    """The situation with the same worths that stands for it: with no support draw to come, the Kickers set aside
    change nothing (they only change the draw's odds)."""
    no_draw, _kickers_aside, advantage = situation
    return (True, 0, advantage) if no_draw else situation


class PackedTable(NamedTuple):
    """A situation's whole-number worths of the plays of one type, packed: one field per kind of play (my card's
    group for the type and its _WORTH: plays alike, with the very same value), each field a play's worth against
    the Non-player's card less my card's worth, plus an offset that keeps every field above 0. ``against`` holds
    each card of the deck's fields in one int, ``whole_deck`` their sum over the whole deck; a play's value is its
    field of the unseen cards' sum, the whole deck's less the seen cards': values()'s total / n_unseen - the
    card's worth, times the scale and n_unseen, plus n_unseen times the offset (the same for every play of a
    decision, so the plays compare exactly as their values do). No field ever carries into the next: a field of a
    sum over some of the deck's cards is at most the whole deck's, which the field's width holds. The card's
    worth in the field saves a multiplication and a subtraction per play."""

    number: int  # the table's own number, across situations (its key in _UnseenSums.sums)
    against: Callable[[str], int]  # a card's fields: a dict's __getitem__, bound once (not at every sum)
    whole_deck: int


class WholeWorths(NamedTuple):
    """A situation's whole-number worths: each attack action's type's PackedTable and where its field sits in
    it, and the fields' mask."""

    plays: dict[str, tuple[PackedTable, int]]
    mask: int


_WHOLE: dict[Situation, WholeWorths] = {}
_TABLES = [0]  # how many tables have been numbered


def _whole_worths(situation: Situation) -> WholeWorths:
    """A situation's WholeWorths (built once per situation, shared with every situation of the same worths: the
    few there are are kept all match long)."""
    found = _WHOLE.get(situation)
    if found is None:
        canonical = _canonical(situation)
        found = _WHOLE.get(canonical)
        if found is None:
            found = _WHOLE[canonical] = _build_whole_worths(canonical)
        _WHOLE[situation] = found
    return found


def _build_whole_worths(situation: Situation) -> WholeWorths:
    tables = _situation_worths(situation)
    # The few distinct worths, each as its fraction and then as a whole number of the common scale.
    worths = {w for rows in tables.values() for row in rows for w in row} | set(_WORTH.values())
    exact = {w: _exact(w) for w in worths}
    scale = math.lcm(*(f.denominator for f in exact.values()))
    whole = {w: int(f * scale) for w, f in exact.items()}
    # The kinds of play of each type (my card's group and worth), in deck order, and each kind's field against
    # each card of the deck (before the offset).
    kinds = {ctype: list(dict.fromkeys((_GROUP_OF[ctype][c], _WORTH[c]) for c in _DECK_IDS)) for ctype in tables}
    fields = {ctype: [[whole[tables[ctype][mine][_GROUP_OF[ctype][theirs]]] - whole[worth] for theirs in _DECK_IDS]
                      for mine, worth in kinds[ctype]] for ctype in tables}
    offset = -min(f for rows in fields.values() for row in rows for f in row)
    highest = max(f for rows in fields.values() for row in rows for f in row) + offset
    width = (len(_DECK_IDS) * highest).bit_length()  # a field holds the whole deck's sum
    packed = {}
    for ctype, rows in fields.items():
        against = {theirs: sum((row[i] + offset) << (width * k) for k, row in enumerate(rows))
                   for i, theirs in enumerate(_DECK_IDS)}
        packed[ctype] = PackedTable(_TABLES[0], against.__getitem__, sum(against.values()))
        _TABLES[0] += 1
    plays = {action: (packed[ctype], width * kinds[ctype].index((_GROUP_OF[ctype][card_id], _WORTH[card_id])))
             for action, (card_id, ctype) in _PLAY_PARTS.items()}
    return WholeWorths(plays, (1 << width) - 1)


class _UnseenSums:
    """The packed tables' sums over the cards not seen, kept by a club player from one decision to the next: per
    table, the sum and how many of the cards shown (the rules' list of the half, from
    ChampionSeatView._decision_facts) it has taken off (and the same for the set pieces' counts of seen values, by
    _VALUE_KEY). A decision takes off only the cards shown since, a card or two, where summing the 17 or so seen
    cards at every decision was 0.6 us of each of its attack decisions (the whole took a lean club match from 2.53 M
    to 2.22 M instructions, callgrind). Another list of cards shown (a new half, another match, a built view)
    starts again from the whole deck."""

    __slots__ = ("shown", "sums")

    def __init__(self) -> None:
        self.shown: list[str] | None = None
        self.sums: dict[int, tuple[int, int]] = {}  # [table number]: (its unseen cards' sum, cards taken off)


def _best_play(kept: _UnseenSums, shown: list[str], situation: Situation, legal: list[str]) -> str:
    """The attack play the club player picks -- the first of the best -- weighed in whole numbers: the play of
    ``max(legal, key=values)`` but where the floats' rounding parted plays that are level. ``shown``: the cards
    seen (in a list only ever added to, from one call to the next with the same ``kept``)."""
    if shown is not kept.shown:
        kept.shown, kept.sums = shown, {}
    sums = kept.sums
    taken = len(shown)
    plays, mask = _WHOLE.get(situation) or _whole_worths(situation)  # without a call once it is built
    table = None  # the table of the plays just weighed (a forced type's plays are all of its type)
    unseen = 0
    best = -1  # below any play's value (every field is at least 0)
    choice = legal[0]
    for action in legal:
        play_table, shift = plays[action]
        if play_table is not table:
            table = play_table
            number, against, whole_deck = table
            found = sums.get(number)
            if found is None:
                unseen = whole_deck - sum(map(against, shown))
                sums[number] = unseen, taken
            else:
                unseen, done = found
                if done != taken:
                    # Most often a single card (a third of the times): without the slice, map and sum.
                    unseen -= against(shown[done]) if done + 1 == taken else sum(map(against, shown[done:]))
                    sums[number] = unseen, taken
        value = unseen >> shift & mask
        if value > best:
            best = value
            choice = action
    return choice


# The cards of every attack and set-piece action, split once: "play:<card>:<type>[:<direction>]" -> (card, type)
# and "pair:<card>:<card>" -> the two cards. Keyed by the rules' own action strings, the very objects of the legal
# actions, which a dict then finds by identity without comparing their characters.
_PLAY_PARTS = {action: (card_id, ctype) for action, (card_id, ctype, _going) in _CHALLENGES.items()}
_PAIR_PARTS = {action: (a, b) if a < b else (b, a) for a, pairs in _PAIRS.items() for b, action in pairs.items()}
# Each card's value per challenge type (the set pieces read theirs).
_VALUES = {ctype: {card_id: c.values[ctype] for card_id, c in DECK.players.items()} for ctype in DECK.challenge_types}
# ---- set pieces: the seen cards counted by value ----------------------------------------------------------------
# How many cards have each value on a type, packed: _VALUE_ONE[type](card) is 1 in the field of the card's value (8
# bits a field: a field never holds more than the deck's 36 cards); a sum of them times _VALUE_ONES holds in each
# field the count of the values up to its own. Sums of seen cards' ints are machine words, which sum() adds
# without making an int object per card, and are kept from one set piece to the next (_UnseenSums): counting the
# seen cards this way instead of sorting their values, and reading a pair's wins off one int, took a lean club
# match's lineout, scrum and conversion decisions from 144 K to 103 K instructions (callgrind).
_MAX_VALUE = max(v for values in _VALUES.values() for v in values.values())
if _MAX_VALUE > 6 or min(v for values in _VALUES.values() for v in values.values()) < 0:
    raise ValueError("a card value outside 0..6: the packed counts of values would not fit a machine word")
_VALUE_ONE = {ctype: {card_id: 1 << (8 * v) for card_id, v in values.items()}.__getitem__
              for ctype, values in _VALUES.items()}
_VALUE_ONES = sum(1 << (8 * v) for v in range(_MAX_VALUE + 1))
_VALUE_KEY = {ctype: -1 - i for i, ctype in enumerate(DECK.challenge_types)}  # keys beside the tables' numbers
# The whole deck's counts of values up to each, per type (the seen cards' are taken off field by field: no field
# of the seen cards' is above the deck's, so nothing borrows).
_DECK_UP_TO = {ctype: sum(map(one, _DECK_IDS)) * _VALUE_ONES for ctype, one in _VALUE_ONE.items()}


def _pair_plays(piece: SetPieceCard) -> Callable[[str], tuple[int, float]]:
    """Each pair action of a set piece: (where the count of the cards it beats sits in the counts of values up to
    each -- the field of its total less the set-piece card's value, less 1 -- or -1 when it beats none, and what
    playing its two cards costs: the very float the set-piece decisions took off each pair's chance, worked out
    once)."""
    plays = {}
    for action, (a, b) in _PAIR_PARTS.items():
        below = _VALUES[piece.type][a] + _VALUES[piece.type][b] - piece.value  # it beats the values under this
        plays[action] = (8 * min(below - 1, _MAX_VALUE) if below > 0 else -1, 0.05 * (_WORTH[a] + _WORTH[b]))
    return plays.__getitem__


# The set-piece card of each set-piece phase (the phase names it: the board's set piece shows the same card), and
# its pairs' plays.
_SETPIECES = {phase: (piece, _pair_plays(piece)) for phase, piece in (("lineout", DECK.lineout), ("scrum", DECK.scrum))}


def _unseen_up_to(kept: _UnseenSums, seen: list[str], ctype: str) -> int:
    """The unseen cards' counts of values up to each on a type (packed as _DECK_UP_TO), kept from the last set piece
    of the half and brought up to date with the cards shown since."""
    if seen is not kept.shown:
        kept.shown, kept.sums = seen, {}
    key = _VALUE_KEY[ctype]
    found = kept.sums.get(key)
    taken = len(seen)
    if found is None:
        unseen_up_to = _DECK_UP_TO[ctype] - sum(map(_VALUE_ONE[ctype], seen)) * _VALUE_ONES
    else:
        unseen_up_to, done = found
        if done == taken:
            return unseen_up_to
        unseen_up_to -= sum(map(_VALUE_ONE[ctype], seen[done:])) * _VALUE_ONES
    kept.sums[key] = unseen_up_to, taken
    return unseen_up_to


def _beaten(unseen_up_to: int, field: int) -> int:
    """How many unseen cards a pair beats: its field of the unseen cards' counts of values up to each (a field of
    -1: it beats no value)."""
    return unseen_up_to >> field & 255 if field >= 0 else 0


def _best_pair(kept: _UnseenSums, seen: list[str], phase: str, legal: list[str]) -> str:
    """The lineout or scrum pair the club player picks -- the first of the best of its values: the chance that it
    beats the Non-player's hidden card (the unseen cards whose value, added to the set-piece card's, is below the
    pair's total) less what playing its two cards costs."""
    piece, pair_plays = _SETPIECES[phase]
    unseen_up_to = _unseen_up_to(kept, seen, piece.type)
    n_unseen = max(1, len(_DECK_IDS) - len(seen))
    wins_by: dict[int, float] = {}  # many pairs beat the same values
    best = -math.inf
    choice = legal[0]
    for action in legal:
        field, kept_worth = pair_plays(action)
        wins = wins_by.get(field)
        if wins is None:
            wins = wins_by[field] = _beaten(unseen_up_to, field) / n_unseen
        if wins - kept_worth > best:
            best = wins - kept_worth
            choice = action
    return choice


class _ViewFacts:
    """The built view's facts under the seat view's names (:class:`ChampionSeatView`), for :meth:`choose`."""

    __slots__ = ("advantage", "kickers_aside", "phase", "seen", "setpiece", "support_count", "support_drawn")

    def __init__(self, view: View):
        board = view["board"]
        self.phase: str = view["phase"]
        self.seen: list[str] = board["seen"]
        self.setpiece: JSON | None = board["setpiece"]
        self.advantage: str | None = board["advantage"]
        self.support_count: int = board["support_count"]
        self.support_drawn: bool = board["support_drawn"]
        self.kickers_aside: int = board["kickers_aside"]

    def _decision_facts(self) -> tuple[str, list[str], Situation]:
        """As the seat view's: the phase, the cards seen (here in the board's order; a new list for every view) and
        (``support_drawn`` or no ``support_count``, ``kickers_aside``, ``advantage``)."""
        return self.phase, self.seen, (self.support_drawn or not self.support_count, self.kickers_aside,
                                       self.advantage)


Seen = ChampionSeatView | _ViewFacts


@register_player("rugby-champion-solo", "club")
class RugbyChampionClubPlayer(Player):
    """Picks the play with the best expected result against the cards it has not seen.

    The unseen cards are grouped by what matters to a challenge of each type (value, Referee, whistles), so
    a play is weighed against a handful of groups rather than card by card.
    """

    level = "club"
    needs_view = True
    reads_seat_view = True  # the phase, the cards seen, the set piece, the support pile's counts, the Advantage
    blind_first = True  # without a view (a single legal action) it plays the first
    uses_rng = False  # its choices are the values' best: it never draws

    def __init__(self) -> None:
        self._kept = _UnseenSums()  # its attack decisions' sums, for the next (started again on other cards)

    def needs_view_for(self, legal: list[str]) -> bool:
        return len(legal) > 1  # a single legal action is no choice: no view to build

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view is not None
        return self.choose_seen(_ViewFacts(view), legal, rng)  # type: ignore[arg-type]  # the same facts

    def choose_seen(self, seen: SeatView, legal: list[str], rng: random.Random) -> str:
        """The decision from what the seat sees: the seat view, or the built view's facts under its names."""
        if len(legal) == 1:  # no choice (the play loop asks at every choice)
            return legal[0]
        facts: Seen = seen  # type: ignore[assignment]  # a ChampionSeatView (or _ViewFacts, from choose)
        phase, shown, situation = facts._decision_facts()
        if phase == "attack":
            return _best_play(self._kept, shown, situation, legal)
        if phase != "conversion":
            return _best_pair(self._kept, shown, phase, legal)
        scores = self._scores(facts, legal)
        # The first best, as max(legal, key=...) picks it.
        return legal[scores.index(max(scores))]

    def values(self, view: View, legal: list[str]) -> dict[str, float]:
        """How good each legal action looks (higher is better; the club player plays the first best)."""
        return dict(zip(legal, self._scores(_ViewFacts(view), legal), strict=True))

    def _scores(self, facts: Seen, legal: list[str]) -> list[float]:
        """``values`` as a list in the order of ``legal``."""
        phase = facts.phase
        if phase == "conversion":
            # Convert with the Goal card least worth keeping; declining is worth least.
            return [-_WORTH[a[8:]] if a.startswith("convert:") else -1e9 for a in legal]
        seen = facts._decision_facts()[1]  # the cards seen, in any order
        setpiece = _SETPIECES.get(phase)
        if setpiece is not None:  # a lineout or a scrum
            piece, pair_plays = setpiece
            unseen_up_to = _unseen_up_to(self._kept, seen, piece.type)
            n_unseen = max(1, len(_DECK_IDS) - len(seen))
            return [_beaten(unseen_up_to, field) / n_unseen - kept_worth
                    for field, kept_worth in map(pair_plays, legal)]  # as _best_pair weighs them
        unseen_ids = _unseen(seen)
        n_unseen = max(1, len(unseen_ids))
        worths = _situation_worths(_situation(facts))
        # The unseen cards counted by group, per challenge type (in the order the groups first appear in the
        # deck-ordered unseen cards: the sums below add up in that order).
        groups: dict[str, Counter[int]] = {}
        # (my card's group, type) -> the sum over the unseen cards: neither the card nor the direction changes it.
        by_group: dict[tuple[int, str], float] = {}
        scores = []
        for action in legal:
            card_id, ctype = _PLAY_PARTS[action]
            mine = _GROUP_OF[ctype][card_id]
            total = by_group.get((mine, ctype))
            if total is None:
                by_type = groups.get(ctype)
                if by_type is None:
                    by_type = groups[ctype] = Counter(map(_GROUP_OF[ctype].__getitem__, unseen_ids))
                worth_against = worths[ctype][mine]
                total = 0.0
                for theirs, count in by_type.items():
                    total += worth_against[theirs] * count
                by_group[mine, ctype] = total
            scores.append(total / n_unseen - _WORTH[card_id])
        return scores


@register_player("rugby-champion-solo", "international")
class RugbyChampionInternationalPlayer(SearchPlayer):
    """Plays each card out against fresh deals of the cards it has not seen (the draw pile, the face-down
    line, the Non-player's hidden card, the support pile's order), the rest of the phase and the next by club
    play, and judges the score with the cards left to play."""

    move_iterations = 240
    simulation_iterations = 48
    horizon = 12

    # The club player's best few plays are the candidates: the rest are rarely worth a playout.
    widest = 4

    def make_club(self) -> Player:
        return RugbyChampionClubPlayer()

    def candidates(self, view: View, legal: list[str]) -> list[str]:
        club = self.club()
        assert isinstance(club, RugbyChampionClubPlayer)
        if len(legal) <= self.widest:
            return legal
        values = club.values(view, legal)
        return sorted(legal, key=lambda a: -values[a])[:self.widest]

    def marker(self, state: GameState) -> object:
        assert isinstance(state, RugbyChampionSoloState)
        return state.phases

    def settled(self, state: GameState, start: object) -> bool:
        assert isinstance(state, RugbyChampionSoloState) and isinstance(start, int)
        return state.phases > start + 1

    def evaluate(self, state: GameState, seat: int) -> float:
        assert isinstance(state, RugbyChampionSoloState)
        if state.over:
            return result_value(state, seat)
        margin = state.score[HOME] - state.score[AWAY]
        # About a try (5-7 points) goes either way for every dozen cards still to come.
        cards_left = len(state.pile) + 36 * (state.options["halves"] - state.half)
        return normal_cdf((margin + 0.5) / (2.2 * math.sqrt(cards_left / 12 + 0.25)))
