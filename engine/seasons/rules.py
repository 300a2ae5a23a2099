"""The Seasons football card game (Matthew Shields, 2005): rules.

Two players, a 39-card deck (one suit stripped), eleven "seasons". Each player
has a team of five cards; the team with the higher value wins the season. After
each season the players draft from three face-up cards by exchanging them with
team cards. Decisions on what the book leaves open are in INTERPRETATIONS.md.

Cards are two-character strings: rank ``23456789TJQKA`` then suit ``SHDC``
(``"TH"`` is the ten of hearts). Actions are ``"swap:<draft card>:<team card>"``
with the cards in lowercase, as the engine's action grammar writes ids
(``"swap:th:2s"``: take the ten of hearts into the team, put the two of spades in
the draft; see :func:`swap_action`) and ``"pass"``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.chance import SeededChance
from engine.core import (
    AWAY,
    HOME,
    JSON,
    SEAT_NAMES,
    GameState,
    Option,
    Outcome,
    RuleSetSpec,
    SeatView,
    format_action,
    json_number,
)
from engine.registry import register
from engine.scoring import SEASONS_WON

RANKS = "23456789TJQKA"
SUITS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
DEFENDER_RANKS = "23456789T"
STRIKER_RANKS = "JQKA"  # in sequence order: the Ace is high, above the King
MELD_MULTIPLIER = {3: 3, 4: 6, 5: 9}
TEAM_SIZE = 5
DRAFT_SIZE = 3
SEASONS = 11


PASS = "pass"


_CARDS = tuple(r + s for s in "SHDC" for r in RANKS)
# Every swap action, built once: legal_actions and the aware player look them up (simulation hot paths).
_SWAPS = {take: {give: format_action("swap", take.lower(), give.lower()) for give in _CARDS} for take in _CARDS}


def swap_action(take: str, give: str) -> str:
    """The action that drafts ``take`` and releases ``give``: ``swap_action("TH", "2S")`` -> ``"swap:th:2s"``."""
    return _SWAPS[take][give]


def full_deck(removed_suit: str = "clubs") -> list[str]:
    """The 39 cards in a fixed order (the suit ``removed_suit`` stripped out)."""
    stripped = SUITS[removed_suit]
    return [r + s for s in "SHDC" if s != stripped for r in RANKS]


def card_label(card: str) -> str:
    """``"TH"`` -> ``"10\u2665"``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def is_striker(card: str) -> bool:
    return card[0] in STRIKER_RANKS


# A card as a bit for the melds: each suit's ranks in order from bit ``suit * 15``, with a bit left empty between
# the ten and the jack and after the ace, so that a run of set bits is a meld of one kind in one suit.
_MELD_BIT = {r + s: 1 << (15 * suit + rank + (r in STRIKER_RANKS)) for suit, s in enumerate("SHDC")
             for rank, r in enumerate(RANKS)}
_KIND_BITS = {kind: sum(bit for card, bit in _MELD_BIT.items() if card[0] in kind)
              for kind in (DEFENDER_RANKS, STRIKER_RANKS)}
_DEFENDER_BITS, _STRIKER_BITS = _KIND_BITS[DEFENDER_RANKS], _KIND_BITS[STRIKER_RANKS]


def _longest_run(bits: int) -> int:
    """The longest run of set bits: each pass keeps the bits that follow a set bit (a meld loses a card)."""
    length = 0
    while bits:
        bits &= bits >> 1
        length += 1
    return length


def longest_meld(cards: list[str], kind_ranks: str) -> int:
    """Length of the longest same-suit run among ``cards`` whose ranks are in ``kind_ranks`` (the defenders'
    ``DEFENDER_RANKS`` or the strikers' ``STRIKER_RANKS``).

    Runs never cross from defenders to strikers (10-J-Q is not a meld): the book
    multiplies the surplus of one kind by a sequence of that kind.
    """
    bits = 0
    for card in cards:
        bits |= _MELD_BIT[card]
    return _longest_run(bits & _KIND_BITS[kind_ranks])


def team_counts(team: list[str]) -> tuple[int, int]:
    """(defenders, strikers) in a team."""
    strikers = sum(1 for c in team if is_striker(c))
    return len(team) - strikers, strikers


def _features(team: list[str]) -> tuple[int, int, int, int]:
    """(defenders, strikers, defender meld, striker meld) of a team."""
    bits = 0
    for card in team:
        bits |= _MELD_BIT[card]
    strikers = bits & _STRIKER_BITS
    count = strikers.bit_count()
    return len(team) - count, count, _longest_run(bits & _DEFENDER_BITS), _longest_run(strikers)


def _multiplier(meld_d: int, meld_s: int) -> int:
    """The multiplier of a team's longest meld of either kind (1 without a meld of three or more).

    Five cards hold at most one meld of three or more, so "the length of the sequence" is never in doubt.
    """
    return MELD_MULTIPLIER.get(min(max(meld_d, meld_s), 5), 1)


def season_points(team: list[str], other: list[str]) -> dict[str, int]:
    """Points ``team`` scores against ``other`` in a season, with the breakdown."""
    return _breakdown(_features(team), _features(other))


def _breakdown(mine: tuple[int, int, int, int], theirs: tuple[int, int, int, int]) -> dict[str, int]:
    d, s, meld_d, meld_s = mine
    surplus_d = max(0, d - theirs[0])
    surplus_s = max(0, s - theirs[1])
    base = surplus_d * 1 + surplus_s * 2
    # INTERPRETATIONS #5: "if he has a surplus, the points are multiplied" -- all his points, whichever kind
    # of surplus they come from.
    mult = _multiplier(meld_d, meld_s) if base else 1
    return {"defenders": d, "strikers": s, "surplus_defenders": surplus_d, "surplus_strikers": surplus_s,
            "defender_meld": meld_d, "striker_meld": meld_s, "multiplier": mult, "points": base * mult}


def _points(mine: tuple[int, int, int, int], theirs: tuple[int, int, int, int]) -> int:
    surplus_d = mine[0] - theirs[0]
    surplus_s = mine[1] - theirs[1]
    points = 0
    if surplus_d > 0:
        points += surplus_d
    if surplus_s > 0:
        points += 2 * surplus_s
    return points * _multiplier(mine[2], mine[3]) if points else 0


def score_season(home: list[str], away: list[str]) -> tuple[int, int]:
    """(home points, away points) of a season."""
    h, a = _features(home), _features(away)
    return _points(h, a), _points(a, h)


def _seasons(halves: int) -> int | Fraction:
    """Seasons won from a count of halves: a whole number as an int (cheap), a half as a Fraction."""
    return halves // 2 if halves % 2 == 0 else Fraction(halves, 2)


@register
class SeasonsState(GameState):
    """A match of Seasons: 11 seasons with a draft between consecutive seasons."""

    spec = RuleSetSpec(
        id="seasons",
        name="Seasons (football card game)",
        players=2,
        hidden_information=True,
        rules_version="1.1",
        options={
            "removed_suit": Option("clubs", "the suit stripped from the 52-card deck",
                                   choices=tuple(SUITS)),
            "max_exchanges": Option(5, "exchanges each player may make in one draft (keeps every draft finite)"),
        },
        description="Eleven seasons with an evolving five-card team of defenders and strikers, "
                    "improved through a three-card draft after each season.",
        scoring=SEASONS_WON,
        board_kind="team-draft",
    )

    saved_fields = ("teams", "stock", "draft", "retired", "season", "results", "first", "turn", "passes",
                    "exchanges", "over")

    # ---- setup -------------------------------------------------------------------
    def setup(self) -> None:
        if not isinstance(self.options["max_exchanges"], int) or self.options["max_exchanges"] < 1:
            raise ValueError("option 'max_exchanges' must be a positive whole number")
        deck = self.chance.shuffle(full_deck(self.options["removed_suit"]))
        self.teams: list[list[str]] = [deck[:TEAM_SIZE], deck[TEAM_SIZE:2 * TEAM_SIZE]]
        self.stock: list[str] = deck[2 * TEAM_SIZE:]
        self.draft: list[str] = []
        self.retired: list[str] = []
        self.season = 0
        self.results: list[JSON] = []
        self.first: int | None = None
        self.turn: int | None = None
        self.passes = 0
        self.exchanges = [0, 0]
        self.over = False
        self.emit("deal", None, "Five cards dealt to each team; the rest is the stock.",
                  stock=len(self.stock))
        self._tabulate()

    def _turn_up_draft(self) -> None:
        # The stock holds 29 cards after the deal: nine drafts of three and a last draft of two.
        n = min(DRAFT_SIZE, len(self.stock))
        self.draft = self.stock[:n]
        self.stock = self.stock[n:]
        if self.record_events:
            self.emit("draft", None, f"Draft for season {self.season + 1} turned up: "
                                     f"{', '.join(map(card_label, self.draft))}.", cards=list(self.draft))

    def decided(self) -> bool:
        """A side has won more than half of the 11 seasons (halved seasons count ½): the match is won.

        "To win the majority of 11": more than 5½, so 6 seasons, or 5 and two halves, and so on.
        """
        return max(self.halves_won()) > SEASONS

    def _tabulate(self) -> None:
        """Reveal both teams, score the season, then turn up the next draft (or end the match).

        The book turns the next draft up before the season is tabulated; nothing is chosen in between, so
        turning it up after the season (when there is a next season) changes nothing but the commentary.
        """
        self.season += 1
        features = _features(self.teams[HOME]), _features(self.teams[AWAY])
        home, away = _breakdown(*features), _breakdown(features[1], features[0])
        points = [home["points"], away["points"]]
        winner = HOME if points[0] > points[1] else AWAY if points[1] > points[0] else None
        self.results.append({"season": self.season, "points": points, "winner": winner,
                             "teams": [list(self.teams[HOME]), list(self.teams[AWAY])],
                             "breakdown": [home, away]})
        if self.record_events:
            verdict = "halved" if winner is None else f"won by {SEAT_NAMES[winner]}"
            self.emit("season", winner, f"Season {self.season}: {points[0]}-{points[1]}, {verdict}.",
                      season=self.season, points=points, winner=winner,
                      teams=[list(self.teams[HOME]), list(self.teams[AWAY])])
        if self.season >= SEASONS or not self.stock or self.decided():
            self.over = True
            self.turn = None
            self.draft = []
            if self.record_events:
                out = self.outcome()
                won = [json_number(p) for p in out.points]
                early = "" if self.season >= SEASONS else f" (decided after {self.season} of {SEASONS} seasons)"
                self.emit("full_time", out.winner, f"Full time: {won[0]}-{won[1]} in seasons{early}.",
                          seasons=won, decided_after=self.season)
            return
        self._turn_up_draft()
        if winner is None:
            # Halved: the alternate player, i.e. the one who did not pick first last time (home after season 1).
            self.first = HOME if self.first is None else 1 - self.first
        else:
            self.first = 1 - winner
        self.turn = self.first
        self.passes = 0
        self.exchanges = [0, 0]

    # ---- protocol ------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)  # type: ignore[return-value]  # None only when over

    def decision(self) -> tuple[int, list[str]] | None:
        if self.over:
            return None
        seat: int = self.turn  # type: ignore[assignment]  # None only when over
        return seat, self.legal_actions(seat)

    def legal_actions(self, seat: int) -> list[str]:
        if self.over or seat != self.turn:
            return []
        actions = [PASS]
        if self.exchanges[seat] < self.options["max_exchanges"]:
            team = self.teams[seat]
            actions += [row[t] for row in map(_SWAPS.__getitem__, self.draft) for t in team]
        return sorted(actions)

    def _apply(self, seat: int, action: str) -> None:
        if action == PASS:
            self.passes += 1
            if self.record_events:
                if self.exchanges[seat] >= self.options["max_exchanges"]:
                    self.emit("pass", seat, f"{SEAT_NAMES[seat].title()} has no exchanges left and passes.",
                              forced=True)
                else:
                    self.emit("pass", seat, f"{SEAT_NAMES[seat].title()} is satisfied with the team.")
            if self.passes >= 2:
                self._end_draft()
                return
        else:
            _, take, give = action.upper().split(":")
            team = self.teams[seat]
            team[team.index(give)] = take
            self.draft[self.draft.index(take)] = give
            self.exchanges[seat] += 1
            self.passes = 0
            if self.record_events:
                self.emit("swap", seat, f"{SEAT_NAMES[seat].title()} drafts {card_label(take)} and releases "
                          f"{card_label(give)}.", take=take, give=give)
        self.turn = 1 - seat

    def _end_draft(self) -> None:
        self.retired.extend(self.draft)
        if self.record_events:
            self.emit("retire", None, f"Draft retired: {', '.join(map(card_label, self.draft))}.",
                      cards=list(self.draft))
        self.draft = []
        self._tabulate()

    def halves_won(self) -> list[int]:
        """Seasons won by each side, counted in halves (Fractions are slow, and views ask on every move)."""
        halves = [0, 0]
        for r in self.results:
            winner = r["winner"]
            if winner is None:
                halves[0] += 1
                halves[1] += 1
            else:
                halves[winner] += 2
        return halves

    def seasons_won(self) -> tuple[Fraction, Fraction]:
        halves = self.halves_won()
        return Fraction(halves[0], 2), Fraction(halves[1], 2)

    def scoreline(self) -> tuple[tuple[int | Fraction, int | Fraction], tuple[int, int]]:
        home, away = self.halves_won()
        return (_seasons(home), _seasons(away)), (0, 0)


    def outcome(self) -> Outcome:
        won = self.seasons_won()
        halved = sum(1 for r in self.results if r["winner"] is None)
        home, away = ({"seasons_won": sum(1 for r in self.results if r["winner"] == s), "halved": halved,
                       "season_points": sum(r["points"][s] for r in self.results)} for s in (HOME, AWAY))
        return Outcome(points=won, tries=(0, 0), stats=(home, away))

    def phase_name(self) -> str:
        return "over" if self.over else "draft"

    def board_view(self, seat: int | None) -> JSON:
        # Both teams are public: they are revealed at the first season and every exchange after it
        # is made with face-up draft cards. Only the stock (its order and content) is hidden.
        return {
            "season": self.season,
            "seasons_total": SEASONS,
            "teams": [list(self.teams[HOME]), list(self.teams[AWAY])],
            "team_labels": [[card_label(c) for c in t] for t in self.teams],
            "draft": list(self.draft),
            "draft_labels": [card_label(c) for c in self.draft],
            "stock_count": len(self.stock),
            "retired": list(self.retired),
            "results": [{"season": r["season"], "points": r["points"], "winner": r["winner"]} for r in self.results],
            "last_season": self.results[-1] if self.results else None,
            "first": self.first,
            "turn": self.turn,
            "passes": self.passes,
            "exchanges": list(self.exchanges),
            "max_exchanges": self.options["max_exchanges"],
        }

    def action_previews(self, seat: int) -> dict[str, JSON]:
        """For each exchange on offer: the next season's points (this seat's, the other's) with the team it
        makes, as if the season were played now (both teams are public, so this reveals nothing)."""
        if seat != self.turn or self.over:
            return {}
        mine, other = _features(self.teams[seat]), _features(self.teams[1 - seat])
        now, then = _points(mine, other), _points(other, mine)
        previews: dict[str, JSON] = {PASS: {"season": [now, then]}}
        for action in self.legal_actions(seat):
            if action == PASS:
                continue
            _, take, give = action.upper().split(":")
            team = _features([take if c == give else c for c in self.teams[seat]])
            previews[action] = {"season": [_points(team, other), _points(other, team)]}
        return previews

    # ---- search ----------------------------------------------------------------------
    def copy_position_into(self, other: GameState) -> None:
        assert isinstance(other, SeasonsState)
        other.teams = [list(self.teams[HOME]), list(self.teams[AWAY])]
        other.stock = list(self.stock)
        other.draft = list(self.draft)
        other.retired = list(self.retired)
        other.season = self.season
        other.results = list(self.results)  # a season's result is never changed once recorded
        other.first, other.turn, other.passes = self.first, self.turn, self.passes
        other.exchanges = list(self.exchanges)
        other.over = self.over

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """Both teams, the draft and the retired cards are public; the stock holds the other cards of the deck,
        in an order nobody knows: it is shuffled afresh (from the sorted cards, so only its content counts)."""
        other = self.fork(SeededChance(rng.getrandbits(64)))
        assert isinstance(other, SeasonsState)
        stock = sorted(self.stock)
        rng.shuffle(stock)
        other.stock = stock
        return other

    def seat_view(self, seat: int) -> SeasonsSeatView:
        return SeasonsSeatView(self, seat)

    def player_board(self, seat: int) -> JSON:
        """What the club player reads of ``board_view(seat)``: the teams, the draft and the draft's counts."""
        return {"teams": [list(self.teams[HOME]), list(self.teams[AWAY])], "draft": list(self.draft),
                "passes": self.passes, "exchanges": list(self.exchanges),
                "max_exchanges": self.options["max_exchanges"], "turn": self.turn, "season": self.season,
                "stock_count": len(self.stock)}

    def describe_action(self, action: str) -> str:
        if action == PASS:
            return "Satisfied: pass"
        parts = action.upper().split(":")
        if len(parts) == 3 and parts[0] == "SWAP":
            return f"Draft {card_label(parts[1])}, release {card_label(parts[2])}"
        return action



class SeasonsSeatView(SeatView):
    """What the club player reads of ``view(seat)``, computed when read: these keys of the board, with the same
    values (all public: only the stock is hidden). The teams and the draft are the state's own lists, not
    copies: the player only reads them."""

    __slots__ = ("max_exchanges",)
    _state: SeasonsState

    def __init__(self, state: SeasonsState, seat: int):
        super().__init__(state, seat)
        # An option, fixed for the match: read once, not at every decision.
        self.max_exchanges: int = state.options["max_exchanges"]

    @property
    def teams(self) -> list[list[str]]:
        return self._state.teams

    @property
    def draft(self) -> list[str]:
        return self._state.draft

    @property
    def passes(self) -> int:
        return self._state.passes

    @property
    def exchanges(self) -> list[int]:
        return self._state.exchanges
