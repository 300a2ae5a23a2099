"""Rugby League with a 52-card deck (Joe Foxon), played to its full rules.

The pitch is ``T | 1 2 3 | 3 2 1 | T``. The ball is an index 0..7 on it:
0 is the home try line, 1-3 the home 1-, 2- and 3-spaces, 4-6 the away 3-,
2- and 1-spaces, 7 the away try line. Home attacks towards 7, away towards 0.
"Progress" is the ball seen from the side in possession: 1-3 its own 1- to
3-space, 4-6 the opponent's 3- to 1-space, 7 a try.

Cards are plain ints 0..51 (``rank * 4 + suit``; rank 0 is a two, 12 an ace;
suits S H D C). Their canonical names are compact: ``"7S"``, ``"10D"``,
``"QH"``, ``"AC"`` (see :func:`card_name`, :func:`parse_cards`). The deck is
shuffled at kick-off (and the discards whenever the pile runs out) and dealt off
the top, so a scripted deck is one shuffle outcome (see ``script.py``).

Actions:

* ``"card:N"`` -- choose the face-down card at position N (1-6 in a set, 1-3
  in a kick at goal). Both seats choose blind; the first choice stays hidden
  from the other seat until both have chosen;
* ``"drop-goal"`` -- the attacking side, instead of choosing a card, attempts a
  drop goal (only in the opponent's half);
* ``"kick-for-touch"`` / ``"kick-for-goal"`` / ``"tap-and-run"`` -- the side
  awarded a penalty chooses what to do with it.

Every decision the book leaves open is listed in ``INTERPRETATIONS.md`` beside
this module; comments below name the decision they implement (I1, I2, ...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.chance import SeededChance
from engine.core import (
    AWAY,
    HOME,
    JSON,
    SEAT_NAMES,
    Event,
    GameState,
    Option,
    Outcome,
    RuleSetSpec,
    SeatView,
    format_action,
)
from engine.registry import register
from engine.scoring import LEAGUE

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
CARD_NAMES = tuple(r + s for r in RANKS for s in SUITS)
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# What commentary writes: the rank and the suit symbol the board draws ("A\u2665", "10\u2663").
CARD_LABELS = tuple(r + SUIT_SYMBOLS[s] for r in RANKS for s in SUITS)
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
DECK = tuple(range(52))
# ``RANK[card] == card >> 2`` (0 a two, 12 an ace), looked up: CPython 3.11 has no fast path for a shift, as for the
# masks' bit operations (with UNCHOSEN below, 1.9 % of a lean match's instructions, 2.87 -> 2.81 M with callgrind).
RANK = tuple(card >> 2 for card in DECK)

# Phases (ints, so the hot path compares small ints).
TACKLE, PENALTY, CONTEST, OVER = 0, 1, 2, 3
PHASE_NAMES = ("tackle", "penalty", "contest", "over")

CARD_ACTIONS = tuple(format_action("card", i) for i in range(1, 7))
CARD_POSITION = {action: i for i, action in enumerate(CARD_ACTIONS)}
# The history's entry of each seat's choice of each position, ``(seat, "card:N")``, built once: the blind rounds record
# these (an entry is an immutable pair), so a blind choice neither builds a pair nor leaves one to free with the match
# (together with a seat-view change since undone, 1 % of a lean match's instructions, 4.28 -> 4.23 M with callgrind).
CARD_CHOICES = tuple(tuple((seat, action) for action in CARD_ACTIONS) for seat in (HOME, AWAY))
HOME_CARD_CHOICES, AWAY_CARD_CHOICES = CARD_CHOICES
# The card actions open for each bitmask of face-down positions (bit i: position i + 1 still there).
MASK_ACTIONS = tuple(tuple(CARD_ACTIONS[i] for i in range(6) if mask >> i & 1) for mask in range(64))
# The first face-down position of each bitmask (its lowest bit set; -1 for none), as legal_actions lists it first.
FIRST_FACE_DOWN = tuple((mask & -mask).bit_length() - 1 for mask in range(64))
# The mask of every position but one (``UNCHOSEN[i] == ~(1 << i)``): a position turned over leaves its row's mask.
UNCHOSEN = tuple(~(1 << i) for i in range(6))
# Every face-down position of each bitmask, in order.
FACE_DOWN = tuple(tuple(i for i in range(6) if mask >> i & 1) for mask in range(64))
DROP_GOAL = "drop-goal"
KICK_FOR_TOUCH = "kick-for-touch"
KICK_FOR_GOAL = "kick-for-goal"
TAP_AND_RUN = "tap-and-run"
# The same with the attack's drop goal (sorted: "drop-goal" comes after the cards).
MASK_ACTIONS_AND_DROP_GOAL = tuple((*actions, DROP_GOAL) for actions in MASK_ACTIONS)

CONVERSION, PENALTY_GOAL, DROP_GOAL_KICK = "conversion", "penalty goal", "drop goal"
# Every decision, built once: ``decision`` hands out these pairs of the seat and its legal list as they are, shared
# (the caller never changes them; ``legal_actions`` copies): per seat, a card choice per bitmask of face-down positions,
# the same with the drop goal, and the penalty options short of and within kicking range. A new list and a new pair at
# every decision were 1.1 % of a lean match's instructions (2.98 -> 2.94 M with callgrind).
Turn = tuple[int, list[str]]
CARD_TURNS = tuple(tuple((seat, list(actions)) for actions in MASK_ACTIONS) for seat in (HOME, AWAY))
CARD_AND_DROP_GOAL_TURNS = tuple(tuple((seat, list(actions)) for actions in MASK_ACTIONS_AND_DROP_GOAL)
                                 for seat in (HOME, AWAY))
TOUCH_TURNS = tuple((seat, [KICK_FOR_TOUCH, TAP_AND_RUN]) for seat in (HOME, AWAY))
GOAL_TURNS = tuple((seat, [KICK_FOR_GOAL, TAP_AND_RUN]) for seat in (HOME, AWAY))

# The phases in which no card is chosen: a tuple built once, for the blind rounds' test at every pass (``phase in
# (PENALTY, OVER)`` built the tuple of the two names' values anew every time: 1.6 % of a lean match's instructions,
# 2.94 -> 2.90 M with callgrind).
NO_CARDS_CHOSEN = (PENALTY, OVER)
BOTH = (HOME, AWAY)
ALONE = ((HOME,), (AWAY,))
ALONE_HOME, ALONE_AWAY = ALONE
NOBODY = ()

ROW = 6  # cards per row in a set
KICK_ROW = 3  # cards per row in a kick at goal
TRY = 7  # progress value of the opponent's try line
POSITION_LABELS = ("Home try line", "Home 1", "Home 2", "Home 3", "Away 3", "Away 2", "Away 1", "Away try line")
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def card_name(card: int) -> str:
    """Canonical compact name of a card: ``"7S"``, ``"10D"``, ``"QH"``, ``"AC"``."""
    return CARD_NAMES[card]


def card_words(card: int) -> str:
    """English name of a card, as the book writes it ("7 of spades", "queen of diamonds")."""
    name = CARD_NAMES[card]
    rank, suit = name[:-1], name[-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def parse_card(name: str) -> int:
    """The card int of a canonical name (case-insensitive; ``"T"`` is accepted for ten)."""
    key = name.strip().upper()
    if key.startswith("T"):
        key = "10" + key[1:]
    try:
        return CARD_INDEX[key]
    except KeyError:
        raise ValueError(f"not a card name: {name!r} (use e.g. 7S, 10D, QH, AC)") from None


def parse_cards(names: str | list[str]) -> list[int]:
    """Card ints of a space-separated string or list of names (for scripted chance)."""
    if isinstance(names, str):
        names = names.split()
    return [parse_card(n) for n in names]


def wins_needed_for_goal(progress: int) -> int:
    """Round wins a penalty goal or drop goal needs from the opponent's 3-, 2- or 1-space."""
    return TRY - progress  # opp 1-space (6) -> 1, 2-space (5) -> 2, 3-space (4) -> 3


def progress_of(attacker: int, ball: int) -> int:
    """The ball's progress from ``attacker``'s side (1-3 its own spaces, 4-6 the opponent's, 7 a try); the same
    reflection of the pitch takes a side's progress back to the ball."""
    return ball if attacker == HOME else TRY - ball


# ``PROGRESS[attacker][ball] == progress_of(attacker, ball)``, and ``PROGRESS[side][progress]`` is the ball at that
# progress: looked up, not called nor restated, at every decision of the club player, every tackle and every new set
# (1.3 % of a lean match's instructions, 3.04 -> 3.00 M with callgrind).
PROGRESS = tuple(tuple(progress_of(attacker, ball) for ball in range(TRY + 1)) for attacker in (HOME, AWAY))


def drop_goal_open(attacker: int, ball: int) -> bool:
    """Whether the attack may go for a drop goal instead of a card: a tackle in the opponent's half."""
    return ball >= 4 if attacker == HOME else ball <= TRY - 4


# ``DROP_GOAL_OPEN[attacker][ball] == drop_goal_open(attacker, ball)``: the blind rounds look it up before every
# round (some 150 times a match). With the pending choices reset in place, about 3 % off a lean match's instructions
# (3.70 -> 3.58 M with callgrind, together with a blind round resolved without the _turn_over call, since put back
# so that which resolution a round takes is written once).
DROP_GOAL_OPEN = tuple(tuple(drop_goal_open(attacker, ball) for ball in range(TRY + 1)) for attacker in (HOME, AWAY))


def _draws_data(first: int, draws: tuple[tuple[int, int], ...]) -> list[list[str]]:
    """Tie-break draws as [home card, away card] name pairs (``first`` is the side that drew first)."""
    if first == HOME:
        return [[CARD_NAMES[a], CARD_NAMES[b]] for a, b in draws]
    return [[CARD_NAMES[b], CARD_NAMES[a]] for a, b in draws]


SPEC = RuleSetSpec(
    id="rugby-league-cards",
    name="Rugby League (52-card deck)",
    players=2,
    hidden_information=True,
    rules_version="1.1",
    options={
        "sets_per_half": Option(10, "sets in each half (the book: 10)"),
        "extra_time": Option(True, "a match level after 20 sets goes to extra time, 5 sets each way, golden "
                                   "point (the book); off: a house rule that lets a level match stand as a "
                                   "draw, e.g. in a league"),
        "extra_time_sets": Option(5, "sets in each half of extra time (the book: 5)"),
    },
    description="Sets of six tackles on a 7-position pitch, decided by blind card choices; "
                "tries, conversions, penalty goals and drop goals; 20 sets a match.",
    scoring=LEAGUE,
    knockout_options={"extra_time": True},
    board_kind="seven-cell-pitch",
)


@register
class RugbyLeagueCardsState(GameState):
    """A match of Rugby League with a 52-card deck."""

    spec = SPEC

    # ---- setup ------------------------------------------------------------------
    def setup(self) -> None:
        for name in ("sets_per_half", "extra_time_sets"):
            if self.options[name] < 1:
                raise ValueError(f"option {name!r} must be at least 1, not {self.options[name]!r}")
        self.pile: list[int] = self.chance.shuffle(DECK)
        self.discards: list[int] = []
        self.table: list[int] = []  # the last round's cards, (home, away) pairs in the order played
        self.revealed: list[int] = []  # the same, kept for the views after the table is cleared by a deal
        self.hands: list[list[int]] = [[], []]  # face-down rows; -1 marks a position already played
        self.masks = [0, 0]  # the same as bitmasks (bit i: position i + 1 face down), for legal_actions
        self.pending = [-1, -1]  # position index each seat has chosen this round (-1: not yet)
        self.last_rank = [-1, -1]  # rank of the last card each seat put down in open play (penalty rule)
        self.score = [0, 0]
        self.tries = [0, 0]
        self.stats = {k: [0, 0] for k in ("conversions", "penalty_goals", "drop_goals", "penalties_conceded",
                                          "tackles_won", "sets_attacked")}
        self.phase = TACKLE
        self.period = 0  # 0 first half, 1 second half, 2+ extra-time halves
        self.sets_done = 0
        self.attacker = HOME
        self.ball = 1
        self.lost = 0
        self.tackle_no = 0
        self.awarded = -1  # the side choosing a penalty option
        self.contest: list[Any] | None = None  # [kind, kicker, wins needed, wins, rounds, progress]
        self.emit("kick-off", HOME, "Kick-off: the home team attack first from their 1-space.")
        self._new_set(HOME, 1)

    # ---- cards ------------------------------------------------------------------
    # The pile is a shuffled list, top card first: dealing and tie-break draws take cards off the
    # top, so a scripted deck is simply the order of the cards (one shuffle outcome).
    def _draw(self) -> int:
        pile = self.pile
        if not pile:
            self._reshuffle()
            pile = self.pile
        return pile.pop(0)

    def _reshuffle(self) -> None:
        # I11: an empty pile is replaced by the shuffled discards. In the (astronomically rare)
        # case that a tie-break chain has put every free card on the table, the tied cards
        # (already compared) are shuffled in too.
        if not self.discards:
            self.discards = self.table
            self.table = []
        self.pile = self.chance.shuffle(self.discards)
        self.discards = []
        if self.record_events:
            self.emit("reshuffle", None, f"The pile is empty: the {len(self.pile)} discards are shuffled into a "
                      f"new pile.", cards=len(self.pile))

    def _deal(self, size: int) -> None:
        """Collect the rows and the table into the discards and deal two fresh rows of ``size``."""
        discards = self.discards
        # The rows' face-down cards, in order, found from the masks: plain loops (a comprehension is a function call,
        # and a deal comes every six cards or so: the two comprehensions cost 2.5 % of a lean match, measured with
        # callgrind), over the face-down positions only (testing every card of the rows: 0.6 % of a lean match's
        # instructions, 4.23 -> 4.21 M with callgrind).
        home_row, away_row = self.hands
        home_mask, away_mask = self.masks
        for position in FACE_DOWN[home_mask]:
            discards.append(home_row[position])
        for position in FACE_DOWN[away_mask]:
            discards.append(away_row[position])
        discards += self.table
        self.table = []
        # The rows, their masks and the pending choices are changed in place, not replaced by new lists: nothing
        # else holds them; and the two rows are sliced off the pile, not a slice of both cut in two (with the in-place
        # lists, 0.8 % of a lean match's instructions, 3.00 -> 2.98 M with callgrind).
        pending = self.pending
        pending[HOME] = pending[AWAY] = -1
        # I12: the home row is dealt first (positions 1..size, off the top of the pile), then the away row; the
        # discards become a new pile whenever it runs out.
        full = (1 << size) - 1
        masks = self.masks
        masks[HOME] = masks[AWAY] = full
        count = size + size
        pile = self.pile
        hands = self.hands
        if len(pile) >= count:
            hands[HOME] = pile[:size]
            hands[AWAY] = pile[size:count]
            del pile[:count]
            return
        # Only when the pile runs out (one deal in four or five): the rest off the new pile (the loop, for every deal,
        # cost 1.2 % of a lean match's instructions, 4.33 -> 4.28 M with callgrind).
        cards = pile[:count]
        del pile[:count]
        while len(cards) < count:
            self._reshuffle()
            pile = self.pile
            missing = count - len(cards)
            cards += pile[:missing]
            del pile[:missing]
        hands[HOME] = cards[:size]
        hands[AWAY] = cards[size:]

    # ---- protocol ---------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PENALTY:
            return ALONE[self.awarded]
        if phase == OVER:
            return NOBODY
        # A tackle or a kick's round: both choose a card blind, home first (the first choice stays hidden).
        home, away = self.pending
        if home < 0:
            return BOTH if away < 0 else ALONE_HOME
        return ALONE_AWAY

    def legal_actions(self, seat: int) -> list[str]:
        turn = self._turn(seat)
        return [] if turn is None else list(turn[1])

    def _turn(self, seat: int) -> Turn | None:
        """What ``seat`` may do now, as a prebuilt (seat, legal list) pair (None: nothing): the one copy of what may
        be done when, which ``legal_actions`` copies and ``decision`` hands out."""
        phase = self.phase
        if phase == PENALTY:
            if seat != self.awarded:
                return None
            return (TOUCH_TURNS if self._progress() <= 3 else GOAL_TURNS)[seat]
        if phase == OVER or seat not in (0, 1) or self.pending[seat] >= 0:
            return None
        if phase == TACKLE and seat == self.attacker and DROP_GOAL_OPEN[seat][self.ball]:
            return CARD_AND_DROP_GOAL_TURNS[seat][self.masks[seat]]
        return CARD_TURNS[seat][self.masks[seat]]

    def decision(self) -> Turn | None:
        """``to_act()``'s first seat (home first in a round of blind choices) with its legal actions, without
        building the tuple of seats to act (see ``GameState.decision``): a prebuilt pair, shared."""
        phase = self.phase
        if phase == OVER:
            return None
        return self._turn(self.awarded if phase == PENALTY else HOME if self.pending[HOME] < 0 else AWAY)

    def blind_round(self) -> bool:
        """A card choice is blind (face-down cards) unless the attack may go for a drop goal instead. Every
        blind choice at the head of play is the first face-down position of the row of the seat to act, in
        ``to_act``'s order (home first), up to the next real decision or the end: recorded, then applied as
        ``_apply`` applies a card (the choice is kept; the second of a round turns both over). A round in which
        both seats choose blind is chosen at once and turned over (a card at a time, with the lowest bit worked
        out each time, cost 4 % of a lean match, measured with callgrind)."""
        history = self.history
        played = False
        while True:
            phase = self.phase
            if phase in NO_CARDS_CHOSEN:
                return played
            # The attack's choice is a real decision while it may go for a drop goal instead of a card.
            attacker = self.attacker
            decides = attacker if phase == TACKLE and DROP_GOAL_OPEN[attacker][self.ball] else -1
            pending = self.pending
            if pending[HOME] < 0 and pending[AWAY] < 0 and decides < 0:
                home, away = FIRST_FACE_DOWN[self.masks[HOME]], FIRST_FACE_DOWN[self.masks[AWAY]]
                history += (HOME_CARD_CHOICES[home], AWAY_CARD_CHOICES[away])
                pending[HOME], pending[AWAY] = home, away
                self._turn_over()
            else:
                seat = HOME if pending[HOME] < 0 else AWAY  # to_act(): home first
                if seat == decides:
                    return played
                position = FIRST_FACE_DOWN[self.masks[seat]]
                history.append(CARD_CHOICES[seat][position])
                self._choose_card(seat, position)
            played = True

    def _progress(self) -> int:
        return PROGRESS[self.attacker][self.ball]

    def _ball_at(self, side: int, progress: int) -> int:
        return PROGRESS[side][progress]

    def _apply(self, seat: int, action: str) -> None:
        position = CARD_POSITION.get(action)
        if position is not None:
            self._choose_card(seat, position)
        elif action == DROP_GOAL:
            self._drop_goal()
        else:
            self._penalty_option(seat, action)

    def _choose_card(self, seat: int, position: int) -> None:
        # The choice stays secret: no event until both sides have chosen (the chooser's
        # own view shows it as ``your_choice``).
        pending = self.pending
        pending[seat] = position
        if pending[1 - seat] >= 0:
            self._turn_over()

    def _turn_over(self) -> None:
        """Both seats have chosen (``pending``): the round's cards are turned over (the last round's cards go to the
        discards) and resolved. Turning them over is written here, not in a method of its own that both resolutions
        call: that was a call more every round (~94 a match), 0.9 % of a lean match's instructions (3.26 -> 3.23 M
        with callgrind)."""
        pending = self.pending
        home_at, away_at = pending
        home_row, away_row = self.hands
        home_card, away_card = home_row[home_at], away_row[away_at]
        home_row[home_at] = away_row[away_at] = -1
        masks = self.masks
        masks[0] &= UNCHOSEN[home_at]
        masks[1] &= UNCHOSEN[away_at]
        pending[HOME] = pending[AWAY] = -1  # in place: nothing else holds the list
        if self.table:
            self.discards += self.table
        self.table = [home_card, away_card]
        if self.phase == TACKLE:
            self._resolve_tackle(home_card, away_card)
        else:
            self._resolve_contest_round(home_card, away_card)

    # ---- open play --------------------------------------------------------------
    def _resolve_tackle(self, home_card: int, away_card: int) -> None:
        """A tackle's round, the chosen cards turned over."""
        att = self.attacker
        dfn = 1 - att
        self.tackle_no += 1
        last = self.last_rank
        if att == HOME:
            a_card, d_card = home_card, away_card
        else:
            a_card, d_card = away_card, home_card
        # The tie-break draws (attack's card, defence's card): a tuple grown only on a tie (one round in twenty), and
        # the pair of cards is built only for a penalty or an event (a list and a pair built every round were 1.4 % of
        # a lean match's instructions, 3.23 -> 3.19 M with callgrind, seeds 0-99 after a warm-up).
        draws: tuple[tuple[int, int], ...] = ()
        while True:
            a_rank, d_rank = RANK[a_card], RANK[d_card]
            # I5: every card a side puts down counts, tie-break draws included (the book's examples).
            # (Tested in branches, not kept as two booleans compared: CPython 3.11 compares ints fast only to branch on
            # the result: 0.75 % of a lean match's instructions, 2.81 -> 2.79 M with callgrind.)
            a_last, d_last = last[att], last[dfn]
            last[att] = a_rank
            last[dfn] = d_rank
            if a_rank == a_last:  # the attack repeats its rank: a penalty to the defence, unless it repeats too
                if d_rank != d_last:
                    self.revealed = self.table  # shared: see below
                    self._award_penalty(dfn, (home_card, away_card), draws)
                    return
                # I6: both sides repeat a rank in the same round: the penalties cancel out.
                self.emit("penalties-cancel", None, "Both sides repeat a rank: the penalties cancel out.")
            elif d_rank == d_last:  # the defence alone repeats its rank: a penalty to the attack
                self.revealed = self.table  # shared: see below
                self._award_penalty(att, (home_card, away_card), draws)
                return
            if a_rank != d_rank:
                break
            # Tie: each side draws from the pile (attack first), as often as needed.
            a_card = self._draw()
            d_card = self._draw()
            if att == HOME:
                self.table += (a_card, d_card)
            else:
                self.table += (d_card, a_card)
            draws += ((a_card, d_card),)
        # The round's cards stay shown after a deal clears the table: the same list, not a copy, as a table is never
        # changed in place once its round is over (the next round or deal puts a new list on the table; a copy
        # every round was 1.4 % of a lean match's instructions, 3.19 -> 3.14 M with callgrind).
        self.revealed = self.table
        ball = self.ball
        progress = PROGRESS[att][ball]
        won = a_rank > d_rank
        if won:
            self.stats["tackles_won"][att] += 1
        else:
            self.stats["tackles_won"][dfn] += 1
            self.lost += 1
            if self.lost >= 2:
                # I1: the second lost tackle ends the set at once; the ball does not advance first,
                # the kick replaces the carry (the book's worked example ends on Away 1, no try).
                kicked = progress + 2 if progress < TRY - 2 else TRY - 1
                ball = self.ball = PROGRESS[att][kicked]
                if self.record_events:
                    self._tackle_event(att, (home_card, away_card), draws, dfn, ball, True, f"lose their second "
                                       f"tackle and kick forward to {POSITION_LABELS[ball]}. END OF SET.")
                # I2: the side that gathers the kick attacks from where the ball landed.
                self._set_over(dfn, TRY - kicked)
                return
        progress += 1
        ball = self.ball = PROGRESS[att][progress]
        if progress == TRY:
            if self.record_events:
                self._tackle_event(att, (home_card, away_card), draws, att if won else dfn, ball, True,
                                   "cross the line!")
            self._try(att)
            return
        # The commonest event of all: a simulation that keeps no events does not even word it.
        if self.record_events:
            self._tackle_event(att, (home_card, away_card), draws, att if won else dfn, ball, False,
                               f"win the tackle and advance to {POSITION_LABELS[ball]}." if won else
                               f"lose the tackle and advance to {POSITION_LABELS[ball]} (1 lost).")

    def _tackle_event(self, att: int, cards: tuple[int, int], draws: tuple[tuple[int, int], ...], winner: int,
                      ball: int, set_over: bool, what: str) -> None:
        """A tackle's event: its number, the cards played (tie-break draws included), then what the attack did."""
        tackle_no = self.tackle_no
        played = self._played_text(att, cards, draws) if draws else \
            f"home {CARD_LABELS[cards[0]]} v away {CARD_LABELS[cards[1]]}"
        text = f"{ORDINALS[tackle_no - 1] if tackle_no <= 6 else str(tackle_no) + 'th'} tackle: {played}. " \
               f"The {SEAT_NAMES[att]} team {what}"
        # Appended directly (emit's keyword packing costs a tenth of a tackle).
        self.events.append(Event("tackle", att, {"home": CARD_NAMES[cards[0]], "away": CARD_NAMES[cards[1]],
                                                 "winner": SEAT_NAMES[winner],
                                                 "draws": _draws_data(att, draws) if draws else [],
                                                 "ball": ball, "set_over": set_over}, text, None))

    def _played_text(self, att: int, cards: tuple[int, int], draws: tuple[tuple[int, int], ...]) -> str:
        text = f"home {CARD_LABELS[cards[0]]} v away {CARD_LABELS[cards[1]]}"
        for a_card, d_card in draws:
            h, w = (a_card, d_card) if att == HOME else (d_card, a_card)
            text += f", tie, redraw {CARD_LABELS[h]} v {CARD_LABELS[w]}"
        return text

    # ---- penalties --------------------------------------------------------------
    def _award_penalty(self, to: int, cards: tuple[int, int], draws: tuple[tuple[int, int], ...]) -> None:
        offender = 1 - to
        self.stats["penalties_conceded"][offender] += 1
        att = self.attacker
        # I3: the penalised round is not a completed tackle: the ball does not move (the book's
        # worked example kicks for touch from Home 3, where the penalty was given).
        self.phase = PENALTY
        self.awarded = to
        # I4: the side awarded the penalty takes (or keeps) possession.
        self.attacker = to
        tackle_no = self.tackle_no
        if self.record_events:
            self.emit("penalty", offender,
                      f"{ORDINALS[tackle_no - 1] if tackle_no <= 6 else str(tackle_no) + 'th'} tackle: "
                      f"{self._played_text(att, cards, draws)}. PENALTY: the {SEAT_NAMES[offender]} "
                      f"team play the same rank twice in a row; penalty to the {SEAT_NAMES[to]} team at "
                      f"{POSITION_LABELS[self.ball]}.",
                      home=CARD_NAMES[cards[0]], away=CARD_NAMES[cards[1]],
                      draws=_draws_data(att, draws), awarded=SEAT_NAMES[to], ball=self.ball)

    def _penalty_option(self, seat: int, action: str) -> None:
        progress = self._progress()
        self.awarded = -1
        if action == KICK_FOR_TOUCH:
            progress += 2
            self.ball = self._ball_at(seat, progress)
            if self.record_events:
                self.emit("kick-for-touch", seat, f"The {SEAT_NAMES[seat]} team kick for touch to "
                          f"{POSITION_LABELS[self.ball]}; a new set of six.", ball=self.ball)
            self._new_set(seat, progress)
        elif action == TAP_AND_RUN:
            if self.record_events:
                self.emit("tap-and-run", seat, f"The {SEAT_NAMES[seat]} team tap and run from "
                          f"{POSITION_LABELS[self.ball]}; a new set of six.", ball=self.ball)
            self._new_set(seat, progress)
        else:
            need = wins_needed_for_goal(progress)
            if self.record_events:
                self.emit("kick-for-goal", seat, f"The {SEAT_NAMES[seat]} team kick for goal from "
                          f"{POSITION_LABELS[self.ball]}: {need} round win{'s' if need > 1 else ''} of 3 needed.",
                          ball=self.ball, need=need)
            self._start_contest(PENALTY_GOAL, seat, need, progress)

    # ---- scoring ----------------------------------------------------------------
    def _try(self, scorer: int) -> None:
        self.score[scorer] += 4
        self.tries[scorer] += 1
        self.sets_done += 1
        self.stats["sets_attacked"][scorer] += 1
        if self.record_events:
            self.emit("try", scorer, f"TRY to the {SEAT_NAMES[scorer]} team! {self._score_text()}.",
                      points=4, score=list(self.score))
        if self.period >= 2:
            self._golden_point(scorer)
            return
        # I8: tackles lost in the set so far (since the last penalty reset) set the conversion's difficulty.
        need = 1 if self.lost == 0 else 2
        self._start_contest(CONVERSION, scorer, need, TRY)

    def _drop_goal(self) -> None:
        att = self.attacker
        progress = self._progress()
        if self.pending[1 - att] >= 0:
            # I9: a drop goal is called instead of choosing a card; a defender's choice already made
            # is simply withdrawn (it is never revealed).
            self.pending[1 - att] = -1
        need = wins_needed_for_goal(progress)
        if self.record_events:
            self.emit("drop-goal-attempt", att, f"The {SEAT_NAMES[att]} team go for a drop goal from "
                      f"{POSITION_LABELS[self.ball]}: {need} round win{'s' if need > 1 else ''} of 3 needed.",
                      ball=self.ball, need=need)
        self._start_contest(DROP_GOAL_KICK, att, need, progress)

    def _start_contest(self, kind: str, kicker: int, need: int, progress: int) -> None:
        self.phase = CONTEST
        self.attacker = kicker
        self.contest = [kind, kicker, need, 0, 0, progress]
        self._deal(KICK_ROW)

    def _resolve_contest_round(self, home_card: int, away_card: int) -> None:
        """A round of a kick at goal, the chosen cards turned over (the draws and the shown cards as a tackle's)."""
        contest = self.contest
        assert contest is not None  # a contest round is played only during a contest
        kind, kicker, need = contest[0], contest[1], contest[2]
        if kicker == HOME:
            k_card, o_card = home_card, away_card
        else:
            k_card, o_card = away_card, home_card
        draws: tuple[tuple[int, int], ...] = ()
        # I7: no penalty can be conceded in a kick at goal: its rounds are not tackles.
        while RANK[k_card] == RANK[o_card]:
            k_card = self._draw()
            o_card = self._draw()
            self.table += (k_card, o_card) if kicker == HOME else (o_card, k_card)
            draws += ((k_card, o_card),)
        self.revealed = self.table  # shared, as a tackle's
        contest[4] += 1
        won = RANK[k_card] > RANK[o_card]
        if won:
            contest[3] += 1
        wins, rounds = contest[3], contest[4]
        if self.record_events:
            self.emit("kick-round", kicker, f"{kind.capitalize()}, round {rounds}: "
                      f"{self._played_text(kicker, (home_card, away_card), draws)}; "
                      f"{'the kicker wins' if won else 'the defence wins'} ({wins} of {need} needed).",
                      home=CARD_NAMES[home_card], away=CARD_NAMES[away_card],
                      draws=_draws_data(kicker, draws), kicker_won=won)
        # I10: the kick is decided as soon as the result cannot change.
        if wins >= need:
            self._kick_result(True)
        elif wins + KICK_ROW - rounds < need:
            self._kick_result(False)

    def _kick_result(self, success: bool) -> None:
        assert self.contest is not None
        kind, kicker, _need, _wins, _rounds, _progress = self.contest
        self.contest = None
        other = 1 - kicker
        name = SEAT_NAMES[kicker]
        if kind == CONVERSION:
            if success:
                self.score[kicker] += 2
                self.stats["conversions"][kicker] += 1
            if self.record_events:
                self.emit("conversion", kicker, f"The conversion is {'good' if success else 'missed'}. "
                          f"{self._score_text()}.", success=success, points=2 if success else 0,
                          score=list(self.score))
            self._restart(kicker, 1)
        elif kind == PENALTY_GOAL:
            if success:
                self.score[kicker] += 2
                self.stats["penalty_goals"][kicker] += 1
                self.sets_done += 1
                self.stats["sets_attacked"][kicker] += 1
                if self.record_events:
                    self.emit("penalty-goal", kicker, f"PENALTY GOAL to the {name} team. {self._score_text()}.",
                              success=True, points=2, score=list(self.score))
                if self.period >= 2:
                    self._golden_point(kicker)
                    return
                self._restart(kicker, 1)
            else:
                # The book: the attacking (kicking) team restart from their 2-space with six cards.
                # I13: no points and no change of possession, so the set clock does not move.
                if self.record_events:
                    self.emit("penalty-goal", kicker, f"The penalty goal is missed; the {name} team restart "
                              f"from their 2-space.", success=False, points=0, score=list(self.score))
                self.last_rank = [-1, -1]
                self._new_set(kicker, 2)
        else:
            self.sets_done += 1
            self.stats["sets_attacked"][kicker] += 1
            if success:
                self.score[kicker] += 1
                self.stats["drop_goals"][kicker] += 1
                if self.record_events:
                    self.emit("drop-goal", kicker, f"DROP GOAL to the {name} team. {self._score_text()}.",
                              success=True, points=1, score=list(self.score))
                if self.period >= 2:
                    self._golden_point(kicker)
                    return
                self._restart(kicker, 1)
            else:
                if self.record_events:
                    self.emit("drop-goal", kicker, f"The drop goal is missed; the {SEAT_NAMES[other]} team restart "
                              f"from their 2-space.", success=False, points=0, score=list(self.score))
                self._restart(other, 2)

    def _score_text(self) -> str:
        return f"Home {self.score[0]}, Away {self.score[1]}"

    # ---- sets, halves and time --------------------------------------------------
    def _period_end(self) -> int:
        """The set count at which the current period ends."""
        per_half: int = self.options["sets_per_half"]
        if self.period < 2:
            return per_half * (self.period + 1)
        extra: int = self.options["extra_time_sets"]
        return 2 * per_half + (self.period - 1) * extra

    def _set_over(self, next_attacker: int, progress: int) -> None:
        """A set ended without points (two tackles lost): tick the clock and carry on."""
        self.sets_done += 1
        self.stats["sets_attacked"][1 - next_attacker] += 1
        self._restart(next_attacker, progress)

    def _restart(self, attacker: int, progress: int) -> None:
        """Start the next set (the clock has already ticked), or blow for half time / full time."""
        # I5: the penalty rule compares the turns of one set ("new rules come into play" at its second
        # tackle); a new set, after a turnover or a kick at goal (I5b), starts afresh.
        self.last_rank = [-1, -1]
        if self.sets_done >= self._period_end():
            self._end_period()
            return
        self._new_set(attacker, progress)

    def _end_period(self) -> None:
        self.last_rank = [-1, -1]
        if self.period == 0:
            self.period = 1
            # I14: the away team start the second half from their 1-space, as home started the first.
            if self.record_events:
                self.emit("half-time", None, f"HALF TIME. {self._score_text()}. The away team attack first "
                          f"in the second half.", score=list(self.score))
            self._new_set(AWAY, 1)
            return
        # I15: the book plays extra time on a tie; without it (a house rule) a level match is a draw.
        if self.score[0] != self.score[1] or not self.options["extra_time"]:
            self._finish("FULL TIME" if self.period == 1 else "END OF EXTRA TIME")
            return
        # I15: extra time is golden point: halves of 5 sets, home starting the first; the first
        # points of any kind win at once. Still level after both halves: play on, half by half.
        self.period += 1
        starter = HOME if self.period % 2 == 0 else AWAY
        label = "FULL TIME" if self.period == 2 else "END OF AN EXTRA-TIME HALF"
        if self.record_events:
            self.emit("extra-time", None, f"{label}: {self._score_text()}. Extra time, golden point: the "
                      f"{SEAT_NAMES[starter]} team attack from their 1-space.", score=list(self.score))
        self._new_set(starter, 1)

    def _golden_point(self, scorer: int) -> None:
        self._finish(f"GOLDEN POINT to the {SEAT_NAMES[scorer]} team")

    def _finish(self, label: str) -> None:
        self.phase = OVER
        pending = self.pending
        pending[HOME] = pending[AWAY] = -1
        # The ends of the periods and the final whistle word their events only for a match that keeps them (with the
        # outcome the final whistle reads the winner from), as the rest of the rules: 1.3 % of a lean match's
        # instructions (2.90 -> 2.87 M with callgrind).
        if self.record_events:
            winner = self.outcome().winner
            result = "a draw" if winner is None else f"the {SEAT_NAMES[winner]} team win"
            self.emit("full-time", None, f"{label}. {self._score_text()}: {result}.", score=list(self.score),
                      winner="draw" if winner is None else SEAT_NAMES[winner])

    def _new_set(self, attacker: int, progress: int) -> None:
        self.phase = TACKLE
        self.attacker = attacker
        self.ball = PROGRESS[attacker][progress]
        self.lost = 0
        self.tackle_no = 0
        self._deal(ROW)

    # ---- results and views ------------------------------------------------------
    def scoreline(self) -> tuple[list[int], list[int]]:
        return self.score, self.tries

    def outcome(self) -> Outcome:
        home, away = ({k: v[seat] for k, v in self.stats.items()} for seat in (HOME, AWAY))
        return Outcome(points=(self.score[0], self.score[1]), tries=(self.tries[0], self.tries[1]),
                       stats=(home, away))

    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def board_view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator) besides the envelope, as JSON-able data.

        No face-down card is ever named, not even to its owner (the choice is blind), and the
        other seat's pending choice never appears. Keys: ``attacker``, ``ball`` (0-7) with
        ``ball_label`` and ``progress`` (from the attack's side, 1-6, 7 a try), ``tackles_lost``,
        ``tackle``, ``set`` / ``sets_played``, ``period`` (0, 1, 2+ extra time), ``rows`` (per seat,
        True where a face-down card remains), ``your_choice`` (this seat's own pending position),
        ``last_round`` (the cards turned over last, tie-break draws included), ``previous_rank`` (the
        rank a repeat of which concedes a penalty), ``pile``, ``discards``, ``contest`` (a kick at goal in
        progress) and ``penalty_to``. The phase (tackle, penalty, contest, over) is the envelope's.
        """
        contest = None
        if self.contest is not None:
            kind, kicker, need, wins, rounds, _progress = self.contest
            contest = {"kind": kind, "kicker": SEAT_NAMES[kicker], "wins_needed": need, "wins": wins,
                       "rounds": rounds}
        shown = self.revealed
        last_round = [{"home": CARD_NAMES[shown[i]], "away": CARD_NAMES[shown[i + 1]]}
                      for i in range(0, len(shown), 2)]
        own_choice = None
        if seat in (HOME, AWAY) and self.pending[seat] >= 0:
            own_choice = self.pending[seat] + 1
        return {
            "attacker": SEAT_NAMES[self.attacker],
            "ball": self.ball,
            "ball_label": POSITION_LABELS[self.ball],
            "progress": self._progress(),
            "tackles_lost": self.lost,
            "tackle": self.tackle_no,
            "sets_played": self.sets_done,
            "set": self.sets_done + 1,
            "period": self.period,
            "period_ends_after_set": self._period_end(),
            "sets_per_half": self.options["sets_per_half"],
            "extra_time": self.options["extra_time"],
            "golden_point": self.period >= 2,
            "rows": {SEAT_NAMES[s]: [card >= 0 for card in self.hands[s]] for s in (HOME, AWAY)},
            "your_choice": own_choice,
            "last_round": last_round,
            "previous_rank": {SEAT_NAMES[s]: (RANKS[r] if r >= 0 else None) for s, r in enumerate(self.last_rank)},
            "pile": len(self.pile),
            "discards": len(self.discards),
            "contest": contest,
            "penalty_to": SEAT_NAMES[self.awarded] if self.phase == PENALTY else None,
        }

    # ---- search ----------------------------------------------------------------------
    def copy_position_into(self, other: GameState) -> None:
        assert isinstance(other, RugbyLeagueCardsState)
        other.pile, other.discards = list(self.pile), list(self.discards)
        other.table, other.revealed = list(self.table), list(self.revealed)
        other.hands = [list(self.hands[HOME]), list(self.hands[AWAY])]
        other.masks, other.pending = list(self.masks), list(self.pending)
        other.last_rank, other.score, other.tries = list(self.last_rank), list(self.score), list(self.tries)
        other.stats = {k: list(v) for k, v in self.stats.items()}
        other.phase, other.period, other.sets_done = self.phase, self.period, self.sets_done
        other.attacker, other.ball, other.lost = self.attacker, self.ball, self.lost
        other.tackle_no, other.awarded = self.tackle_no, self.awarded
        other.contest = None if self.contest is None else list(self.contest)

    def known_discards(self) -> set[int]:
        """The discards every seat has seen turned over: the cards revealed since the pile was last formed.

        (The rest of the discards are the face-down cards left in the rows at a new deal: nobody saw them.)
        """
        seen: set[int] = set()
        for event in reversed(self.events):
            if event.kind == "reshuffle":
                break
            if event.kind in ("tackle", "penalty", "kick-round"):
                data = event.data
                seen.add(CARD_INDEX[data["home"]])
                seen.add(CARD_INDEX[data["away"]])
                for home, away in data["draws"]:
                    seen.add(CARD_INDEX[home])
                    seen.add(CARD_INDEX[away])
        return seen.intersection(self.discards)

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """Every face-down card -- the pile, both rows (a side never sees its own row: the choice is blind)
        and the discards nobody saw -- is dealt afresh from the cards in those places, sorted (the cards no
        seat has seen turned over since the pile was formed); the other seat's pending choice, if it has
        chosen, is a position drawn afresh from its face-down cards (which one it is, nobody can see)."""
        return self.determiniser(seat)(rng)

    def determiniser(self, seat: int) -> Callable[[random.Random], GameState]:
        known = self.known_discards()
        hidden_discards = [i for i, card in enumerate(self.discards) if card not in known]
        rows = [(s, i) for s in (HOME, AWAY) for i, card in enumerate(self.hands[s]) if card >= 0]
        hidden = sorted([*self.pile, *(self.discards[i] for i in hidden_discards),
                         *(self.hands[s][i] for s, i in rows)])
        n, m = len(self.pile), len(hidden_discards)
        opponent = 1 - seat
        face_down = [i for i, card in enumerate(self.hands[opponent]) if card >= 0]

        def sample(rng: random.Random) -> GameState:
            other = self.fork(SeededChance(rng.getrandbits(64)))
            assert isinstance(other, RugbyLeagueCardsState)
            pool = list(hidden)
            rng.shuffle(pool)
            other.pile = pool[:n]
            for i, card in zip(hidden_discards, pool[n:n + m], strict=True):
                other.discards[i] = card
            for (s, i), card in zip(rows, pool[n + m:], strict=True):
                other.hands[s][i] = card
            if other.pending[opponent] >= 0:
                other.pending[opponent] = face_down[rng.randrange(len(face_down))]
            return other

        return sample

    def seat_view(self, seat: int) -> CardsSeatView:
        return CardsSeatView(self, seat)

    def player_board(self, seat: int) -> JSON:
        """What the club player reads of ``board_view(seat)`` (the situation of a drop goal or a penalty)."""
        return {
            "progress": self._progress(),
            "tackles_lost": self.lost,
            "sets_played": self.sets_done,
            "period_ends_after_set": self._period_end(),
            "sets_per_half": self.options["sets_per_half"],
            "golden_point": self.period >= 2,
        }

    def describe_action(self, action: str) -> str:
        if action.startswith("card:"):
            return f"Play the face-down card at position {action[5:]}"
        return {
            DROP_GOAL: "Attempt a drop goal",
            KICK_FOR_TOUCH: "Kick for touch (2 spaces forward, new set)",
            KICK_FOR_GOAL: "Kick for goal (2 points)",
            TAP_AND_RUN: "Tap and run (new set from here)",
        }.get(action, action)

    # ---- serialisation ----------------------------------------------------------
    saved_fields = ("pile", "discards", "table", "revealed", "hands", "pending", "last_rank", "score", "tries",
                    "stats", "phase", "period", "sets_done", "attacker", "ball", "lost", "tackle_no", "awarded",
                    "contest")
    saved_defaults = {"revealed": []}  # "revealed" came in later

    def state_dict(self) -> JSON:
        data = super().state_dict()
        data["phase"] = PHASE_NAMES[self.phase]  # saved by name; an int in play (the hot path compares ints)
        return data

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        super().load_state_dict(data)
        self.phase = PHASE_NAMES.index(data["phase"])
        self.masks = [sum(1 << i for i, card in enumerate(row) if card >= 0) for row in self.hands]


class CardsSeatView(SeatView):
    """What the club player reads of ``view(seat)``, computed when read: the score (``points``) and these keys
    of the board, with the same values (all public: no face-down card, no pile order)."""

    __slots__ = ("sets_per_half",)
    _state: RugbyLeagueCardsState

    def __init__(self, state: RugbyLeagueCardsState, seat: int):
        super().__init__(state, seat)
        # An option, fixed for the match: read once, not at every decision.
        self.sets_per_half: int = state.options["sets_per_half"]

    def _decision_facts(self) -> tuple[bool, int, int, int, int, int]:
        """``golden_point``, ``sets_played``, ``points`` (home, away), ``progress`` and ``tackles_lost`` in one call:
        the values of those attributes (a test checks it), which the club player reads at every decision. Read one
        by one, each a property's call through the descriptor machinery, they were 3.4 % of a lean match's
        instructions (3.14 -> 3.04 M with callgrind)."""
        state = self._state
        score = state.score
        return state.period >= 2, state.sets_done, score[0], score[1], PROGRESS[state.attacker][state.ball], state.lost

    @property
    def points(self) -> tuple[int, int]:
        score = self._state.score
        return score[0], score[1]

    @property
    def progress(self) -> int:
        return self._state._progress()

    @property
    def tackles_lost(self) -> int:
        return self._state.lost

    @property
    def sets_played(self) -> int:
        return self._state.sets_done

    @property
    def period_ends_after_set(self) -> int:
        return self._state._period_end()

    @property
    def golden_point(self) -> bool:
        return self._state.period >= 2
