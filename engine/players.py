"""Computer players, their levels, and the loop that plays a whole match.

A player takes what its seat may see (``view``), the legal actions and its own
rng, and returns one of the legal actions. Each seat's rng is derived from the
match seed, so a simulated match is reproducible from its seed alone. A player
only reads the list of legal actions: the play loop hands it the rule set's own
(``GameState.decision``), which may be shared from move to move.

Two shortcuts of the lean loop (the lead's decisions on issue 17 item 5; see
:class:`Player`): a club player may read a lazily computed, seat-restricted
view (``reads_seat_view``: :class:`engine.core.SeatView`, never more than
``view(seat)`` shows) instead of the built ``View`` dict, and when every player
of a match takes the first option of a blind choice, the rule set plays a run
of blind choices in one call (``GameState.blind_round``: the same games). The
international level keeps its views and :class:`Sampler`.

**Levels.** Every rule set offers three, chosen per seat (:data:`LEVELS`):

* ``beginner`` -- the club player with a beginner's lapses: on a share of its real decisions
  (``Beginner.lapse``) it picks any legal action instead. A person learning the game can beat it, yet
  it plays recognisably (a purely random opponent kicks from its own in-goal and drafts nonsense);
* ``club`` -- the rule set's own player of rules of thumb and small look-aheads, fast enough to play
  whole tournaments (the level simulations use);
* ``international`` -- a search player (:mod:`engine.search`): it plays out many futures of
  the position *as its seat sees it*, the hidden cards dealt afresh each time from those it has not
  seen (the rule set's ``determinise``), and picks the move that did best. It never reads the other
  seat's hidden cards.

Older names stay accepted (:data:`ALIASES`): ``aware`` (the former name of *club*). ``random`` (any legal
action, uniformly) remains an engine-only level: the baseline of the benchmarks and tests, not offered
to people. Stored data that said ``random`` now says ``beginner`` (the closest level people are offered).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from engine.chance import derive_seed
from engine.core import GameState, SeatView, View
from engine.registry import get_ruleset


def gettext_noop(text: str) -> str:
    """Marks a string for the site's translators (Django's makemessages looks for this name) without
    importing Django: the site translates these labels when it shows them."""
    return text


# The levels people choose from, weakest first (the site's choice lists are built from these).
LEVELS = ("beginner", "club", "international")
DEFAULT_LEVEL = "club"
LEVEL_LABELS = {
    "beginner": gettext_noop("Computer (beginner)"),
    "club": gettext_noop("Computer (club)"),
    "international": gettext_noop("Computer (international)"),
}
LEVEL_HELP = {
    "beginner": gettext_noop("Knows the rules but makes a beginner's mistakes now and then."),
    "club": gettext_noop("Plays sound rugby by rules of thumb; moves at once."),
    "international": gettext_noop("Thinks ahead through many possible futures, without peeking at hidden "
                                  "cards: the strongest, and the slowest to simulate."),
}
RANDOM = "random"
# Former names still accepted by make_player (stored data, old scripts).
ALIASES = {"aware": "club"}
# What the site's stored levels of before issue 20 became ("random" was offered to people then; the closest
# level offered now is the beginner).
FORMER_SITE_LEVELS = {"aware": "club", "random": "beginner"}
# Every name make_player accepts.
ACCEPTED_LEVELS = (*LEVELS, RANDOM, *ALIASES)


def canonical_level(level: str) -> str:
    """The level a (possibly former) name stands for: ``"aware"`` -> ``"club"``; ``ValueError`` if unknown."""
    level = ALIASES.get(level, level)
    if level not in LEVELS and level != RANDOM:
        raise ValueError(f"unknown player level {level!r}; choose from {', '.join(LEVELS)}")
    return level


class Sampler:
    """What a search player gets instead of the state: imagined positions its seat cannot tell from the real
    one (``GameState.determinise``), never the state itself."""

    __slots__ = ("_draw", "_state", "seat")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat
        self._draw: Callable[[random.Random], GameState] | None = None

    def __call__(self, rng: random.Random) -> GameState:
        """A new determinisation for this seat, drawn with ``rng``."""
        if self._draw is None:
            self._draw = self._state.determiniser(self.seat)
        return self._draw(rng)


class Player:
    """Base computer player.

    ``needs_view``: the play loop builds the (costly) view only for players that read it, and then only
    for the decisions :meth:`needs_view_for` says need it (a club player does not read the board to pick
    a blind card). ``blind_first``: where it does not read the view, the player takes the first legal action
    (a blind choice: every option looks the same to it), so the play loop takes it without calling
    :meth:`choose`; and where the rule set says the seats to act face blind choices (``GameState.blind_round``:
    when every player of the match is ``blind_first``), the rule set plays those first options itself, without
    the loop. ``reads_seat_view``: the player reads the state's lazily computed
    :class:`~engine.core.SeatView` (``GameState.seat_view``: facts ``view(seat)`` shows, computed on access,
    never what the seat may not see) in :meth:`choose_seen` instead of the built ``View`` dict in
    :meth:`choose` -- the same decision either way; the play loop then asks :meth:`choose_seen` at every choice,
    without asking :meth:`needs_view_for` first (a seat view costs nothing until read), so it must also make
    the choices :meth:`choose` makes without the view. ``uses_rng``: False for a player that never draws from its
    rng, so that the play loop does not seed one for it (seeding costs as much as a dozen moves).
    ``searches``: the play loop asks :meth:`think` instead of :meth:`choose`, with a :class:`Sampler` (the
    international level,
    :mod:`engine.search`).
    """

    level = RANDOM
    needs_view = False
    blind_first = False
    reads_seat_view = False
    uses_rng = True
    searches = False

    def needs_view_for(self, legal: list[str]) -> bool:
        """Whether choosing among ``legal`` needs the view (called only when ``needs_view`` is True)."""
        return True

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        """One of ``legal`` (``view`` is this seat's ``state.view(seat)``, or None when not needed)."""
        raise NotImplementedError

    def choose_seen(self, seen: SeatView, legal: list[str], rng: random.Random) -> str:
        """:meth:`choose` from the seat's lazily computed view (only called when ``reads_seat_view`` is True):
        the very same decision as ``choose`` with the built view."""
        raise NotImplementedError

    def think(self, view: View, legal: list[str], rng: random.Random, sample: Sampler) -> str:
        """A search player's choice (only called when ``searches`` is True)."""
        raise NotImplementedError


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        # rng.choice draws exactly what rng.randrange(len(legal)) would, with less overhead.
        return rng.choice(legal)


class Beginner(Player):
    """The club player, with a lapse now and then: on a share of its real choices it picks any legal action.

    A choice with one legal action is no choice; a lapse is drawn only when there are two or more.
    """

    level = "beginner"
    lapse = 0.35

    def __init__(self, club: Player, lapse: float | None = None):
        self.club = club
        self.needs_view = club.needs_view
        if lapse is not None:
            self.lapse = lapse

    def needs_view_for(self, legal: list[str]) -> bool:
        return self.club.needs_view_for(legal)

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) > 1 and rng.random() < self.lapse:
            return rng.choice(legal)
        return self.club.choose(view, legal, rng)


# (ruleset id, level) -> factory of that rule set's player of that level
_PLAYERS: dict[tuple[str, str], Callable[..., Player]] = {}

P = TypeVar("P", bound=type[Player])


def register_player(ruleset_id: str, level: str) -> Callable[[P], P]:
    """Class decorator: a rule set's player of ``level`` ("club" or "international")."""

    def decorator(cls: P) -> P:
        _PLAYERS[ruleset_id, level] = cls
        return cls

    return decorator


def register_aware_player(ruleset_id: str) -> Callable[[P], P]:
    """Class decorator for a rule set's club player (its former name: the aware player)."""
    return register_player(ruleset_id, "club")


def make_player(ruleset_id: str, level: str, *, think_ms: float | None = None, iterations: int | None = None,
                simulation: bool = False) -> Player:
    """A computer player of ``level`` (:data:`LEVELS`, ``"random"``, or a former name) for a rule set.

    Only the international player thinks, and these set how long: ``iterations`` (a fixed number of
    playouts per move: the same moves for the same seed), else ``think_ms`` (a time budget per move: not
    reproducible), else its default per-move budget -- or, with ``simulation=True``, its cheaper budget
    for bulk simulation. ``KeyError`` if the rule set has no player of that level, ``ValueError`` for an
    unknown level.
    """
    level = canonical_level(level)
    if level == RANDOM:
        return RandomPlayer()
    get_ruleset(ruleset_id)  # importing the rule set registers its players
    if level == "beginner":
        return Beginner(make_player(ruleset_id, "club"))
    factory = _PLAYERS.get((ruleset_id, level))
    if factory is None:
        raise KeyError(f"no {level} player for {ruleset_id!r}")
    if level == "international":
        return factory(think_ms=think_ms, iterations=iterations, simulation=simulation)
    return factory()


def seat_rng(seed: int, seat: int) -> random.Random:
    """The independent rng of one seat's computer player, derived from the match seed."""
    return random.Random(derive_seed(seed, "seat", seat))


class _NoDraws(random.Random):
    """The rng the play loop gives a player that says it never draws (``uses_rng = False``): a draw is a bug."""

    def random(self) -> float:
        raise RuntimeError("this player said it never draws from its rng (uses_rng = False)")

    def getrandbits(self, k: int, /) -> int:
        raise RuntimeError("this player said it never draws from its rng (uses_rng = False)")


NO_DRAWS: random.Random = _NoDraws(0)


def choose_action(state: GameState, seat: int, player: Player, rng: random.Random) -> str:
    """Ask ``player`` for its move at ``seat`` in ``state``."""
    legal = state.legal_actions(seat)
    if player.searches:
        return player.think(state.view(seat, labels=False, legal=legal, for_player=True), legal, rng,
                            Sampler(state, seat))
    if player.reads_seat_view:
        return player.choose_seen(state.seat_view(seat), legal, rng)
    if player.needs_view and player.needs_view_for(legal):
        return player.choose(state.view(seat, labels=False, legal=legal, for_player=True), legal, rng)
    return player.choose(None, legal, rng)


def play_match(state: GameState, players: Mapping[int, Player], *, checked: bool = False, events: bool = True,
               max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to the end with computer players; returns the same (finished) state.

    ``events=False`` leaves the events out of ``state.events`` (the same actions, position and outcome): for a
    simulation that keeps only the action log and the outcome. They are kept all the same when a player
    searches (its determinisations read what was seen).
    """
    if not events and not any(player.searches for player in players.values()):
        state.record_events = False
    # The body of choose_action, inlined: this loop is the simulation hot path. What each seat's player
    # needs is looked up once per match, not once per action: (player, its rng, its seat view when it reads
    # one -- a seat view reads the live state, so one per seat serves the whole match, and its reader is asked
    # at every choice: asking its needs_view_for first cost 2 % of a lean Bokx match, measured with callgrind
    # --, whether it searches, its needs_view_for when it reads the built view, and whether a choice without
    # the view is the first legal action).
    seats = {seat: (player, seat_rng(state.seed, seat) if player.uses_rng else NO_DRAWS,
                    state.seat_view(seat) if player.reads_seat_view else None, player.searches,
                    player.needs_view_for if player.needs_view else None, player.blind_first)
             for seat, player in players.items()}
    decision, view_of = state.decision, state.view
    # Unchecked, an action is state.advance's body, inlined for the same reason: the history, then the rules.
    record, play, checked_apply = state.history.append, state._apply, state.apply
    # When every player takes the first option of a blind choice, a round of blind choices is one call to the
    # rule set (GameState.blind_round), if it has such rounds.
    blind_round = state.blind_round if (
        not checked and type(state).blind_round is not GameState.blind_round
        and all(player.blind_first and not player.searches for player in players.values())) else None
    for _ in range(max_actions):
        if blind_round is not None:
            # It plays every blind choice up to the next real decision or the end, so it is not asked again before
            # that decision (asking again, in vain, cost 2.5 % of a lean card game match, measured with callgrind).
            blind_round()
        # Who acts and what they may do, in one call to the rule set (GameState.decision).
        turn = decision()
        if turn is None:
            return state
        seat, legal = turn
        player, rng, seen, searches, needs_view_for, blind_first = seats[seat]
        if seen is not None:
            action = player.choose_seen(seen, legal, rng)
        elif searches:
            action = player.think(view_of(seat, labels=False, legal=legal, for_player=True), legal, rng,
                                  Sampler(state, seat))
        elif needs_view_for is not None and needs_view_for(legal):
            action = player.choose(view_of(seat, labels=False, legal=legal, for_player=True), legal, rng)
        elif blind_first:
            action = legal[0]
        else:
            action = player.choose(None, legal, rng)
        if checked:
            checked_apply(seat, action)
        else:
            record((seat, action))
            play(seat, action)
    raise RuntimeError(f"match did not end within {max_actions} actions")


def level_description(level: str) -> dict[str, Any]:
    """``{"level", "label", "help"}`` of a level (for forms and the API)."""
    level = canonical_level(level)
    return {"level": level, "label": LEVEL_LABELS.get(level, level), "help": LEVEL_HELP.get(level, "")}
