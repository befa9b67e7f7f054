"""What the 68-square Parcheesi rulesets say: names of pawns and squares, the events of a move, the
labels of actions, the position in words and the scene renderer/cross68/ draws (engine.py plays)."""
from __future__ import annotations

from functools import cache

from bot.games.base import IllegalAction, Message, joined, msg
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, Cross68Scene, ScenePawn
from bot.games.parcheesi.engine_state import (
    ACTION_RE,
    BONUS,
    BRING_OUT,
    COLOURS,
    LETTERS,
    MOVE,
    SQUARE,
    Option,
    State,
)

PAWN_NAMES = tuple(tuple(msg("parcheesi.pawn", colour=colour, number=i + 1) for i in range(4))
                   for colour in COLOURS)
# A square of a colour's route by its progress: a track square's number, a corridor square's step (1 to 7),
# then the goal and the house.
SQUARE_NAMES = tuple(tuple(msg("parcheesi.square.corridor", step=p - LAST_TRACK) if p > LAST_TRACK
                           else msg("parcheesi.square.at", name=str(SQUARE[c][p] + 1)) for p in range(GOAL))
                     + (msg("parcheesi.square.goal"), msg("parcheesi.square.house")) for c in range(len(COLOURS)))


# Frequent events, built once (Messages are immutable): a seat's turn passes on / it rolls again.
NEXT_EVENT = tuple(msg("parcheesi.event.next", seat=seat) for seat in range(4))
AGAIN_EVENT = tuple(msg("parcheesi.event.again", seat=seat) for seat in range(4))
# Move events, built on first use: MOVE_EVENTS[c][i][src][dst] moves pawn i + 1 of colour c
# from progress src to dst (three lookups and a get cost half a functools.cache hit); `move_event` fills it.
MOVE_EVENTS: tuple[tuple[tuple[dict[int, Message], ...], ...], ...] = tuple(
    tuple(tuple({} for _ in range(GOAL)) for _ in range(4)) for _ in COLOURS)


def move_event(c: int, i: int, src: int, dst: int) -> Message:
    """The event of a move missing from MOVE_EVENTS, stored there."""
    event = MOVE_EVENTS[c][i][src][dst] = msg("parcheesi.event.move", pawn=PAWN_NAMES[c][i],
                                               src=SQUARE_NAMES[c][src], dst=SQUARE_NAMES[c][dst])
    return event


@cache
def out_event(c: int, i: int) -> Message:
    return msg("parcheesi.event.out", pawn=PAWN_NAMES[c][i], dst=SQUARE_NAMES[c][0])


def roll_event(seat: int, action: str) -> Message:
    return msg("parcheesi.event.roll", seat=seat, dice=action[1:].replace(".", " + "))


@cache
def capture_event(colours: tuple[int, ...], p: int, victim: int) -> Message:
    return msg("parcheesi.event.capture", pawn=pawn_name(colours, p), victim=pawn_name(colours, victim))


@cache
def goal_event(colours: tuple[int, ...], p: int) -> Message:
    return msg("parcheesi.event.goal", pawn=pawn_name(colours, p))


@cache
def bonus_lost_event(n: int) -> Message:
    return msg("parcheesi.event.bonus_lost", n=n)


@cache
def forfeit_event(seat: int, dice: tuple[int, ...], used: int, reason: str) -> Message:
    """The dice not spent (bit i of `used`: die i is spent) are lost, for the reason of key `reason`."""
    unused = [v for i, v in enumerate(dice) if not used >> i & 1]
    return msg("parcheesi.event.forfeit", seat=seat, dice=" + ".join(map(str, unused)), reason=msg(reason))


def pawn_name(colours: tuple[int, ...], p: int) -> Message:
    """Pawn p's name ("yellow 2"); shared immutable Messages, built once."""
    return PAWN_NAMES[colours[p >> 2]][p % 4]


def square_name(colours: tuple[int, ...], p: int, progress: int) -> Message:
    """A square of pawn p's route as players read it: track number, corridor square, house or goal."""
    return SQUARE_NAMES[colours[p >> 2]][progress]


# --- actions -------------------------------------------------------------------------

def option_label(state: State, o: Option) -> Message:
    """Short wording of an accepted action, decoded (Engine.action_label)."""
    colours = state.colours
    pawn = pawn_name(colours, o.pawn)
    if o.kind == BRING_OUT:
        if o.brought_out == 2:
            return msg("parcheesi.label.out_two", pawn=pawn, pawn2=pawn_name(colours, o.pawn + 1),
                       dst=square_name(colours, o.pawn, 0))
        return msg("parcheesi.label.out", pawn=pawn, dst=square_name(colours, o.pawn, 0), how=_how(state, o))
    return msg("parcheesi.label.move", pawn=pawn, src=square_name(colours, o.pawn, o.src),
               dst=square_name(colours, o.pawn, o.dst), how=_how(state, o))


def _how(s: State, o: Option) -> Message:
    if o.kind == BONUS:
        return msg("parcheesi.how.bonus", n=o.dst - o.src)
    spent = [v for i, v in enumerate(s.dice) if o.mask >> i & 1]
    if len(spent) == 2:
        return msg("parcheesi.how.dice", a=spent[0], b=spent[1])
    if o.kind == MOVE and o.dst - o.src != spent[0]:
        return msg("parcheesi.how.die_counts", n=spent[0], steps=o.dst - o.src)   # PC-6.2
    return msg("parcheesi.how.die", n=spent[0])


def pawn_group_label(group: str) -> Message:
    """Wording of a pawn's action_group key ("Y2")."""
    return msg("parcheesi.pawn", colour=COLOURS[LETTERS.index(group[0])], number=int(group[1]))


def refusal(action: str) -> IllegalAction:
    """Why an action is refused while dice are to be played."""
    if not ACTION_RE.fullmatch(action):
        return IllegalAction(msg("parcheesi.error.malformed", action=action[:40]))
    if action[0] == "r":
        return IllegalAction(msg("parcheesi.error.no_roll_now"))
    return IllegalAction(msg("parcheesi.error.not_allowed", action=action))


def roll_refusal(action: str) -> IllegalAction:
    """Why an action is refused while a roll is due."""
    if ACTION_RE.fullmatch(action) and action[0] != "r":
        return IllegalAction(msg("parcheesi.error.roll_first"))
    return IllegalAction(msg("parcheesi.error.malformed", action=action[:40]))


# --- the position ----------------------------------------------------------------------

def describe(state: State, notes: list[Message]) -> list[Message]:
    """The position in words, with the variant's `notes` (Engine._notes)."""
    lines = []
    for seat, c in enumerate(state.colours):
        pos = state.pos[4 * seat:4 * seat + 4]
        on_board = [msg("parcheesi.describe.pawn", number=i + 1, square=SQUARE_NAMES[c][p])
                    for i, p in enumerate(pos) if 0 <= p < GOAL]
        lines.append(msg("parcheesi.describe.seat", seat=seat, colour=COLOURS[c], house=pos.count(HOUSE),
                         goal=pos.count(GOAL), board=joined(on_board, "list.items") if on_board else msg("list.none")))
    lines.extend(notes)
    if state.winners:
        lines.append(msg("parcheesi.describe.over"))
    elif unused := [v for i, v in enumerate(state.dice) if not state.used >> i & 1]:
        lines.append(msg("parcheesi.describe.to_play", seat=state.turn, dice=" + ".join(map(str, unused))))
    elif state.bonus:   # both dice spent, a bonus to play before the turn ends (PM-8.5)
        lines.append(msg("parcheesi.describe.to_play_bonus", seat=state.turn, n=state.bonus[0]))
    else:
        lines.append(msg("parcheesi.describe.to_roll", seat=state.turn))
    return lines


def shared_notes(s: State, played: int) -> list[Message]:
    """The notes of every variant: a pending bonus, a player playing his partner's pawns (`played`: the seat
    whose pawns the player to move plays)."""
    notes = []
    if s.bonus:
        notes.append(msg("parcheesi.note.bonus", n=s.bonus[0]))
    if played != s.turn and not s.winners:
        notes.append(msg("parcheesi.note.plays_partner", seat=s.turn, colour=COLOURS[s.colours[played]]))
    return notes


def scene(state: State, notes: list[Message]) -> Cross68Scene:
    """What renderer/cross68/ draws of the position, with the variant's `notes`."""
    pawns = tuple(ScenePawn(colour=COLOURS[c], route=COLOURS[c], progress=p, label=str(i % 4 + 1))
                  for i, (p, c) in enumerate(zip(state.pos, (c for c in state.colours for _ in range(4)))))
    last = None
    if state.last_move:
        p, src, dst = state.last_move
        last = (COLOURS[state.colours[p >> 2]], src, dst)
    return Cross68Scene(pawns=pawns, dice=state.dice,
                        used_dice=tuple(bool(state.used >> i & 1) for i in range(len(state.dice))),
                        last_move=last, notes=tuple(notes))
