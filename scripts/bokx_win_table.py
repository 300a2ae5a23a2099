"""Write ``engine/bokx/win_table.json``: the RUGBY_Bokx holder's win chance learned from club v club matches.

    .venv/bin/python scripts/bokx_win_table.py [--games N] [--first-seed S]

Plays ``--games`` seeded club v club matches (seeds from ``--first-seed``, away from the seeds the benchmarks
and tests play) and, before every action, notes the position as the table indexes it (see
:mod:`engine.bokx.win_chance`) from the side in possession, and at the end what that side scored (a win 1, a
draw 1/2). Each cell's average is shrunk towards a coarser one (the same cell without what comes next, then
a smooth normal estimate) by ``PRIOR`` matches' weight, so that thin cells stay sensible; then each row is made
non-decreasing in the score difference (pool-adjacent-violators, weighted by the counts): more points ahead is
never worse. Deterministic for given arguments.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.bokx.field import progress
from engine.bokx.player import BokxClubPlayer
from engine.bokx.rules import BokxState
from engine.bokx.win_chance import (
    MAX_DIFF,
    PHASES,
    TABLE_PATH,
    TIME_STEP,
    TIME_STEPS,
    ZONE_OF_ROW,
    ZONES,
    WinTable,
    normal_chance,
    phase_index,
    seconds_left,
    time_index,
)
from engine.players import seat_rng
from engine.registry import new_game

PRIOR = 30.0  # matches' weight of the coarser estimate in each cell
DIFFS = 2 * MAX_DIFF + 1


def record(games: int, first_seed: int) -> tuple[list[float], list[int], list[float], list[int]]:
    """(score sum, count) per full cell and per cell without the phase, over ``games`` club v club matches."""
    cells = DIFFS * TIME_STEPS * ZONES * len(PHASES)
    fine_sum, fine_n = [0.0] * cells, [0] * cells
    coarse_sum, coarse_n = [0.0] * (cells // len(PHASES)), [0] * (cells // len(PHASES))
    club = BokxClubPlayer()
    for seed in range(first_seed, first_seed + games):
        state = new_game("bokx", seed=seed)
        assert isinstance(state, BokxState)
        half = state.options["half_minutes"]
        rngs = {s: seat_rng(seed, s) for s in (0, 1)}
        seen: list[tuple[int, int]] = []  # (cell, holder)
        while True:
            acting = state.to_act()
            if not acting:
                break
            if state.period <= 2 and state.phase != "toss":
                holder = state.poss
                diff = state.score[holder] - state.score[1 - holder]
                left = seconds_left(state.period, state.secs, state.period_len, half)
                cell = WinTable.index(diff, time_index(left, half), ZONE_OF_ROW[progress(holder, state.y)],
                                      phase_index(state.phase, state.ctx))
                seen.append((cell, holder))
            seat = acting[0]
            legal = state.legal_actions(seat)
            if club.needs_view_for(legal):
                view = state.view(seat, labels=False, legal=legal, for_player=True)
                state.advance(seat, club.choose(view, legal, rngs[seat]))
            else:
                state.advance(seat, club.choose(None, legal, rngs[seat]))
        winner = state.outcome().winner
        for cell, holder in seen:
            value = 0.5 if winner is None else 1.0 if winner == holder else 0.0
            fine_sum[cell] += value
            fine_n[cell] += 1
            coarse_sum[cell // len(PHASES)] += value
            coarse_n[cell // len(PHASES)] += 1
    return fine_sum, fine_n, coarse_sum, coarse_n


def monotone(values: list[float], weights: list[float]) -> list[float]:
    """The weighted least-squares non-decreasing fit of ``values`` (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, n2 = blocks.pop()
            m1, w1, n1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out: list[float] = []
    for mean, _w, n in blocks:
        out.extend([mean] * int(n))
    return out


def build(games: int, first_seed: int) -> list[int]:
    fine_sum, fine_n, coarse_sum, coarse_n = record(games, first_seed)
    n_ph = len(PHASES)
    values = [0.0] * len(fine_n)
    for d in range(DIFFS):
        for t in range(TIME_STEPS):
            left = int((t + 0.5) * TIME_STEP)
            smooth = normal_chance(d - MAX_DIFF, left)
            for z in range(ZONES):
                c = (d * TIME_STEPS + t) * ZONES + z
                coarse = (coarse_sum[c] + PRIOR * smooth) / (coarse_n[c] + PRIOR)
                for ph in range(n_ph):
                    i = c * n_ph + ph
                    values[i] = (fine_sum[i] + PRIOR * coarse) / (fine_n[i] + PRIOR)
    # Non-decreasing in the score difference, for every time, zone and phase.
    stride = TIME_STEPS * ZONES * n_ph
    for rest in range(stride):
        column = [values[d * stride + rest] for d in range(DIFFS)]
        weights = [fine_n[d * stride + rest] + PRIOR for d in range(DIFFS)]
        for d, v in enumerate(monotone(column, weights)):
            values[d * stride + rest] = v
    return [round(1000 * v) for v in values]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    parser.add_argument("--out", default=str(TABLE_PATH))
    args = parser.parse_args(argv)
    started = time.process_time()
    values = build(args.games, args.first_seed)
    payload = {
        "about": f"RUGBY_Bokx holder's expected score (per mille) by score difference, time left, zone and phase; "
                 f"{args.games} club v club matches from seed {args.first_seed} (scripts/bokx_win_table.py)",
        "max_diff": MAX_DIFF, "time_step": TIME_STEP, "time_steps": TIME_STEPS, "zones": ZONES,
        "phases": list(PHASES), "games": args.games, "first_seed": args.first_seed,
        "values": values,
    }
    pathlib.Path(args.out).write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"{len(values)} cells from {args.games} matches in {time.process_time() - started:.0f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
