"""Pariti (tests/rules/pariti.md, rule IDs PA-*): two players pair the
blue and pink pieces of their parity by stepping one onto the other.

Actions are "<colour><number>:<square>", e.g. "B7:c5" (blue 7 to c5) or
"P12:d4" (pink 12 to d4). The destination alone fixes the move: a step ends
on a neighbour and a jump chain on a square two files and/or ranks away per
jump, so no square is reachable both ways (PA-4.1, PA-4.2), and the squares
a chain jumps over are not affected, so which chain reached a square does
not matter. The state records one shortest chain for the picture.

A board cell holds 0 (empty), a single piece (blue n -> n, pink n -> 16 + n)
or a pair (n -> 32 + n).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg, skip_event
from bot.games.pariti_board import JUMPS, N_SQUARES, NEIGHBOURS, SQUARE_INDEX, SQUARE_NAMES, START_SQUARES

COLOURS = ("blue", "pink")
COLOUR_LETTERS = "BP"
HIGHEST = 16          # pieces are numbered 1..16 in each colour (PA-1.2)
PAIR = 2 * HIGHEST    # cell code offset of a pair
PAIRS_TO_WIN = 8      # PA-5.1
DRAW_TURNS = 30       # PA-5.2

# Shapes only; numbers and squares are then checked against HIGHEST and the board.
_PIECE = r"([BP])([1-9][0-9]?)"
_ACTION = re.compile(_PIECE + r":([a-z][1-9][0-9]?)")
_PIECE_ONLY = re.compile(_PIECE)


def piece_code(colour: int, number: int) -> int:
    """Cell code of the single piece `number` of colour 0 (blue) or 1 (pink)."""
    return colour * HIGHEST + number


def number_of(code: int) -> int:
    return (code - 1) % HIGHEST + 1


def colour_of(code: int) -> int:
    """0 blue, 1 pink (single pieces only)."""
    return (code - 1) // HIGHEST


def is_pair(code: int) -> bool:
    return code > PAIR


def owner(number: int) -> int:
    """Seat owning the pieces of that number: 0 even, 1 odd (PA-1.3)."""
    return number % 2


def partner(code: int) -> int:
    """The other colour's piece with the same number (PA-4.4)."""
    return code + HIGHEST if code <= HIGHEST else code - HIGHEST


def piece_name(code: int) -> str:
    """The action prefix naming a single piece, e.g. "B7"."""
    return f"{COLOUR_LETTERS[colour_of(code)]}{number_of(code)}"


def parse_piece(name: str) -> int | None:
    """The code of a single piece named like "B7", or None."""
    m = _PIECE_ONLY.fullmatch(name)
    return _code(m[1], m[2]) if m else None


def _code(letter: str, digits: str) -> int | None:
    number = int(digits)
    return piece_code(COLOUR_LETTERS.index(letter), number) if number <= HIGHEST else None


def piece_message(code: int) -> Message:
    return msg("pariti.piece", number=number_of(code), colour=COLOURS[colour_of(code)])


def _path_text(path: tuple[int, ...]) -> str:
    return " → ".join(SQUARE_NAMES[s] for s in path)


@dataclass(frozen=True)
class PaState:
    seed: int                     # drove the placement (PA-2.2)
    board: tuple[int, ...]        # N_SQUARES cell codes
    seat: int                     # seat to move (0 even, 1 odd)
    turn: int = 0                 # turns played, passes included
    quiet: int = 0                # turns since the last pair (PA-5.2)
    last: tuple[int, ...] = ()    # last move: (seat, piece code, start, ..., destination)


def _steps(board: tuple[int, ...], start: int) -> list[int]:
    """Squares the piece on `start` can step to: empty, or holding its partner (PA-4.1, PA-4.4)."""
    match = partner(board[start])
    return [n for n in NEIGHBOURS[start] if board[n] == 0 or board[n] == match]


def _jump_tree(board: tuple[int, ...], start: int) -> dict[int, int]:
    """Square -> the square it is first jumped to from, breadth first, over
    every landing of a jump chain from `start` (start maps to itself). A
    chain never lands twice on a square nor on `start` (PA-4.2, PA-4.3); the
    moving piece has left `start`, which is therefore never jumped over."""
    parent = {start: start}
    frontier = [start]
    while frontier:
        nxt = []
        for here in frontier:
            for over, land in JUMPS[here]:
                if board[land] == 0 and land not in parent and board[over] and over != start:
                    parent[land] = here
                    nxt.append(land)
        frontier = nxt
    return parent


def destinations(board: tuple[int, ...], start: int) -> dict[int, tuple[int, ...]]:
    """Every square the piece on `start` can reach this turn, with its path
    (start first): the steps, then the landings of jump chains, each with a
    shortest chain."""
    found: dict[int, tuple[int, ...]] = {n: (start, n) for n in _steps(board, start)}
    parent = _jump_tree(board, start)
    for land in parent:
        if land != start:
            path = [land]
            while path[-1] != start:
                path.append(parent[path[-1]])
            found[land] = tuple(reversed(path))
    return found


def is_step(path: tuple[int, ...]) -> bool:
    """Whether a path from `destinations` is a step (else a jump chain)."""
    return path[1] in NEIGHBOURS[path[0]]


# Seat that may move the content of a cell, by cell code: -1 for an empty cell and a pair.
_MOVER = tuple(-1 if code == 0 or is_pair(code) else owner(number_of(code)) for code in range(PAIR + HIGHEST + 1))


def _own_pieces(board: tuple[int, ...], seat: int) -> list[tuple[int, int]]:
    """(square, code) of the pieces `seat` may move: his parity, either
    colour, not in a pair (PA-3.2, PA-4.5, PA-4.6)."""
    mover = _MOVER
    return [(sq, code) for sq, code in enumerate(board) if mover[code] == seat]


def _can_move(board: tuple[int, ...], seat: int) -> bool:
    """Whether `seat` has any legal move (PA-3.3): one step or one jump suffices."""
    return any(
        _steps(board, square) or any(board[over] and board[land] == 0 for over, land in JUMPS[square])
        for square, _ in _own_pieces(board, seat)
    )


def pairs_of(board: tuple[int, ...], seat: int) -> list[tuple[int, int]]:
    """(number, square) of each pair `seat` has made, by number."""
    return sorted((code - PAIR, sq) for sq, code in enumerate(board) if is_pair(code) and owner(code - PAIR) == seat)


def _passed(state: PaState) -> PaState:
    """The position after `state.seat`'s turn passed without a move: a turn without a pair (PA-5.2)."""
    return PaState(seed=state.seed, board=state.board, seat=1 - state.seat, turn=state.turn + 1,
                   quiet=state.quiet + 1, last=state.last)


class Pariti(Ruleset[PaState]):
    id = "pariti"
    name = "game.pariti"
    board_family = "renderer.pariti"
    heuristic = "bot.ai.pariti:HEURISTIC"
    hard_search = "bot.ai.pariti_search:search_action"
    code_colours = COLOURS
    min_players = 2
    max_players = 2
    has_dice = False
    pick_group_first = True   # piece, then its destination with the paths drawn

    # --- setup ---------------------------------------------------------
    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        # Each player moves pieces of both colours; parity tells them apart (PA-1.3).
        return [COLOURS] * n_players

    def seat_role(self, seat: int) -> Message:
        return msg(f"pariti.seat_role_{seat}")      # PA-1.3, PA-3.1

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> PaState:
        """PA-2.1, PA-2.2: the 32 pieces shuffled by `seed` onto the start squares."""
        self.check_setup(n_players, options)
        pieces = list(range(1, PAIR + 1))
        random.Random(seed).shuffle(pieces)
        board = [0] * N_SQUARES
        for square, code in zip(START_SQUARES, pieces, strict=True):
            board[square] = code
        state, _ = self._settle(PaState(seed=seed, board=tuple(board), seat=0), [])
        return state

    # --- serialisation ---------------------------------------------------
    def to_json(self, state: PaState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "board": list(state.board),
            "seat": state.seat,
            "turn": state.turn,
            "quiet": state.quiet,
            "last": list(state.last),
        }

    def from_json(self, data: dict[str, Any]) -> PaState:
        return PaState(
            seed=data["seed"],
            board=tuple(data["board"]),
            seat=data["seat"],
            turn=data["turn"],
            quiet=data["quiet"],
            last=tuple(data["last"]),
        )

    # --- whose move, what is legal -----------------------------------------
    def to_move(self, state: PaState) -> int | None:
        return None if self.result(state) else state.seat

    def result(self, state: PaState) -> Result | None:
        pairs = [0, 0]
        for code in state.board:
            if code > PAIR:
                pairs[owner(code)] += 1   # a pair's code has its number's parity
        for seat in (0, 1):
            if pairs[seat] >= PAIRS_TO_WIN:
                return Result(winners=(seat,))
        if state.quiet >= DRAW_TURNS:
            return Result(winners=(), draw=True)
        return None

    def legal_actions(self, state: PaState) -> list[str]:
        if self.result(state):
            return []
        actions = []
        board = state.board
        for square, code in sorted(_own_pieces(board, state.seat), key=lambda sc: (number_of(sc[1]), sc[1])):
            name = piece_name(code)
            reach = _steps(board, square) + [land for land in _jump_tree(board, square) if land != square]
            actions += [f"{name}:{SQUARE_NAMES[d]}" for d in sorted(reach)]
        return actions

    def _parse(self, state: PaState, action: str) -> tuple[int, int, tuple[int, ...]]:
        """(piece code, start, path) of a legal move, else IllegalAction."""
        m = _ACTION.fullmatch(action)
        code = _code(m[1], m[2]) if m else None
        if m is None or code is None or m[3] not in SQUARE_INDEX:
            raise IllegalAction(msg("pariti.error.malformed", action=action))
        if owner(number_of(code)) != state.seat:
            raise IllegalAction(msg("pariti.error.not_your_piece", piece=piece_message(code)))
        if code not in state.board:
            raise IllegalAction(msg("pariti.error.paired", piece=piece_message(code)))
        start = state.board.index(code)
        path = destinations(state.board, start).get(SQUARE_INDEX[m[3]])
        if path is None:
            raise IllegalAction(msg("pariti.error.unreachable", piece=piece_message(code), square=m[3]))
        return code, start, path

    def apply(self, state: PaState, action: str, seat: int | None = None) -> Applied[PaState]:
        if self.result(state):
            raise IllegalAction(msg("pariti.error.game_over"))
        if seat is not None and seat != state.seat:
            raise IllegalAction(msg("pariti.error.not_your_turn"))
        if action == self.SKIP:
            # The turn forfeited at its deadline (Ruleset.SKIP): the move is lost; the turn counts like a
            # pass towards the draw (PA-5.2), and the opponent plays (PA-3.1) or passes (PA-3.3).
            return Applied(*self._settle(_passed(state), [skip_event(state.seat)]))
        code, start, path = self._parse(state, action)
        dest = path[-1]
        board = list(state.board)
        board[start] = 0
        events = []
        if is_step(path):
            events.append(msg("pariti.event.step", seat=state.seat, piece=piece_message(code), path=_path_text(path)))
        else:
            events.append(
                msg(
                    "pariti.event.jump",
                    seat=state.seat,
                    piece=piece_message(code),
                    path=_path_text(path),
                    jumps=len(path) - 1,
                )
            )
        if board[dest]:   # a step onto the partner (PA-4.4)
            board[dest] = PAIR + number_of(code)
            quiet = 0
        else:
            board[dest] = code
            quiet = state.quiet + 1
        after = PaState(
            seed=state.seed,
            board=tuple(board),
            seat=1 - state.seat,
            turn=state.turn + 1,
            quiet=quiet,
            last=(state.seat, code, *path),
        )
        if quiet == 0:
            count = len(pairs_of(after.board, state.seat))
            events.append(
                msg(
                    "pariti.event.pair",
                    seat=state.seat,
                    number=number_of(code),
                    square=SQUARE_NAMES[dest],
                    count=count,
                    total=PAIRS_TO_WIN,
                )
            )
        return Applied(*self._settle(after, events))

    def _settle(self, state: PaState, events: list[Message]) -> tuple[PaState, tuple[Message, ...]]:
        """Announce an end, or pass for each seat with no legal move (PA-3.3),
        passes counting towards the draw (PA-5.2)."""
        while True:
            result = self.result(state)
            if result:
                if result.draw:
                    events.append(msg("pariti.event.draw", turns=DRAW_TURNS))
                else:
                    events.append(msg("pariti.event.win", seat=result.winners[0], total=PAIRS_TO_WIN))
                return state, tuple(events)
            if _can_move(state.board, state.seat):
                return state, tuple(events)
            events.append(msg("pariti.event.pass", seat=state.seat))
            state = _passed(state)

    # --- words -------------------------------------------------------------
    def action_label(self, state: PaState, action: str) -> Message:
        code, start, path = self._parse(state, action)
        dest = SQUARE_NAMES[path[-1]]
        if not is_step(path):
            return msg("pariti.action.jump", piece=piece_message(code), square=dest, jumps=len(path) - 1)
        if state.board[path[-1]]:
            return msg("pariti.action.pair", piece=piece_message(code), square=dest)
        return msg("pariti.action.step", piece=piece_message(code), square=dest)

    def action_group(self, state: PaState, action: str) -> str | None:
        """The piece, e.g. "B7" (also the renderer's `focus` for it)."""
        return piece_name(self._parse(state, action)[0])

    def group_label(self, state: PaState, group: str) -> Message:
        code = parse_piece(group)
        return piece_message(code) if code else super().group_label(state, group)

    def describe(self, state: PaState) -> list[Message]:
        lines = []
        for seat in (0, 1):
            pairs = pairs_of(state.board, seat)
            listed = ", ".join(f"{n} ({SQUARE_NAMES[sq]})" for n, sq in pairs) or msg("list.none_feminine")
            lines.append(
                msg(f"pariti.describe.pairs_{seat}", seat=seat, count=len(pairs), total=PAIRS_TO_WIN, pairs=listed)
            )
        for colour in (0, 1):
            pieces = sorted(
                (number_of(code), sq)
                for sq, code in enumerate(state.board)
                if code and not is_pair(code) and colour_of(code) == colour
            )
            lines.append(
                msg(
                    "pariti.describe.pieces",
                    colour=COLOURS[colour],
                    pieces=", ".join(f"{n} {SQUARE_NAMES[sq]}" for n, sq in pieces) or msg("list.none_feminine"),
                )
            )
        lines.append(msg("pariti.describe.quiet", count=state.quiet, total=DRAW_TURNS))
        if state.last:
            seat, code, *path = state.last
            lines.append(
                msg("pariti.describe.last", seat=seat, piece=piece_message(code), path=_path_text(tuple(path)))
            )
        result = self.result(state)
        if result is None:
            lines.append(msg("pariti.describe.to_move", seat=state.seat))
        elif result.draw:
            lines.append(msg("pariti.event.draw", turns=DRAW_TURNS))
        else:
            lines.append(msg("pariti.event.win", seat=result.winners[0], total=PAIRS_TO_WIN))
        return lines
