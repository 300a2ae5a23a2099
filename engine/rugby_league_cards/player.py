"""The rule-set-aware computer player for Rugby League with a 52-card deck.

The choice of a face-down card is blind, so no player can do better than any
position there. The skill is in the decisions around it: whether to go for a
drop goal, and what to do with a penalty. The player rates every option by the
probability of winning the match, from a small dynamic programme over (sets
left, score margin, field position, tackles lost) in which each tackle and each
kick round is a coin flip (ties and penalties ignored). In golden-point extra
time any score wins, so the same table is built with that end.
"""

from __future__ import annotations

import random
from functools import cache

from engine.core import GameState, View
from engine.players import Player, register_player
from engine.rugby_league_cards.rules import (
    CARD_ACTIONS,
    DROP_GOAL,
    KICK_FOR_GOAL,
    KICK_FOR_TOUCH,
    OVER,
    TACKLE,
    TAP_AND_RUN,
    TRY,
    CardsSeatView,
    RugbyLeagueCardsState,
    wins_needed_for_goal,
)
from engine.search import SearchPlayer, result_value

_CARD_ACTIONS = frozenset(CARD_ACTIONS)  # "card:1" .. "card:6"
_PENALTY_KICKS = frozenset((KICK_FOR_GOAL, KICK_FOR_TOUCH))
# Chance of winning at least n of 3 coin-flip rounds.
KICK_SUCCESS = {1: 7 / 8, 2: 1 / 2, 3: 1 / 8}
MARGIN_CAP = 30  # margins beyond this are treated as this (the match is decided either way)
GOLDEN_HORIZON = 10  # sets looked ahead in golden-point extra time


def _clip(margin: int) -> int:
    return max(-MARGIN_CAP, min(MARGIN_CAP, margin))


def _after_set(sets_left: int, margin: int, ours: bool, progress: int, golden: bool) -> float:
    """Our chance of winning once a set has ended, with the next set's possession and position."""
    if sets_left <= 0:
        return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    if ours:
        return win_chance(sets_left, margin, progress, 0, golden)
    return 1.0 - win_chance(sets_left, -margin, progress, 0, golden)


def _scored(sets_left: int, margin: int, points: int, golden: bool) -> float:
    """We score ``points`` (set over; the scorer restarts from its own 1-space)."""
    if golden:
        return 1.0
    return _after_set(sets_left - 1, _clip(margin + points), True, 1, golden)


def _try_scored(sets_left: int, margin: int, lost: int, golden: bool) -> float:
    if golden:
        return 1.0
    convert = KICK_SUCCESS[1 if lost == 0 else 2]
    return (convert * _scored(sets_left, margin, 6, golden)
            + (1 - convert) * _scored(sets_left, margin, 4, golden))


def play_on(sets_left: int, margin: int, progress: int, lost: int, golden: bool) -> float:
    """Our chance of winning if we play the next tackle (win or lose, the ball advances)."""
    if progress + 1 == TRY:
        won = _try_scored(sets_left, margin, lost, golden)
    else:
        won = win_chance(sets_left, margin, progress + 1, lost, golden)
    if lost == 1:
        kicked = min(progress + 2, TRY - 1)
        beaten = _after_set(sets_left - 1, margin, False, TRY - kicked, golden)
    elif progress + 1 == TRY:
        beaten = _try_scored(sets_left, margin, 1, golden)
    else:
        beaten = win_chance(sets_left, margin, progress + 1, 1, golden)
    return (won + beaten) / 2


def drop_goal(sets_left: int, margin: int, progress: int, golden: bool) -> float:
    """Our chance of winning if we go for a drop goal now (a miss hands over at their 2-space)."""
    success = KICK_SUCCESS[wins_needed_for_goal(progress)]
    return (success * _scored(sets_left, margin, 1, golden)
            + (1 - success) * _after_set(sets_left - 1, margin, False, 2, golden))


@cache
def win_chance(sets_left: int, margin: int, progress: int, lost: int, golden: bool) -> float:
    """Chance that the side in possession wins, before a tackle, playing the best option."""
    value = play_on(sets_left, margin, progress, lost, golden)
    if progress >= 4:
        value = max(value, drop_goal(sets_left, margin, progress, golden))
    return value


_WARMED = {False: 0, True: 0}


def _warm(sets_left: int, golden: bool) -> None:
    """Fill the table set by set from the end of the match, so the recursion never runs deep."""
    for sets in range(_WARMED[golden] + 1, sets_left):
        for margin in range(-MARGIN_CAP, MARGIN_CAP + 1):
            for progress in range(TRY - 1, 0, -1):
                win_chance(sets, margin, progress, 1, golden)
                win_chance(sets, margin, progress, 0, golden)
    _WARMED[golden] = max(_WARMED[golden], sets_left - 1)


def penalty_values(sets_left: int, margin: int, progress: int, golden: bool) -> dict[str, float]:
    """Win chances of each penalty option open at ``progress`` (a new set follows touch and tap)."""
    values = {TAP_AND_RUN: win_chance(sets_left, margin, progress, 0, golden)}
    if progress <= 3:
        values[KICK_FOR_TOUCH] = win_chance(sets_left, margin, progress + 2, 0, golden)
    else:
        success = KICK_SUCCESS[wins_needed_for_goal(progress)]
        values[KICK_FOR_GOAL] = (success * _scored(sets_left, margin, 2, golden)
                                 + (1 - success) * win_chance(sets_left, margin, 2, 0, golden))
    return values


@register_player("rugby-league-cards", "club")
class RugbyLeagueClubPlayer(Player):
    """Plays any face-down card (the choice is blind) and picks kicks by the chance of winning."""

    level = "club"
    needs_view = True
    blind_first = True  # choose() below takes legal[0] when it has no view
    reads_seat_view = True  # choose_seen() reads the score and five board facts, nothing else
    uses_rng = False

    def needs_view_for(self, legal: list[str]) -> bool:
        # Only a drop goal or a penalty is a decision; a face-down card is chosen blind (the legal list is
        # sorted: "card:N" actions come before "drop-goal" and the penalty options have no card).
        return legal[-1] not in _CARD_ACTIONS

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if view is None:
            return legal[0]  # a blind choice: every position is as good as any other
        return self.choose_seen(_ViewFacts(view), legal, rng)

    # Typed for what it is given (the play loop passes this rule set's seat view), not the base class's SeatView.
    def choose_seen(self, seen: CardsSeatView | _ViewFacts, legal: list[str],  # type: ignore[override]
                    rng: random.Random) -> str:
        """A drop goal or a penalty option, from what the seat sees (the seat view, or the built view's facts
        from :meth:`choose`), in this one call: the club player decides some 40 times a match. The facts come in
        one call too (``_decision_facts``: the values of the attributes of those names); the end of the period is
        read only in golden point."""
        # The legal list is sorted: a drop goal comes after the cards, a penalty's kick before tap and run.
        if len(legal) == 1 or (legal[-1] != DROP_GOAL and legal[0] not in _PENALTY_KICKS):
            return legal[0]  # a blind choice: every position is as good as any other
        golden, sets_played, home, away, progress, lost = seen._decision_facts()
        if golden:
            sets_left = min(GOLDEN_HORIZON, seen.period_ends_after_set - sets_played + 5)
            margin = 0
        else:
            # Neither floored nor clipped here: the cached decisions do it, once per situation (at every decision,
            # with the penalty's tuple of the legal list, it was 3.7 % of a lean match's instructions: 4.50 -> 4.33 M
            # with callgrind, seeds 0-99 with new_game).
            sets_left = 2 * seen.sets_per_half - sets_played
            margin = away - home if seen.seat else home - away
        if legal[-1] == DROP_GOAL:
            return DROP_GOAL if _drop_now(sets_left, margin, progress, lost, golden) else legal[0]
        # The kick listed first (for goal or for touch) tells which options there are.
        return _penalty_choice(sets_left, margin, progress, golden, legal[0])


class _ViewFacts:
    """The built view's facts under the seat view's names (:class:`CardsSeatView`), for :meth:`choose`."""

    __slots__ = ("golden_point", "period_ends_after_set", "points", "progress", "seat", "sets_per_half",
                 "sets_played", "tackles_lost")

    def __init__(self, view: View):
        board = view["board"]
        score = view["score"]
        self.seat = view["seat"] or 0
        self.points: tuple[int, int] = int(score["home"]["points"]), int(score["away"]["points"])  # whole points here
        self.golden_point: bool = board["golden_point"]
        self.period_ends_after_set: int = board["period_ends_after_set"]
        self.sets_played: int = board["sets_played"]
        self.sets_per_half: int = board["sets_per_half"]
        self.progress: int = board["progress"]
        self.tackles_lost: int = board["tackles_lost"]

    def _decision_facts(self) -> tuple[bool, int, int, int, int, int]:
        """As the seat view's: golden point, sets played, points (home, away), progress, tackles lost."""
        home, away = self.points
        return self.golden_point, self.sets_played, home, away, self.progress, self.tackles_lost


def _situation(sets_left: int, margin: int, golden: bool) -> tuple[int, int]:
    """The sets left (at least the one being played) and the margin clipped to the table's range (0 in golden
    point, where any score wins)."""
    return max(1, sets_left), 0 if golden else _clip(margin)


@cache
def _drop_now(sets_left: int, margin: int, progress: int, lost: int, golden: bool) -> bool:
    """Whether a drop goal beats playing on, from the sets left and the margin as the match stands (floored and
    clipped here). Decided once per situation: the club player meets the same few hundred situations over and
    over."""
    sets_left, margin = _situation(sets_left, margin, golden)
    _warm(sets_left, golden)
    return drop_goal(sets_left, margin, progress, golden) > play_on(sets_left, margin, progress, lost, golden) + 1e-9


@cache
def _penalty_choice(sets_left: int, margin: int, progress: int, golden: bool, kick: str) -> str:
    """The best penalty option (``kick`` or tap and run), from the match as it stands, as :func:`_drop_now`."""
    sets_left, margin = _situation(sets_left, margin, golden)
    _warm(sets_left, golden)
    values = penalty_values(sets_left, margin, progress, golden)
    # A tie goes to the kick (listed before tap and run in the sorted legal list).
    return kick if values[kick] >= values[TAP_AND_RUN] else TAP_AND_RUN


@register_player("rugby-league-cards", "international")
class RugbyLeagueInternationalPlayer(SearchPlayer):
    """Thinks where there is a decision (a drop goal or a penalty option; a face-down card is a blind choice):
    plays each option out to the next set over fresh deals of every face-down card -- so the cards already
    turned over since the pile was formed count -- with penalties and tie-breaks as they come, then judges
    the position with the win-chance table.

    It is not separated from club (about 50%): club's drop goals and penalty choices are already close to
    the best a seat that cannot see the cards can do; only a search that peeks at every card clears 60%
    (about 65%; ``bench/cards_ceiling.py`` holds the measurements and what was tried)."""

    move_iterations = 300
    simulation_iterations = 60
    horizon = 80

    def make_club(self) -> Player:
        return RugbyLeagueClubPlayer()

    def needs_view_for(self, legal: list[str]) -> bool:
        return not legal[-1].startswith("card:")

    def candidates(self, view: View, legal: list[str]) -> list[str]:
        blind = [a for a in legal if a.startswith("card:")]
        return blind[:1] + [a for a in legal if not a.startswith("card:")]

    def marker(self, state: GameState) -> object:
        assert isinstance(state, RugbyLeagueCardsState)
        return state.sets_done, state.period

    def settled(self, state: GameState, start: object) -> bool:
        assert isinstance(state, RugbyLeagueCardsState)
        return state.phase == TACKLE and state.tackle_no == 0 and (state.sets_done, state.period) != start

    def evaluate(self, state: GameState, seat: int) -> float:
        assert isinstance(state, RugbyLeagueCardsState)
        if state.phase == OVER:
            return result_value(state, seat)
        attacker = state.attacker
        golden = state.period >= 2
        if golden:
            sets_left = min(GOLDEN_HORIZON, state._period_end() - state.sets_done + 5)
            margin = 0
        else:
            sets_left = max(1, 2 * state.options["sets_per_half"] - state.sets_done)
            margin = _clip(state.score[attacker] - state.score[1 - attacker])
        _warm(sets_left, golden)
        chance = win_chance(sets_left, margin, state._progress(), min(state.lost, 1), golden)
        return chance if attacker == seat else 1.0 - chance
