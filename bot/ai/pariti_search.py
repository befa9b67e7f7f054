"""Pariti hard: alpha-beta search (PA-* rules, tests/rules/pariti.md).

Pariti has no dice after the set-up, so the hard level searches the game tree
itself: negamax with alpha-beta pruning, iterative deepening (depth 1, 2, ...
until the budget runs out; the deepest finished search decides), a
transposition table keyed by Zobrist hashes, and moves ordered by the table's
best move first, then pairing steps, then how much closer a move brings the
piece to its partner (the normal level's heuristic, bot/ai/pariti.py). Leaves
are scored by that heuristic: the opponent's remaining pairing cost minus the
mover's, plus a tempo.

Speed trick (it lives here, not in the ruleset): the search plays on one
mutable board with make/undo and keeps each seat's pairing cost up to date
move by move, instead of the ruleset's `legal_actions`/`apply` (action
strings, a new frozen state and a full re-evaluation per move). Measured on
this machine (`python -m tests.benchmarks.search_speed`, docs/performance.md): 23x more
positions made and scored a second (697,000 against 30,000).

The budget is nodes (positions made), a deadline, or both: with the same seed
and node budget and no deadline the choice is always the same.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.ai.pariti import pairing_cost
from bot.games.pariti import DRAW_TURNS, HIGHEST, PAIR, PAIRS_TO_WIN, PaState, is_pair, number_of, piece_name
from bot.games.pariti_board import JUMPS, N_SQUARES, NEIGHBOURS, SQUARE_NAMES, file_rank

# A won position scores WIN minus its distance in plies (a quicker win is better).
WIN = 10_000.0
TEMPO = 0.5            # the side to move is a tempo ahead (as in bot/ai/pariti.py)
CHECK_EVERY = 256      # nodes between two looks at the clock
MAX_DEPTH = 64

_COORDS = tuple(file_rank(s) for s in range(N_SQUARES))
# Pairing cost of two squares: the heuristic's cost of their king distance.
COST = tuple(tuple(pairing_cost(max(abs(a[0] - b[0]), abs(a[1] - b[1]))) for b in _COORDS) for a in _COORDS)
_Z = random.Random(20261126)
ZOBRIST = tuple(tuple(_Z.getrandbits(64) for _ in range(PAIR + HIGHEST + 1)) for _ in range(N_SQUARES))
SIDE_KEY = _Z.getrandbits(64)
QUIET_KEY = tuple(_Z.getrandbits(64) for _ in range(DRAW_TURNS + 1))
EXACT, LOWER, UPPER = 0, 1, 2

Move = tuple[int, int, int]   # (piece code, from, to)


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class SearchResult:
    action: str
    depth: int      # deepest iteration finished
    nodes: int
    value: float    # for the mover, in heuristic points (+-WIN for a forced win/loss)


class _Position:
    """One mutable Pariti position with make/undo."""

    def __init__(self, state: PaState):
        self.board = list(state.board)
        self.side = state.seat
        self.quiet = state.quiet
        self.where = [0] * (PAIR + 1)
        self.pairs = [0, 0]
        self.hash = SIDE_KEY if self.side else 0
        for square, code in enumerate(self.board):
            if code:
                self.hash ^= ZOBRIST[square][code]
                if is_pair(code):
                    self.pairs[(code - PAIR) % 2] += 1
                else:
                    self.where[code] = square
        self.costs = [0.0, 0.0]
        for number in range(1, HIGHEST + 1):
            if self.board[self.where[number]] == number:   # unpaired
                self.costs[number % 2] += COST[self.where[number]][self.where[number + HIGHEST]]

    def key(self) -> int:
        return self.hash ^ QUIET_KEY[min(self.quiet, DRAW_TURNS)]

    def moves(self) -> list[Move]:
        """Every legal move of the side to move (PA-3.2, PA-4.1 to PA-4.6)."""
        board, where, side = self.board, self.where, self.side
        found = []
        for number in range(2 - side, HIGHEST + 1, 2):   # seat 0 even numbers, seat 1 odd (PA-1.3)
            blue = where[number]
            if board[blue] != number:   # paired (PA-4.5)
                continue
            for code, start, mate in (
                (number, blue, number + HIGHEST),
                (number + HIGHEST, where[number + HIGHEST], number),
            ):
                for n in NEIGHBOURS[start]:
                    if board[n] == 0 or board[n] == mate:
                        found.append((code, start, n))
                seen = {start}
                frontier = [start]
                while frontier:
                    nxt = []
                    for here in frontier:
                        for over, land in JUMPS[here]:
                            if board[over] and over != start and board[land] == 0 and land not in seen:
                                seen.add(land)
                                nxt.append(land)
                                found.append((code, start, land))
                    frontier = nxt
        return found

    def make(self, move: Move) -> bool:
        """Play `move`; True when it made a pair."""
        code, start, dest = move
        board, number = self.board, number_of(code)
        mate = code + HIGHEST if code <= HIGHEST else code - HIGHEST
        z = ZOBRIST
        board[start] = 0
        self.hash ^= z[start][code] ^ SIDE_KEY
        owner = number % 2
        if board[dest]:   # the partner: a pair (PA-4.4)
            self.costs[owner] -= COST[start][dest]
            board[dest] = PAIR + number
            self.hash ^= z[dest][mate] ^ z[dest][PAIR + number]
            self.pairs[owner] += 1
            paired = True
        else:
            mate_square = self.where[mate]
            self.costs[owner] += COST[dest][mate_square] - COST[start][mate_square]
            board[dest] = code
            self.where[code] = dest
            self.hash ^= z[dest][code]
            paired = False
        self.side ^= 1
        return paired

    def undo(self, move: Move, paired: bool, quiet: int) -> None:
        code, start, dest = move
        board, number = self.board, number_of(code)
        mate = code + HIGHEST if code <= HIGHEST else code - HIGHEST
        z = ZOBRIST
        owner = number % 2
        self.side ^= 1
        if paired:
            board[dest] = mate
            self.hash ^= z[dest][mate] ^ z[dest][PAIR + number]
            self.pairs[owner] -= 1
            self.costs[owner] += COST[start][dest]
        else:
            mate_square = self.where[mate]
            self.costs[owner] -= COST[dest][mate_square] - COST[start][mate_square]
            board[dest] = 0
            self.hash ^= z[dest][code]
            self.where[code] = start
        board[start] = code
        self.hash ^= z[start][code] ^ SIDE_KEY
        self.quiet = quiet

    def evaluate(self) -> float:
        return self.costs[1 - self.side] - self.costs[self.side] + TEMPO

    def ordered(self, moves: list[Move], first: Move | None) -> list[Move]:
        """Best guesses first: the table's move, pairing steps, then the most pairing cost saved."""
        where, board = self.where, self.board

        def gain(move: Move) -> float:
            code, start, dest = move
            if board[dest]:
                return 100.0
            mate = where[code + HIGHEST if code <= HIGHEST else code - HIGHEST]
            return COST[start][mate] - COST[dest][mate]

        moves.sort(key=gain, reverse=True)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves


class _Search:
    def __init__(self, position: _Position, max_nodes: int | None, deadline: float | None):
        self.pos = position
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[int, tuple[int, float, int, Move | None]] = {}

    def _count(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def _child(self, move: Move | None, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value for the mover of playing `move` (None: a pass, PA-3.3)."""
        pos = self.pos
        quiet = pos.quiet
        self._count()
        if move is None:
            pos.side ^= 1
            pos.hash ^= SIDE_KEY
            pos.quiet += 1
            value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            pos.side ^= 1
            pos.hash ^= SIDE_KEY
            pos.quiet = quiet
            return value
        paired = pos.make(move)
        pos.quiet = 0 if paired else quiet + 1
        if paired and pos.pairs[1 - pos.side] >= PAIRS_TO_WIN:
            value = WIN - ply - 1      # the mover's eighth pair wins at once (PA-5.1)
        else:
            value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
        pos.undo(move, paired, quiet)
        return value

    def negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        pos = self.pos
        if pos.quiet >= DRAW_TURNS:
            return 0.0                 # 30 turns without a pair: a draw (PA-5.2)
        if depth <= 0:
            return pos.evaluate()
        key = pos.key()
        entry = self.table.get(key)
        best_move = None
        if entry is not None:
            entry_depth, value, flag, best_move = entry
            if entry_depth >= depth and (flag == EXACT or (flag == LOWER and value >= beta)
                                         or (flag == UPPER and value <= alpha)):
                return value
        moves = pos.moves()
        if not moves:
            return self._child(None, depth, alpha, beta, ply)
        original_alpha = alpha
        best = -2 * WIN
        for move in pos.ordered(moves, best_move):
            value = self._child(move, depth, alpha, beta, ply)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best

    def root(self, moves: list[Move], depth: int) -> tuple[Move, float]:
        """The best root move at `depth` (moves: previous best first). A search cut short raises _OutOfBudget."""
        alpha, best_move = -2 * WIN, moves[0]
        for move in moves:
            value = self._child(move, depth, alpha, 2 * WIN, 0)
            if value > alpha:
                alpha, best_move = value, move
        return best_move, alpha


def search(state: PaState, rng: random.Random, *, nodes: int | None = None,
           budget_s: float | None = None) -> SearchResult:
    """The move the search prefers for the seat to move, within `nodes` positions and/or
    `budget_s` seconds (at least depth 1 is always finished). Equal moves are tried in an
    order drawn from `rng`."""
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    position = _Position(state)
    moves = position.moves()
    rng.shuffle(moves)
    moves = position.ordered(moves, None)   # a stable sort: equal guesses stay shuffled
    searcher = _Search(position, None, None)
    best, value = searcher.root(moves, 1)
    depth = 1
    searcher.max_nodes, searcher.deadline = nodes, deadline
    while depth < MAX_DEPTH and abs(value) < WIN - MAX_DEPTH:
        moves.remove(best)
        moves.insert(0, best)
        try:
            best, value = searcher.root(moves, depth + 1)
        except _OutOfBudget:
            break
        depth += 1
    code, _, dest = best
    return SearchResult(f"{piece_name(code)}:{SQUARE_NAMES[dest]}", depth, searcher.nodes, value)


def search_action(state: PaState, rng: random.Random, *, nodes: int | None, budget_s: float | None) -> str:
    return search(state, rng, nodes=nodes, budget_s=budget_s).action
