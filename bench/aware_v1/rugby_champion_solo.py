"""A Rugby Champion solo player that chooses its cards well (stands in for absent entrants).

It reads only ``view(0)``: its hand, the face-up cards, the discard pile and the
public counts. It knows the deck list (``cards.toml``), so the Non-player's
face-down card is, to it, any player card it has not seen. For every legal play
it weighs the chances of each challenge result against that unseen pool.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.core import JSON, View
from engine.players import Player
from engine.rugby_champion_solo.cards import DECK

# What each challenge result is worth to the person, roughly in points.
TRY, SHIFT, DRAW, LOSE_ONE, NP_TRY = 6.5, 1.0, -0.3, -1.5, -6.0


def _unseen(board: JSON) -> list[str]:
    seen = Counter(c["id"] for c in board["hand"] or [])
    seen.update(board["discard"])
    seen.update(spot["card"]["id"] for spot in board["line"] if spot["face_up"])
    return [c for c in DECK.players if not seen[c]]


def _support_odds(board: JSON) -> tuple[float, float, list[float]]:
    """(chance of a foul, chance of a kicker, bonuses of blue cards each with its chance) of a support draw."""
    if board["support_drawn"] or not board["support_count"]:
        return 0.0, 0.0, []
    pool = list(DECK.supports.values())
    n = len(pool) - board["kickers_aside"]
    fouls = sum(1 for s in pool if s.effect == "foul") / n
    kickers = (sum(1 for s in pool if s.effect == "kicker") - board["kickers_aside"]) / n
    return fouls, kickers, [float(s.bonus) for s in pool if s.effect == "support"]


def _card_worth(c: JSON) -> float:
    """How much a card is worth keeping for later challenges (its best values)."""
    vals: list[int] = sorted(c["values"].values(), reverse=True)
    return 0.15 * (vals[0] + vals[1]) + (0.6 if c["goal"] else 0.0)


class RugbyChampionAwarePlayer(Player):
    """Picks the play with the best expected result against the cards it has not seen."""

    level = "aware"
    needs_view = True

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view is not None
        phase = view["phase"]
        board = view["board"]
        hand = {c["id"]: c for c in board["hand"]}
        if phase == "conversion":
            goals = [a for a in legal if a.startswith("convert:")]
            return min(goals, key=lambda a: _card_worth(hand[a.split(":")[1]])) if goals else legal[0]
        unseen = [DECK.players[c] for c in _unseen(board)]
        if phase in ("lineout", "scrum"):
            piece = board["setpiece"]["card"]
            ctype = piece["type"]

            def pair_key(action: str) -> float:
                a, b = action.split(":")[1:]
                total = hand[a]["values"][ctype] + hand[b]["values"][ctype]
                wins = sum(1 for u in unseen if total > piece["value"] + u.values[ctype]) / max(1, len(unseen))
                return wins - 0.05 * (_card_worth(hand[a]) + _card_worth(hand[b]))

            return max(legal, key=pair_key)
        foul, _kicker, blues = _support_odds(board)
        n_blue_total = len(DECK.supports) - board["kickers_aside"]
        np_adv = board["advantage"] == "away"
        my_adv = board["advantage"] == "home"
        lose_one = NP_TRY if np_adv else (-0.8 if my_adv else LOSE_ONE)

        def result_value(margin: int) -> float:
            if margin >= 2:
                return TRY
            if margin == 1:
                return SHIFT
            if margin == 0:
                return DRAW
            if margin == -1:
                return lose_one
            return NP_TRY

        def play_value(action: str) -> float:
            parts = action.split(":")
            mine, ctype = hand[parts[1]], parts[2]
            total = 0.0
            for u in unseen:
                pv, nv = mine["values"][ctype], u.values[ctype]
                if mine["referee"] and not u.referee and u.whistles:
                    if u.whistles == 2:
                        total += 0.5
                        continue
                    nv = 0
                elif u.referee and not mine["referee"] and mine["whistles"]:
                    if mine["whistles"] == 2:
                        total += 0.5
                        continue
                    pv = 0
                margin = pv - nv
                if margin >= 1 and (foul or blues):
                    # The Non-player's support draw: a foul (scrum), a blue card (bonus), or nothing that matters.
                    v = foul * 0.5
                    rest = 1.0 - foul
                    for bonus in blues:
                        v += result_value(margin - bonus) / n_blue_total
                        rest -= 1 / n_blue_total
                    v += rest * result_value(margin)
                    total += v
                else:
                    total += result_value(margin)
            return total / max(1, len(unseen)) - _card_worth(mine)

        return max(legal, key=play_value)
