"""Rugby Champion — solo mode: one person (seat 0, home) against the Non-player (seat 1, away).

The Non-player is the engine's own automaton: it never acts through ``apply``;
its cards come off the shuffled draw pile and its support pile, and its choices
are the book's. ``to_act()`` is ``(0,)`` while the game runs and ``()`` at the end.

The deck is data (``cards.toml``, loaded by :mod:`.cards`). The decisions on
what the source leaves open are in ``INTERPRETATIONS.md``.

Actions (canonical strings in the engine's grammar, see :mod:`engine.core`):

* ``play:<card>:<type>`` — attack: play a hand card against the targeted line card on a challenge type;
* ``play:<card>:<type>:<left|right>`` — the same, choosing the direction after winning on the advanced card;
* ``pair:<card>:<card>`` — lineout or scrum: the two cards placed face up (ids sorted);
* ``convert:<card>`` / ``no-convert`` — after the person's try, kick with a Goal-symbol card or not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from itertools import chain, combinations
from typing import Any

from engine.chance import SeededChance
from engine.core import AWAY, HOME, JSON, SEAT_NAMES, GameState, Option, Outcome, RuleSetSpec, SeatView
from engine.registry import register
from engine.rugby_champion_solo.cards import DECK, PlayerCard
from engine.scoring import CHAMPION

SLOTS = ("L2", "L1", "A", "R1")  # the defensive line, left to right; A is the advanced card
ADVANCED, RIGHT = 2, 3
DIRECTIONS = {"left": -1, "right": 1}
DIRECTION_NAMES = {-1: "left", 1: "right"}
HAND_SIZE = 4
NP = "the Non-player"
NO_CONVERT = "no-convert"
NP_CAP = "The Non-player"
SUPPORT_IDS = tuple(DECK.supports)  # the Non-player's support pile, in deck order
PLAYERS = DECK.players
_PERSON = (HOME,)  # to act while the game runs
_NO_GOAL = frozenset(c for c, p in DECK.players.items() if not p.goal)  # the player cards without a Goal symbol
_NAME_OF = {c: p.name for c, p in DECK.players.items()}.__getitem__  # each card's name (the events word them)
# Each Goal card's conversion action, in the order of the deck.
_CONVERTS = {c: f"convert:{c}" for c, p in DECK.players.items() if p.goal}


class _PileEmpty(Exception):
    """The draw pile ran out: the half is over."""


# Each card's dict, built once for the computer players' boards (shared: never to be changed).
_CARD_DICTS = {card_id: c.to_dict() for card_id, c in DECK.players.items()}
_SETPIECE_DICTS = {"lineout": DECK.lineout.to_dict(), "scrum": DECK.scrum.to_dict()}
# What the club player reads of a line place: the same dicts every time (shared: never to be changed).
_FACE_DOWN: JSON = {"face_up": False, "card": None}
_FACE_UP = {card_id: {"face_up": True, "card": d} for card_id, d in _CARD_DICTS.items()}


def card(card_id: str) -> PlayerCard:
    return DECK.players[card_id]


def allowed_types(slot: int) -> tuple[str, ...]:
    """Challenge types allowed against the line card at ``slot``."""
    return DECK.right_card_types if slot == RIGHT else DECK.challenge_types


# The attack actions of every card, built once: _PLAYS[card][type] and _PLAYS_GOING[card][type][direction].
_PLAYS = {c: {t: f"play:{c}:{t}" for t in DECK.challenge_types} for c in DECK.players}
_PLAYS_ON = {t: {c: plays[t] for c, plays in _PLAYS.items()} for t in DECK.challenge_types}  # [type][card]
# _PLAYS_ON's dicts' __getitem__, bound once: a forced type's plays are listed at most decisions of a match (binding
# it at each was 0.5 % of a lean club match's instructions).
_PLAY_ON = {t: plays.__getitem__ for t, plays in _PLAYS_ON.items()}
# The lineout and scrum actions of every two cards: _PAIRS[card][card] (either order).
_PAIRS = {a: {b: "pair:" + ":".join(sorted((a, b))) for b in DECK.players if b != a} for a in DECK.players}
_PLAYS_GOING = {c: {t: {name: f"play:{c}:{t}:{name}" for name in ("left", "right")} for t in DECK.challenge_types}
                for c in DECK.players}
# Each card's plays when it may take any type allowed on the place (_FREE_PLAYS[card][place]) and when it also
# chooses the direction after winning on the advanced card (_GOING_PLAYS[card]), each list sorted. No card id is
# the start of another, so the sorted actions of a hand are its cards' lists in the order of the sorted ids: the
# lists are chained, not sorted again (a choice of direction sorted some 18 strings in a generator).
_FREE_PLAYS = {c: [sorted(plays[t] for t in allowed_types(slot)) for slot in range(len(SLOTS))]
               for c, plays in _PLAYS.items()}
_GOING_PLAYS = {c: sorted(_PLAYS_GOING[c][t][name] for d, name in DIRECTION_NAMES.items()
                          for t in allowed_types(ADVANCED + d)) for c in DECK.players}
if any(a != b and b.startswith(a) for a in DECK.players for b in DECK.players):  # the deck file's ids
    raise ValueError("a card id is the start of another: a hand's plays would not come out sorted")
# The lineout or scrum action of every two cards, by the pair in either order (what itertools.combinations gives).
_PAIR_OF = {(a, b): action for a, pairs in _PAIRS.items() for b, action in pairs.items()}
# The parts of every attack action, split once (most actions are challenges): action -> (card, type, direction).
_CHALLENGES: dict[str, tuple[str, str, str | None]] = {
    **{action: (c, t, None) for c, plays in _PLAYS.items() for t, action in plays.items()},
    **{action: (c, t, name) for c, by_type in _PLAYS_GOING.items() for t, going in by_type.items()
       for name, action in going.items()}}


def _face_off(me: PlayerCard, np_card: PlayerCard, ctype: str) -> tuple[int, int, str, int | None]:
    """An attack challenge between two cards on a type, before the Non-player's support draw: (your value, its
    value, the note, and who played the Referee when it meets a card with two whistles -- a scrum -- else None).
    The Referee cancels an opposing card that has a whistle; against two whistles a scrum starts."""
    pv, nv = me.values[ctype], np_card.values[ctype]
    if me.referee and not np_card.referee and np_card.whistles:
        return (pv, nv, "", HOME) if np_card.whistles == 2 else (pv, 0, "the Referee cancels the whistled card", None)
    if np_card.referee and not me.referee and me.whistles:
        return (pv, nv, "", AWAY) if me.whistles == 2 else (0, nv, "the Referee cancels your whistled card", None)
    return pv, nv, "", None


# _FACE_OFFS[type][your card][its card]: every challenge's _face_off, worked out once (a challenge reads one entry
# instead of two cards' values, Referees and whistles; with _TURNS, 1.6 % of a lean club match's rules instructions).
_FACE_OFFS = {t: {a: {b: _face_off(me, np_card, t) for b, np_card in DECK.players.items() if b != a}
                  for a, me in DECK.players.items()} for t in DECK.challenge_types}
# After a draw or a loss by 1 against a card, the way play goes (its arrow) and the type it forces on each place
# of the line (its red type, or Physical where that type is not allowed): _TURNS[card] = (direction, types).
_TURNS = {c: (DIRECTIONS[p.arrow], tuple(p.red if p.red in allowed_types(slot) else "physical"
                                         for slot in range(len(SLOTS)))) for c, p in DECK.players.items()}


@register
class RugbyChampionSoloState(GameState):
    """The solo game: attack phases against a four-card defensive line, lineouts, scrums, two halves."""

    spec = RuleSetSpec(
        id="rugby-champion-solo",
        name="Rugby Champion (solo)",
        players=1,
        hidden_information=True,
        rules_version="1.1",
        options={"halves": Option(2, "halves to play, 1 or 2 (each ends when the draw pile runs out)")},
        scoring=CHAMPION,
        board_kind="defensive-line",
        description="One person against the game: break the Non-player's defensive line with challenges, "
                    "win lineouts and scrums, score tries and conversions over two halves.",
    )

    saved_fields = ("half", "pile", "discard", "hand", "line", "support", "kickers_aside", "support_drawn",
                    "advantage", "extra_card", "score", "tries", "conversions", "phase", "slot", "direction",
                    "forced_type", "setpiece", "last", "over", "phases", "challenges")

    # The last contest (``last``), or a challenge's parts, made into that dict when read (see ``last``).
    _last: JSON | tuple[int, str, str, str, int, int, str | None, str, int] | None
    # The player cards shown to the person this half, in the order they were shown: a new list each half, to which
    # a card is only ever added (drawn into the hand, turned up on the line, or the set piece's hidden card turned
    # over) -- the cards of _seen(HOME), in another order. Not saved: load_state_dict works it out again. Why: the
    # club player takes off only the cards shown since its last decision (ChampionSeatView._decision_facts), a card
    # or two, instead of building and summing the 17 or so cards seen at every decision.
    _shown: list[str]
    # A state has 29 attributes (with ``record_events``, which play_match sets): no more, or CPython 3.11 keeps
    # them in a dict of its own instead of one sharing its keys with the other states, and every attribute's read
    # and write costs more (a 30th attribute cost a lean club match 4 % more instructions, callgrind).

    # ---- setup and halves ------------------------------------------------------------------
    def setup(self) -> None:
        if self.options["halves"] not in (1, 2):
            raise ValueError("option 'halves' must be 1 or 2")
        self.half = 0
        self.score = [0, 0]
        self.tries = [0, 0]
        self.conversions = [0, 0]
        self.phases = 0
        self.challenges = [0, 0, 0]  # won, drawn, lost by the person
        self.over = False
        self.last = None
        self._start_half()

    def _start_half(self) -> None:
        self.half += 1
        self.pile: list[str] = self.chance.shuffle(list(DECK.players))
        self.discard: list[str] = []
        self.hand: list[str] = []
        self._shown = []
        self.line: list[JSON] = [{"card": None, "up": False} for _ in SLOTS]
        self.support: list[str] = []
        self.kickers_aside: list[str] = []
        self.support_drawn = False
        self.advantage: int | None = None
        self.extra_card = False
        self.phase = "attack"
        self.slot: int | None = ADVANCED
        self.direction: int | None = None
        self.forced_type: str | None = "physical"
        self.setpiece: JSON | None = None
        if self.record_events:
            self.emit("half", None, f"Half {self.half} starts.", half=self.half)
        self._guard(self._start_attack)

    @property
    def last(self) -> JSON | None:
        """The last contest, as the board shows it and the state is saved. A challenge leaves only its parts
        (a tuple in ``_last``), made into this dict when it is read: a lean club match's 25 challenges spent 2 % of
        its instructions on building dicts nobody read."""
        last = self._last
        if last.__class__ is tuple:
            slot, ctype, mine, theirs, pv, nv, support, note, margin = last
            last = self._last = {"contest": "challenge", "slot": SLOTS[slot], "type": ctype, "card": mine,
                                 "np_card": theirs, "value": pv, "np_value": nv, "support": support, "note": note,
                                 "margin": margin}
        return last  # type: ignore[return-value]

    @last.setter
    def last(self, contest: JSON | None) -> None:
        self._last = contest

    def _guard(self, step: Callable[..., None], *args: Any) -> None:
        """Run a step; if it needs a card from an empty draw pile, the half ends there."""
        try:
            step(*args)
        except _PileEmpty:
            self._end_half()

    def _end_half(self) -> None:
        if self.record_events:
            self.emit("half_time" if self.half < self.options["halves"] else "full_time", None,
                      f"The draw pile is empty: end of half {self.half} ({self.score[0]}-{self.score[1]}).",
                      half=self.half, score=list(self.score))
        if self.half < self.options["halves"]:
            self._start_half()
        else:
            self.over = True
            self.phase = "over"

    # ---- drawing ---------------------------------------------------------------------------------
    def _draw(self) -> str:
        if not self.pile:
            raise _PileEmpty
        return self.pile.pop(0)

    def _refill_hand(self) -> None:
        wanted = HAND_SIZE + (1 if self.extra_card else 0) - len(self.hand)
        self.extra_card = False
        if wanted <= 0:
            return
        # Off the top of the pile, as far as it goes: if it runs out, the half ends with the cards drawn so far.
        drawn = self.pile[:wanted]
        del self.pile[:wanted]
        self.hand += drawn
        self._shown += drawn
        if len(drawn) < wanted:
            raise _PileEmpty
        if self.record_events:
            self.emit("refill", HOME, f"You draw {len(drawn)} card(s).", count=len(drawn))
            self.emit("drawn", HOME, "You draw " + ", ".join(map(_NAME_OF, drawn)) + ".",
                      private_to=HOME, cards=drawn)

    def _reshuffle_support(self) -> None:
        # A Kicker set aside stays aside until it converts a try.
        aside = self.kickers_aside
        self.support = self.chance.shuffle([s for s in SUPPORT_IDS if s not in aside] if aside else SUPPORT_IDS)
        self.support_drawn = False

    def _support_draw(self, announce: bool = True) -> str | None:
        """The Non-player's one support draw of the phase (None if already drawn or the pile is bare)."""
        if self.support_drawn or not self.support:
            return None
        self.support_drawn = True
        drawn = self.support.pop(0)
        if announce and self.record_events:
            self.emit("support", AWAY, f"{NP_CAP} draws a support card: {DECK.supports[drawn].name}.",
                      card=drawn, effect=DECK.supports[drawn].effect)
        return drawn

    # ---- phases --------------------------------------------------------------------------------------
    def _start_attack(self) -> None:
        """A standard attack phase: the support pile reshuffled, the line completed, the hand refilled."""
        self.phases += 1
        self.phase = "attack"
        self.setpiece = None
        self._reshuffle_support()
        # A8: revealed line cards go; unrevealed ones stay in play. The line is laid before the hand is drawn.
        self._relay_line()
        self._refill_hand()
        self.slot, self.direction, self.forced_type = ADVANCED, None, "physical"
        if self.record_events:
            self.emit("attack", HOME, f"Attack phase: Physical challenge on the {_slot_name(ADVANCED)} card.",
                      slot=SLOTS[ADVANCED])

    def _relay_line(self) -> None:
        """Discard the revealed line cards and put new face-down cards in every empty place."""
        line, pile, discard = self.line, self.pile, self.discard
        if len(pile) >= len(line):
            # The pile cannot run out: one pass, each revealed card discarded and replaced (and each empty place
            # filled) in the order of the places, as the two passes below do.
            for spot in line:
                if spot["up"]:
                    discard.append(spot["card"])
                    spot["card"], spot["up"] = pile.pop(0), False
                elif spot["card"] is None:
                    spot["card"] = pile.pop(0)
            return
        for spot in line:
            if spot["up"]:
                discard.append(spot["card"])
                spot["card"], spot["up"] = None, False
        for spot in line:
            if spot["card"] is None:
                if not pile:  # _draw's body, without a call per card
                    raise _PileEmpty
                spot["card"] = pile.pop(0)

    def _start_setpiece(self, kind: str) -> None:
        self.phases += 1
        self.phase = kind
        self._reshuffle_support()
        hidden = self._draw()
        self.setpiece = {"kind": kind, "hidden": hidden}
        self._refill_hand()
        self.slot = self.direction = self.forced_type = None
        piece = DECK.lineout if kind == "lineout" else DECK.scrum
        if self.record_events:
            self.emit(kind, None, f"{piece.name}: {NP} has the {piece.name} card ({piece.value}) and a hidden card.")

    # ---- protocol ---------------------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else _PERSON

    def legal_actions(self, seat: int) -> list[str]:
        turn = self.decision()
        return turn[1] if turn is not None and turn[0] == seat else []

    def decision(self) -> tuple[int, list[str]] | None:
        """The person's legal actions while the game runs: the play loop's every move, and the one copy of what may
        be done when (``legal_actions`` asks it too; one call a move instead of to_act's and legal_actions')."""
        if self.over:
            return None
        phase = self.phase
        if phase == "attack":
            slot = self.slot
            if slot is None:  # choose the direction after winning on the advanced card
                return HOME, list(chain.from_iterable(map(_GOING_PLAYS.__getitem__, sorted(self.hand))))
            forced = self.forced_type
            if forced:
                return HOME, sorted(map(_PLAY_ON[forced], self.hand))
            return HOME, [action for c in sorted(self.hand) for action in _FREE_PLAYS[c][slot]]
        if phase == "conversion":
            return HOME, sorted([_CONVERTS[c] for c in self.hand if c in _CONVERTS] + [NO_CONVERT])
        # A lineout or scrum (the hand's cards are all different): no card id is the start of another, so the pairs
        # of the sorted cards come in the order of their actions (sorting 6 or 10 actions cost as much again).
        return HOME, list(map(_PAIR_OF.__getitem__, combinations(sorted(self.hand), 2)))

    def _apply(self, seat: int, action: str) -> None:
        challenge = _CHALLENGES.get(action)
        try:  # as _guard: a step that needs a card from an empty draw pile ends the half there
            if challenge is not None:
                self._challenge(*challenge)
                return
            parts = action.split(":")
            verb = parts[0]
            if verb == "pair":
                self._contest(parts[1], parts[2])
            elif verb == "convert":
                self.hand.remove(parts[1])
                self.discard.append(parts[1])
                self.score[HOME] += DECK.conversion_points
                self.conversions[HOME] += 1
                if self.record_events:
                    self.emit("conversion", HOME,
                              f"You convert with the {card(parts[1]).name}: +{DECK.conversion_points}.",
                              card=parts[1], score=list(self.score))
                self._start_attack()
            else:  # no-convert
                if self.record_events:
                    self.emit("no_conversion", HOME, "You keep your Goal card: no conversion.")
                self._start_attack()
        except _PileEmpty:
            self._end_half()

    # ---- the attack challenge --------------------------------------------------------------------------
    def _challenge(self, mine: str, ctype: str, choose: str | None) -> None:
        if choose is not None:
            self.direction = DIRECTIONS[choose]
            self.slot = ADVANCED + self.direction
        slot = self.slot
        assert slot is not None  # a challenge always has a target (chosen with the direction if need be)
        spot = self.line[slot]
        theirs = spot["card"]
        if not spot["up"]:
            spot["up"] = True
            self._shown.append(theirs)
        self.hand.remove(mine)
        self.discard.append(mine)
        pv, nv, note, referee_scrum = _FACE_OFFS[ctype][mine][theirs]
        if referee_scrum is not None:
            return self._referee_scrum(mine, theirs, ctype, slot, referee_scrum)
        # The Non-player's support draw comes as soon as it loses the challenge (once per phase): _support_draw's
        # body (without its announcement), without a call at every challenge the person wins.
        support = effect = None
        if pv - nv >= 1 and not self.support_drawn and self.support:
            self.support_drawn = True
            support = self.support.pop(0)
            effect = DECK.supports[support]
        raw = nv
        if effect is not None and effect.effect == "support":
            nv += effect.bonus
        margin = pv - nv
        # The last contest's dict is worded when read (a view, a save): most challenges are never looked at.
        self._last = slot, ctype, mine, theirs, pv, nv, support, note, margin
        if self.record_events:
            text = (f"{_type_name(ctype)} challenge on the {_slot_name(slot)} card: your {PLAYERS[mine].name} "
                    f"{pv} v {PLAYERS[theirs].name} {raw}" + (f" ({note})" if note else ""))
            if effect is not None:
                text += f"; {NP} draws a support card: {effect.name}" + (
                    f" (+{effect.bonus}, {pv} v {nv})" if effect.effect == "support" else "")
            if self.record_events:
                self.emit("challenge", HOME, text + ".", **self.last or {})
        if effect is not None:
            if effect.effect == "foul":
                if self.record_events:
                    self.emit("foul", AWAY, "Deliberate foul: the phase stops and a scrum follows.")
                return self._start_setpiece("scrum")
            if effect.effect == "kicker":
                assert support is not None
                self.kickers_aside.append(support)
                if self.record_events:
                    self.emit("kicker", AWAY, f"{NP_CAP} sets its Kicker aside for a conversion.")
        self.challenges[0 if margin > 0 else 1 if margin == 0 else 2] += 1
        if margin >= 2:
            return self._person_try()
        if margin == 1:
            if self.advantage == AWAY:
                # V2: « Lorsqu'un joueur qui possède la carte Avantage perd un défi de 1, il perd sa carte mais
                # son adversaire ne la récupère pas » -- the Non-player too.
                self.advantage = None
                if self.record_events:
                    self.emit("advantage_lost", AWAY, f"{NP_CAP} loses the Advantage card; you do not gain it.")
            if self.direction is None:
                self.slot, self.forced_type = None, None  # the person chooses where to go next
            else:
                nxt = slot + self.direction
                if not 0 <= nxt < len(SLOTS):
                    return self._ball_out()
                self.slot, self.forced_type = nxt, None
            if not self.hand:  # (the hand played out: _maybe_end_attack, called only then)
                self._maybe_end_attack()
            return
        if margin == -1:
            if self.advantage == HOME:
                self.advantage = None
                if self.record_events:
                    self.emit("advantage_lost", HOME, "You lose the Advantage card; the Non-player does not gain it.")
            elif self.advantage == AWAY:
                if self.record_events:
                    self.emit("advantage", AWAY, f"Second advantage to {NP}.")
                return self._np_try()
            else:
                self.advantage = AWAY
                if self.record_events:
                    self.emit("advantage", AWAY, f"{NP_CAP} takes the Advantage card.")
        if margin <= -2:
            return self._np_try()
        # Draw or lose by 1: direction from the revealed card's arrow, type from its red value.
        new_direction, forced_types = _TURNS[theirs]
        if self.direction is not None and new_direction != self.direction:
            self._replace_revealed()
        self.direction = new_direction
        nxt = slot + new_direction
        if not 0 <= nxt < len(SLOTS):
            return self._ball_out()
        self.slot = nxt
        self.forced_type = forced_types[nxt]
        if not self.hand:
            self._maybe_end_attack()

    def _replace_revealed(self) -> None:
        """On a change of direction the Non-player's revealed cards are replaced by new face-down ones."""
        for spot in self.line:
            if spot["up"]:
                self.discard.append(spot["card"])
                spot["card"], spot["up"] = self._draw(), False
        if self.record_events:
            self.emit("line", AWAY, f"Change of direction: {NP} replaces its revealed cards.")

    def _maybe_end_attack(self) -> None:
        if not self.hand:
            if self.record_events:
                self.emit("phase_end", HOME, "Your hand is played out: a new attack phase.")
            self._start_attack()

    def _ball_out(self) -> None:
        if self.record_events:
            self.emit("touch", None, "The ball goes out: lineout.")
        self._start_setpiece("lineout")

    def _referee_scrum(self, mine: str, theirs: str, ctype: str, slot: int, by: int) -> None:
        self.last = {"contest": "challenge", "slot": SLOTS[slot], "type": ctype, "card": mine, "np_card": theirs,
                     "value": None, "np_value": None, "support": None, "margin": None,
                     "note": "Referee against two whistles: scrum"}
        if self.record_events:
            self.emit("referee", by, "The Referee meets a card with two whistles: scrum.", card=mine, np_card=theirs)
        self._start_setpiece("scrum")

    # ---- lineout and scrum -------------------------------------------------------------------------------
    def _contest(self, a: str, b: str) -> None:
        setpiece = self.setpiece
        assert setpiece is not None  # a pair is played only in a lineout or a scrum
        kind = setpiece["kind"]
        piece = DECK.lineout if kind == "lineout" else DECK.scrum
        hidden = setpiece["hidden"]
        for c in (a, b):
            self.hand.remove(c)
            self.discard.append(c)
        self.discard.append(hidden)
        self._shown.append(hidden)
        h = card(hidden)
        values = [card(a).values[piece.type], card(b).values[piece.type]]
        hidden_value = h.values[piece.type]
        note = ""
        mine = (card(a), card(b))
        if any(c.referee for c in mine) and not h.referee and h.whistles:
            if h.whistles == 2 and kind == "lineout":
                self.last = {"contest": kind, "cards": [a, b], "np_card": hidden, "note": "Referee: scrum"}
                if self.record_events:
                    self.emit("referee", HOME, "The Referee meets a card with two whistles: scrum.")
                return self._start_setpiece("scrum")
            hidden_value, note = 0, "the Referee cancels the whistled card"
        elif h.referee and not any(c.referee for c in mine):
            if kind == "lineout" and any(c.whistles == 2 for c in mine):
                # R2: the Referee « joué contre une carte possédant 2 sifflets, alors une phase mêlée débute »,
                # whichever side plays it (as in attack).
                self.last = {"contest": kind, "cards": [a, b], "np_card": hidden, "note": "Referee: scrum"}
                if self.record_events:
                    self.emit("referee", AWAY, "The Non-player's Referee meets a card with two whistles: scrum.")
                return self._start_setpiece("scrum")
            for i, player in enumerate(mine):
                if player.whistles:
                    values[i] = 0
                    note = "the Referee cancels your whistled card"
        total, np_total = sum(values), piece.value + hidden_value
        support = self._support_draw() if total > np_total else None
        if support is not None:
            effect = DECK.supports[support]
            if effect.effect == "foul":
                self.last = {"contest": kind, "cards": [a, b], "np_card": hidden, "total": total,
                             "np_total": np_total, "support": support, "note": "Deliberate foul: scrum"}
                if self.record_events:
                    self.emit("foul", AWAY, "Deliberate foul: the phase stops and a scrum follows.")
                return self._start_setpiece("scrum")
            if effect.effect == "kicker":
                self.kickers_aside.append(support)
            if effect.effect == "support":
                np_total += effect.bonus
        winner = HOME if total > np_total else AWAY if np_total > total else None
        self.last = {"contest": kind, "cards": [a, b], "np_card": hidden, "total": total, "np_total": np_total,
                     "support": support, "note": note, "winner": winner}
        verdict = "you win it" if winner == HOME else f"{NP} wins it" if winner == AWAY else "nobody wins it"
        if self.record_events:
            self.emit(f"{kind}_result", winner, f"{piece.name}: {total} v {np_total}, {verdict}.", **self.last)
        self.setpiece = None
        if winner is not None:
            if self.advantage == winner:
                if self.record_events:
                    self.emit("advantage", winner, "A second advantage: try!")
                return self._person_try() if winner == HOME else self._np_try()
            self.advantage = winner
            if winner == HOME:
                self.extra_card = True
            if self.record_events:
                self.emit("advantage", winner, ("You take" if winner == HOME else f"{NP_CAP} takes")
                          + " the Advantage card.")
        if kind == "scrum":
            # S3: play goes left or right as the Non-player's scrum card shows, still in the scrum phase.
            return self._scrum_play(DIRECTIONS[h.arrow])
        self._start_attack()

    def _scrum_play(self, direction: int) -> None:
        """S3: « Ensuite, le jeu part à droite ou à gauche » -- within the scrum phase.

        The play starts on the side card the scrum showed, already moving that way (Physical first), with the
        hand the scrum left: no new support shuffle or draw (one per phase), no refill. When it ends -- the hand
        played out, or a try, lineout or scrum -- « la phase est terminée et on revient à une phase d'attaque
        standard ». The revealed line cards are replaced, as on a change of direction (A7).
        """
        self.phase = "attack"
        self.setpiece = None
        self._relay_line()
        start = ADVANCED + direction
        self.slot, self.direction, self.forced_type = start, direction, "physical"
        if self.record_events:
            self.emit("attack", HOME, f"Play goes {DIRECTION_NAMES[direction]} from the scrum: Physical challenge "
                                      f"on the {_slot_name(start)} card.", slot=SLOTS[start], scrum=True)
        self._maybe_end_attack()

    # ---- tries -----------------------------------------------------------------------------------------------
    def _person_try(self) -> None:
        self.score[HOME] += DECK.try_points
        self.tries[HOME] += 1
        self.advantage = None
        if self.record_events:
            self.emit("try", HOME, f"Try! ({self.score[0]}-{self.score[1]})", score=list(self.score))
        if not _NO_GOAL.issuperset(self.hand):  # a Goal card in the hand
            self.phase = "conversion"
            self.slot = self.direction = self.forced_type = None
            return
        self._start_attack()

    def _np_try(self) -> None:
        self.score[AWAY] += DECK.try_points
        self.tries[AWAY] += 1
        self.advantage = None
        if self.record_events:
            self.emit("try", AWAY, f"{NP_CAP} scores a try ({self.score[0]}-{self.score[1]}).",
                      score=list(self.score))
        kicker = self.kickers_aside.pop(0) if self.kickers_aside else None
        if kicker is None:
            drawn = self._support_draw()
            if drawn is not None and DECK.supports[drawn].effect == "kicker":
                kicker = drawn
        if kicker is not None:
            self.score[AWAY] += DECK.conversion_points
            self.conversions[AWAY] += 1
            if self.record_events:
                self.emit("conversion", AWAY, f"{NP_CAP}'s Kicker converts ({self.score[0]}-{self.score[1]}).",
                          score=list(self.score))
        self._start_attack()

    # ---- results and views --------------------------------------------------------------------------------------
    def scoreline(self) -> tuple[list[int], list[int]]:
        return self.score, self.tries

    def outcome(self) -> Outcome:
        stats = ({"conversions": self.conversions[HOME], "challenges_won": self.challenges[0],
                  "challenges_drawn": self.challenges[1], "challenges_lost": self.challenges[2],
                  "phases": self.phases},
                 {"conversions": self.conversions[AWAY]})
        return Outcome(points=(self.score[HOME], self.score[AWAY]), tries=(self.tries[HOME], self.tries[AWAY]),
                       stats=stats)

    def phase_name(self) -> str:
        return self.phase

    def board_view(self, seat: int | None) -> JSON:
        """What ``seat`` may see: the person's hand only for seat 0; never the piles' order or face-down cards."""
        person = seat == HOME
        line = []
        for i, spot in enumerate(self.line):
            face_up = spot["up"] and spot["card"] is not None
            line.append({"slot": SLOTS[i], "face_up": face_up,
                         "card": card(spot["card"]).to_dict() if face_up else None,
                         "occupied": spot["card"] is not None, "target": i == self.slot and self.phase == "attack",
                         "types": list(allowed_types(i))})
        return {
            "half": self.half,
            "halves": self.options["halves"],
            "hand": [card(c).to_dict() for c in self.hand] if person else None,
            "hand_count": len(self.hand),
            "line": line,
            "target": SLOTS[self.slot] if self.slot is not None and self.phase == "attack" else None,
            "choose_direction": self.phase == "attack" and self.slot is None,
            "direction": None if self.direction is None else DIRECTION_NAMES.get(self.direction),
            "forced_type": self.forced_type,
            "setpiece": self._shown_setpiece(),
            "advantage": self._advantage_name(),
            "extra_card": self.extra_card,
            "pile_count": len(self.pile),
            "discard": list(self.discard),
            "support_count": len(self.support),
            "support_drawn": self.support_drawn,
            "kickers_aside": len(self.kickers_aside),
            "last": self.last,
            "challenge_types": list(DECK.challenge_types),
            "seen": self._seen(seat),
        }

    @classmethod
    def reference_cards(cls) -> list[JSON]:
        """The player cards (values, red value, arrow, whistles, Goal symbol), then the support cards."""
        return [c.to_dict() for c in DECK.players.values()] + [
            {**c.to_dict(), "support": True} for c in DECK.supports.values()]

    def action_previews(self, seat: int) -> dict[str, JSON]:
        """Your side of each choice, before the Non-player's card is turned over: a challenge's value, or a
        lineout or scrum pair's total against the set-piece card's own value (its hidden card still to come)."""
        previews: dict[str, JSON] = {}
        piece = None
        if self.setpiece is not None:
            piece = DECK.lineout if self.setpiece["kind"] == "lineout" else DECK.scrum
        for action in self.legal_actions(seat):
            parts = action.split(":")
            if parts[0] == "play":
                previews[action] = {"type": parts[2], "value": card(parts[1]).values[parts[2]]}
            elif parts[0] == "pair" and piece is not None:
                values = [card(c).values[piece.type] for c in parts[1:]]
                previews[action] = {"type": piece.type, "values": values, "total": sum(values),
                                    "np_value": piece.value}
        return previews

    # ---- search ----------------------------------------------------------------------------------------------
    def copy_position_into(self, other: GameState) -> None:
        assert isinstance(other, RugbyChampionSoloState)
        other.half, other.pile = self.half, list(self.pile)
        other.discard, other.hand = list(self.discard), list(self.hand)
        other.line = [dict(spot) for spot in self.line]
        other.support, other.kickers_aside = list(self.support), list(self.kickers_aside)
        other.support_drawn, other.advantage, other.extra_card = self.support_drawn, self.advantage, self.extra_card
        other.score, other.tries, other.conversions = list(self.score), list(self.tries), list(self.conversions)
        other.phase, other.slot = self.phase, self.slot
        other.direction, other.forced_type = self.direction, self.forced_type
        other.setpiece = None if self.setpiece is None else dict(self.setpiece)
        other.last, other.over, other.phases = self.last, self.over, self.phases
        other.challenges = list(self.challenges)
        other._shown = list(self._shown)

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        super().load_state_dict(data)
        self._shown = self._seen(HOME)  # the order they were shown in is not saved: any order serves

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """What the person may see: the hand, the discards (every discarded card was shown) and the face-up line
        cards. The other player cards -- the draw pile, the face-down line cards and the Non-player's hidden
        set-piece card -- are dealt afresh from those (sorted) into the same places; the support pile keeps its
        content (its drawn card and the Kickers set aside were shown) in a fresh order."""
        other = self.fork(SeededChance(rng.getrandbits(64)))
        assert isinstance(other, RugbyChampionSoloState)
        face_down = [i for i, spot in enumerate(self.line) if spot["card"] is not None and not spot["up"]]
        hidden = self.setpiece["hidden"] if self.setpiece is not None else None
        pool = sorted([*self.pile, *(self.line[i]["card"] for i in face_down), *([hidden] if hidden else [])])
        rng.shuffle(pool)
        for i in face_down:
            other.line[i]["card"] = pool.pop()
        if other.setpiece is not None:
            other.setpiece["hidden"] = pool.pop()
        other.pile = pool
        support = sorted(self.support)
        rng.shuffle(support)
        other.support = support
        return other

    def player_board(self, seat: int) -> JSON:
        """What the club player reads of ``board_view(seat)``: the hand, what has been seen, the support pile's
        counts, the Advantage and the set piece. The card dicts are shared (read-only) copies."""
        return {
            "hand": [_CARD_DICTS[c] for c in self.hand] if seat == HOME else None,
            "discard": list(self.discard),
            "line": [_FACE_UP[spot["card"]] if spot["up"] and spot["card"] is not None else _FACE_DOWN
                     for spot in self.line],
            "setpiece": self._shown_setpiece(),
            "advantage": self._advantage_name(),
            "support_count": len(self.support),
            "support_drawn": self.support_drawn,
            "kickers_aside": len(self.kickers_aside),
            "seen": self._seen(seat),
        }

    def _seen(self, seat: int | None) -> list[str]:
        """The player cards ``seat`` has seen, each once: the discards (every discarded card was shown), the hand
        (the person's own) and the face-up line cards."""
        seen = self.discard + self.hand if seat == HOME else list(self.discard)
        for spot in self.line:
            if spot["up"] and spot["card"] is not None:
                seen.append(spot["card"])
        return seen

    def _shown_setpiece(self) -> JSON | None:
        """The set piece as the board shows it: its kind and card (a shared dict), the Non-player's card hidden."""
        if self.setpiece is None:
            return None
        kind = self.setpiece["kind"]
        return {"kind": kind, "card": _SETPIECE_DICTS[kind], "hidden": True}

    def _advantage_name(self) -> str | None:
        """Who holds the Advantage card, as the board names the side ("home", "away") or None."""
        return None if self.advantage is None else SEAT_NAMES[self.advantage]

    def seat_view(self, seat: int) -> ChampionSeatView:
        return ChampionSeatView(self, seat)

    def describe_action(self, action: str) -> str:
        parts = action.split(":")
        try:
            if parts[0] == "play":
                c = card(parts[1])
                label = f"{self._card_name(parts[1])} on {_type_name(parts[2])} ({c.values[parts[2]]})"
                return label + (f", going {parts[3]}" if len(parts) > 3 else "")
            if parts[0] == "pair":
                return " + ".join(self._card_name(p) for p in parts[1:])
            if parts[0] == "convert":
                return f"Convert with the {self._card_name(parts[1])}"
            if parts[0] == NO_CONVERT:
                return "No conversion"
        except (KeyError, IndexError):
            pass
        return action


    def _card_name(self, card_id: str) -> str:
        """The card's name, and what tells it from a card of the same name in the hand: the copies of a player
        differ in arrow, whistles and Goal symbol, and two Full-backs were two identical buttons doing different
        things."""
        c = card(card_id)
        if not any(other != card_id and card(other).name == c.name for other in self.hand):
            return c.name
        marks = [f"arrow {c.arrow}"] + ["Goal symbol"] * c.goal + [f"{c.whistles} whistle" + "s" * (c.whistles > 1)] * (
            c.whistles > 0)
        return f"{c.name} ({', '.join(marks)})"


class ChampionSeatView(SeatView):
    """What the club player reads of ``view(seat)``, computed when read: the envelope's ``phase`` and these keys
    of the board, with the same values. Never the draw pile, the face-down line cards, the Non-player's hidden
    set-piece card or the support pile's order."""

    __slots__ = ()
    _state: RugbyChampionSoloState

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def seen(self) -> list[str]:
        return self._state._seen(self.seat)

    @property
    def setpiece(self) -> JSON | None:
        return self._state._shown_setpiece()

    @property
    def advantage(self) -> str | None:
        return self._state._advantage_name()

    @property
    def support_count(self) -> int:
        return len(self._state.support)

    @property
    def support_drawn(self) -> bool:
        return self._state.support_drawn

    @property
    def kickers_aside(self) -> int:
        return len(self._state.kickers_aside)

    def _decision_facts(self) -> tuple[str, list[str], tuple[bool, int, str | None]]:
        """What the club player reads at every choice, in one call (a test checks them against the attributes):

        * ``phase``;
        * the cards of ``seen`` (the person's seat) in the order they were shown this half: the rules' own list, to
          read and never change. Within a half it is the same list, only ever added to; each half has a new one;
        * what its worths depend on: (``support_drawn`` or no ``support_count``, ``kickers_aside``, ``advantage``).

        Read one by one (properties' calls) and with ``seen`` built afresh, they were 0.6 us of each decision."""
        state = self._state
        advantage = state.advantage
        return state.phase, state._shown, (state.support_drawn or not state.support, len(state.kickers_aside),
                                           None if advantage is None else SEAT_NAMES[advantage])


_SLOT_NAMES = ("far-left", "left", "advanced", "right")


def _slot_name(slot: int) -> str:
    return _SLOT_NAMES[slot]


def _type_name(ctype: str) -> str:
    return ctype.capitalize()

