"""Parcheesi-family heuristics (Mundijeux, classic, Maghreb): a race with risks.

A seat's score is, in squares, what its pawns have achieved and kept:
- progress: each pawn out of the house is worth OUT_VALUE plus its progress,
  a pawn in the goal GOAL_BONUS more;
- threats: a pawn on an unsafe track square that an opposing pawn could reach
  with the next roll loses, weighted by that roll's chance, what a capture
  would cost (its value, plus the capturer's bonus);
- blocks: two own pawns on one track square (a bridge, a barrier, a door).
Captures need no term of their own: the victim's progress is gone, and the
capturer's bonus move is seen by the look-ahead through the turn.
"""
from __future__ import annotations

import math

from bot.ai.heuristics import Heuristic, relative
from bot.games.parcheesi import maghreb_state as mg
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK
from bot.games.parcheesi.engine import Engine
from bot.games.parcheesi.engine_state import ROUTE_PROGRESS, SAFE, State, square_rows
from bot.games.parcheesi.maghreb import Maghreb
from bot.games.parcheesi.maghreb_state import MaghrebState

OUT_VALUE = 12          # a pawn out of the house: worth more than a few squares
GOAL_BONUS = 10         # a pawn home can never be lost
CAPTURE_BONUS = 20      # what the capturer gains on top of the victim's loss
BLOCK_VALUE = 3
TRACK = 68
# The hard level's win chances: the score gap worth odds of e:1 grows with the squares left to play,
# SCALE_PER_ROOT x the square root of what the average side has still to gain (a lead of 25 squares
# decides little at the start and much near the end). Fitted to who won 1,500 games of normal players
# at two and at four (tests/benchmarks/calibration.py): the log-likelihood of the winners is best near
# 5.5 at both, where a fixed 25 (the scale before) did worse than calling every seat equal.
SCALE_PER_ROOT = 5.5


def _hit_chances(n_dice: int, twelve_on_six: bool = False) -> tuple[float, ...]:
    """Chance, indexed by distance, that the next roll offers a move of exactly that distance."""
    chances = [0.0] * 13
    if n_dice == 2:
        for d in range(1, 13):
            hits = sum(1 for a in range(1, 7) for b in range(1, 7) if d in (a, b, a + b))
            chances[d] = hits / 36
    else:
        for d in range(1, 7):
            chances[d] = 1 / 6
        if twelve_on_six:
            chances[12] = chances[6] = 1 / 6
    return tuple(chances)


def _pawn_value(progress: int) -> float:
    if progress == HOUSE:
        return 0.0
    if progress >= GOAL:
        return OUT_VALUE + GOAL + GOAL_BONUS
    return OUT_VALUE + progress


# _pawn_value by progress (index -1, the last, is the house): a lookup in evaluate's loop.
_PAWN_VALUES = tuple(_pawn_value(p) for p in range(GOAL + 1)) + (_pawn_value(HOUSE),)


def _threat_rows(route: tuple[int, ...], chances: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """For a pawn at each progress of `route` (progress at each track square, or -1): the chance that
    the next roll lets it hit each track square. Looking a square up in the row replaces computing the
    distance to it (evaluate's inner loop, run for every pair of pawns: about twice as fast)."""
    return tuple(tuple(chances[route[sq] - at] if 0 < route[sq] - at <= 12 else 0.0 for sq in range(TRACK))
                 for at in range(GOAL))


def _seat_scores(pawns: list[tuple[int, int, int, bool]], n_seats: int,
                 hunters: list[tuple[int, tuple[float, ...]]]) -> list[float]:
    """Scores per seat from (seat, progress, square, safe) of every pawn.

    `hunters` are the pawns on the track as (seat, its threat row): what could capture next roll."""
    scores = [0.0] * n_seats
    seen = set()
    for seat, progress, sq, safe in pawns:
        value = _PAWN_VALUES[progress]
        scores[seat] += value
        if not 0 <= sq < TRACK:
            continue
        if (seat, sq) in seen:
            scores[seat] += BLOCK_VALUE
        seen.add((seat, sq))
        if safe:
            continue
        risk = 0.0
        for other, threat in hunters:
            if other != seat:
                risk += threat[sq]   # 0.0 where out of reach: the same sum, term for term, as adding only hits
        if risk:
            scores[seat] -= min(risk, 0.9) * (value + CAPTURE_BONUS)
    return scores


def _engine_scores(ruleset: Engine, state: State) -> list[float]:
    """Every seat's score; in a team game (2 vs 2: seats 0+2 against 1+3, PM-10.1), its team's."""
    rows = square_rows(state.colours)
    pos = state.pos
    colours = state.colours
    pawns, hunters = [], []
    threats = _ENGINE_THREATS[ruleset.n_dice]
    for p, progress in enumerate(pos):
        sq = rows[p][progress]
        owner = p >> 2
        pawns.append((owner, progress, sq, sq < 0 or SAFE[sq]))
        if 0 <= sq < TRACK:
            hunters.append((owner, threats[colours[owner]][progress]))
    scores = _seat_scores(pawns, len(colours), hunters)
    if state.teams:
        return [scores[s] + scores[(s + 2) % 4] for s in range(4)]
    return scores


def _engine_evaluate(ruleset: Engine, state: State, seat: int) -> float:
    return relative(_engine_scores(ruleset, state), seat, ((seat + 2) % 4,) if state.teams else ())


def engine_scale(state: State, per_root: float = SCALE_PER_ROOT) -> float:
    """The score gap worth odds of e:1 in this position: `per_root` x the root of the squares left a side."""
    left = len(state.pos) * _PAWN_VALUES[GOAL] - sum(_PAWN_VALUES[p] for p in state.pos)   # p = HOUSE: [-1]
    return per_root * math.sqrt(max(1, left) / len(state.colours))


def _engine_win_chance(ruleset: Engine, state: State, seat: int, per_root: float) -> float:
    """Seat's share of the wins, exp(score / scale) against every side's: at a table of four, a pawn
    sent home costs its owner's chances whoever leads, where the score relative to the best opponent
    (the normal level's) only sees the leader. Two sides: the logistic of the score gap, as elsewhere."""
    scores = _engine_scores(ruleset, state)
    sides = [s for s in range(len(scores)) if not state.teams or s < 2]
    mine, scale = scores[seat], engine_scale(state, per_root)
    return 1.0 / sum(math.exp(max(-60.0, min(60.0, (scores[s] - mine) / scale))) for s in sides)


# Threat rows by number of dice, colour and progress (engine), by seat and progress (Maghreb).
_ENGINE_THREATS = {
    n: tuple(_threat_rows(ROUTE_PROGRESS[c][:TRACK], _hit_chances(n)) for c in range(len(ROUTE_PROGRESS)))
    for n in (1, 2)
}
# Progress on each player's route at each track square 0..67, -1 where it does not pass.
_MG_PROGRESS = tuple(tuple(keys[:LAST_TRACK + 1].index(sq + 1) if sq + 1 in keys[:LAST_TRACK + 1] else -1
                           for sq in range(TRACK)) for keys in mg.KEYS)
_MG_THREATS = tuple(_threat_rows(route, _hit_chances(1, twelve_on_six=True)) for route in _MG_PROGRESS)


def _maghreb_evaluate(ruleset: Maghreb, state: MaghrebState, seat: int) -> float:
    pawns, hunters = [], []
    for i, p in enumerate(state.pieces):
        owner = i >> 3
        if 0 <= p < GOAL:
            key = mg.KEYS[owner][p]
            sq = key - 1 if p <= LAST_TRACK else TRACK + key   # track squares 0..67, columns beyond
            pawns.append((owner, p, sq, mg.SAFE[owner][p]))
            if p <= LAST_TRACK:
                hunters.append((owner, _MG_THREATS[owner][p]))
        else:
            pawns.append((owner, p, -1, True))
    return relative(_seat_scores(pawns, 2, hunters), seat)


# Its scale is SCALE_PER_ROOT: the win chance grows it with the squares left (engine_scale).
ENGINE: Heuristic[Engine, State] = Heuristic(_engine_evaluate, scale=SCALE_PER_ROOT, horizon=1,
                                             win_chance=_engine_win_chance)
# Fitted as SCALE_PER_ROOT was (tests/benchmarks/calibration.py, 1,000 games): best from 120 to 140, where 35
# (the scale before) did worse than calling both players equal.
MAGHREB: Heuristic[Maghreb, MaghrebState] = Heuristic(_maghreb_evaluate, scale=130.0, horizon=1)


def classic_call_valid(ruleset: Engine, state: State, seat: int, action: str) -> bool:
    """PC-9.4: a call-out succeeds when the judged turn moved pawns by an infraction."""
    return bool(state.cheats) and state.callee != seat


def maghreb_call_valid(ruleset: Maghreb, state: MaghrebState, seat: int, action: str) -> bool:
    """MG-10.4: valid when the named piece made an illegal move in the turn on record."""
    piece = mg.parse(action).piece
    return any(p == piece and not legal for p, legal in state.log)
