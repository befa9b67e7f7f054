"""How each level picks among the legal actions.

- easy: a random legal action;
- normal: the action whose position scores best for the mover, looking ahead
  through the rest of the mover's own turn (dice already rolled are known);
- hard: the normal level's best few candidates, each followed to the end of
  the turn as normal would play it, compared by short Monte-Carlo playouts
  from there (every opponent's dice and replies until the mover's next turn,
  sampled). Every candidate meets the same dice (common random numbers: the
  i-th playout of each candidate rolls from the same seed, on a stream of its
  own that the playout's choices do not draw from), so differences between
  candidates come from the moves, not from luck.
"""
from __future__ import annotations

import random
import time
from typing import TypeVar

from bot.ai.heuristics import GENERIC, WIN, GameHeuristic, score, win_chance
from bot.games.base import Ruleset

S = TypeVar("S")   # the game's state

# Normal: how many positions its look-ahead through the mover's turn may score.
LOOKAHEAD_NODES = 400
# Hard: candidates kept for playouts, and the chance a playout move is random.
HARD_CANDIDATES = 5
PLAYOUT_EPSILON = 0.05
# A playout move is the best of at most this many sampled actions (Pariti offers ~40).
PLAYOUT_SAMPLE = 8
# A playout move looks ahead through the mover's turn like the normal level, within this many positions.
PLAYOUT_LOOKAHEAD_NODES = 60
# A playout stops after this many actions whatever the horizon (a game that
# never ends, e.g. a random walk, must not hang the search).
PLAYOUT_MAX_ACTIONS = 1000


def random_action(ruleset: Ruleset[S], state: S, rng: random.Random) -> str:
    return rng.choice(ruleset.legal_actions(state))


def _turn_end(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, seat: int,
              budget: list[int]) -> tuple[float, S]:
    """(score, position) of the best way for `seat` to finish its turn from `state`
    (until the turn passes or a roll is due), within `budget` scored positions."""
    budget[0] -= 1
    if budget[0] <= 0 or ruleset.to_move(state) != seat or ruleset.roll_due(state):
        return score(ruleset, heuristic, state, seat), state
    actions = ruleset.legal_actions(state)
    if not actions:
        return score(ruleset, heuristic, state, seat), state
    return max((_turn_end(ruleset, heuristic, ruleset.apply(state, a).state, seat, budget) for a in actions),
               key=lambda found: found[0])


def ranked_actions(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S,
                   rng: random.Random) -> list[tuple[float, str, S]]:
    """(score, action, position at the end of the turn) for the mover, best first;
    equal scores in random order."""
    seat = ruleset.to_move(state)
    assert seat is not None   # a position with actions to choose from has a mover
    actions = ruleset.legal_actions(state)
    share = max(1, LOOKAHEAD_NODES // len(actions))
    ranked = []
    for action in actions:
        after = ruleset.apply(state, action).state
        value, end = _turn_end(ruleset, heuristic, after, seat, [share])
        ranked.append((value, rng.random(), action, end))
    ranked.sort(key=lambda r: r[:2], reverse=True)
    return [(value, action, end) for value, _, action, end in ranked]


def best_action(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, rng: random.Random) -> str:
    return ranked_actions(ruleset, heuristic, state, rng)[0][1]


def _playout_action(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, rng: random.Random) -> str:
    """Epsilon-greedy one-step choice: cheap enough to play thousands of moves."""
    actions = ruleset.legal_actions(state)
    if len(actions) == 1 or heuristic is GENERIC or rng.random() < PLAYOUT_EPSILON:
        return rng.choice(actions)
    seat = ruleset.to_move(state)
    assert seat is not None   # as in ranked_actions
    if len(actions) > PLAYOUT_SAMPLE:
        actions = rng.sample(actions, PLAYOUT_SAMPLE)
    best, best_score = actions[0], None
    share = max(1, PLAYOUT_LOOKAHEAD_NODES // len(actions))
    for action in actions:
        value, _ = _turn_end(ruleset, heuristic, ruleset.apply(state, action).state, seat, [share])
        if best_score is None or value > best_score:
            best, best_score = action, value
    return best


def playout(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, seat: int, dice: random.Random,
            choices: random.Random) -> float:
    """Play on until `seat`'s turn has come back `heuristic.horizon` times (or to the end) and return
    seat's win chance: with horizon 1, every opponent's next turn, at a table of four as of two.
    Rolls draw from `dice` only, the players' choices from `choices`: the n-th roll is the same
    whatever was chosen before it (how many actions a choice weighed changes what it draws)."""
    returns, actions = 0, 0
    mover = ruleset.to_move(state)
    while mover is not None and actions < PLAYOUT_MAX_ACTIONS:
        if ruleset.roll_due(state):
            action = ruleset.random_roll(state, dice)
        else:
            action = _playout_action(ruleset, heuristic, state, choices)
        state = ruleset.apply(state, action).state
        actions += 1
        new_mover = ruleset.to_move(state)
        if new_mover != mover and new_mover == seat:
            returns += 1
            if heuristic.horizon is not None and returns >= heuristic.horizon:
                break
        mover = new_mover
    return win_chance(ruleset, heuristic, state, seat)


def monte_carlo_action(ruleset: Ruleset[S], heuristic: GameHeuristic[S], state: S, rng: random.Random,
                       budget_s: float | None, playouts: int | None) -> str:
    """The candidate with the best mean playout value, within the budget (whichever ends first).
    The time budget covers the whole choice, the normal level's ranking included, and a round of
    playouts the deadline interrupts is dropped (rounds only count whole)."""
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    ranked = ranked_actions(ruleset, heuristic, state, rng)
    if len(ranked) == 1 or ranked[0][0] >= WIN:
        return ranked[0][1]
    seat = ruleset.to_move(state)
    assert seat is not None   # as in ranked_actions
    # Playouts start where the normal level would end the turn after each candidate.
    candidates = [action for _, action, _ in ranked[:HARD_CANDIDATES]]
    after = [end for _, _, end in ranked[:HARD_CANDIDATES]]
    totals = [0.0] * len(candidates)
    done = 0
    # One round = one playout per candidate, all from the same seeds.
    while playouts is None or done + len(candidates) <= playouts:
        dice_seed, choices_seed = rng.getrandbits(64), rng.getrandbits(64)
        values = []
        for start in after:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            values.append(playout(ruleset, heuristic, start, seat, random.Random(dice_seed),
                                  random.Random(choices_seed)))
        if len(values) < len(candidates):
            break
        totals = [total + value for total, value in zip(totals, values)]
        done += len(candidates)
    # Ties (and no playout at all) keep the normal level's order.
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]

