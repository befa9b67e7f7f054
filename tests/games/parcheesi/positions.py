"""Build Parcheesi positions from the rules files' notation, and read them back.

`position(R, {"Y1": 5, "Y2": "H3", "B1": "goal"}, ...)`: pawns are placed in the
order given, which is their arrival order (PM-1.8); pawns not mentioned are in
their house.
"""
from __future__ import annotations

from bot.games import get_ruleset
from bot.games.base import Message
from bot.games.parcheesi.board import GOAL, HOUSE, LAST_TRACK, board
from bot.games.parcheesi.engine_state import COLOURS, LETTERS, State
from bot.games.parcheesi.maghreb_state import KEYS, MaghrebState

B = board()


def progress(colour: str, where: int | str) -> int:
    if where == "house":
        return HOUSE
    if where == "goal":
        return GOAL
    if isinstance(where, str):
        assert where[0] == "H"
        return LAST_TRACK + int(where[1:])
    p = (where - B.start_square[colour]) % B.track_length
    assert p <= LAST_TRACK, f"square {where} is not on {colour}'s route"
    return p


def pawn_index(state: State, code: str) -> int:
    seat = [COLOURS[c][0].upper() for c in state.colours].index(code[0])
    return 4 * seat + int(code[1]) - 1


def position(ruleset, pawns: dict[str, int | str], players: int = 4, teams: bool = False, turn: int = 0,
             dice: tuple[int, ...] = (), **fields) -> State:
    s = ruleset.new_game(players, {"teams": teams}, 0)
    pos = [HOUSE] * len(s.pos)
    order = []
    for code, where in pawns.items():
        p = pawn_index(s, code)
        pos[p] = progress(COLOURS[s.colours[p >> 2]], where)
        order.append(p)
    arrivals = tuple(q for q in range(len(pos)) if q not in order) + tuple(order)
    return s._replace(pos=tuple(pos), arrivals=arrivals, turn=turn, dice=dice, **fields)


def where(state: State, code: str) -> str:
    """Where a pawn stands, in the rules' notation: "14", "H5", "house", "goal"."""
    p = pawn_index(state, code)
    progress_ = state.pos[p]
    if progress_ == HOUSE:
        return "house"
    if progress_ == GOAL:
        return "goal"
    if progress_ > LAST_TRACK:
        return f"H{progress_ - LAST_TRACK}"
    return str(B.track_square(COLOURS[state.colours[p >> 2]], progress_))


def play(ruleset, state: State, *actions: str) -> tuple[State, list[Message]]:
    """Apply actions in order; return the final state and every event."""
    events: list[Message] = []
    for action in actions:
        applied = ruleset.apply(state, action)
        state = applied.state
        events.extend(applied.events)
    return state, events


def keys(events: list[Message]) -> list[str]:
    return [e.key for e in events]


# --- positions with a cheat on offer (typed-move tests of the sessions and of bot/present) ---------

def maghreb_three() -> MaghrebState:
    """MG-EX-18's position: red 1 on 40, red 2 on 10, yellow 1 on 44, red rolled a 3: R1+3 and R2+3
    are legal, R1+4 is accepted all the same (MG-10.1)."""
    pieces = [HOUSE] * 16
    pieces[0], pieces[1], pieces[8] = KEYS[0].index(40), KEYS[0].index(10), KEYS[1].index(44)
    return get_ruleset("parchis-maghreb").apply(MaghrebState(pieces=tuple(pieces), turn_no=2), "r3").state


def classic_five() -> State:
    """PC-EX-7's position with two players: blue 1 on 50, two blue pawns at home, blue rolled a 5:
    bringing one out is compulsory (PC-5.3), moving B1 is an infraction the bot accepts (PC-9.1)."""
    classic = get_ruleset("parcheesi-classic")
    return classic.apply(position(classic, {"B1": 50, "B3": "goal", "B4": "goal"}, players=2), "r5").state


def classic_six_cheat() -> State:
    """Two players. Blue rolled a 6 with a barrier on 30: opening it is compulsory (PC-6.3); blue moved B3
    instead, an infraction the bot accepts (PC-9.1), and must roll again (PC-6.1)."""
    classic = get_ruleset("parcheesi-classic")
    s = position(classic, {"B1": 30, "B2": 30, "B3": 40}, players=2, released=(True, True))
    s, _ = play(classic, s, "r6", "B3+6")
    assert s.cheats and s.callee == 0 and classic.roll_due(s) and s.turn == 0
    return s


__all__ = ["position", "where", "play", "keys", "pawn_index", "progress", "LETTERS", "maghreb_three", "classic_five",
           "classic_six_cheat"]
