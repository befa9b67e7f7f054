"""What a new board does to the channel's board messages (board_messages.changes, which the board publisher
carries out)."""
from bot.cogs.messages.board_messages import (
    LOG_LINES,
    SETTLED_MS,
    BoardChanges,
    Fold,
    Retire,
    Retired,
    changes,
    posted_at,
)

SAID = ("Ana rolled 3.", "Ana moved R1.")


def test_the_same_player_going_on_edits_the_board_in_place():
    assert changes(10, ((9, ("x",)), (10, ("y",))), SAID, edit=True) == BoardChanges(10, kept=((9, ("x",)), (10, SAID)))


def test_an_edit_of_a_board_this_process_did_not_post_remembers_it_alone():
    assert changes(10, ((9, ("x",)),), SAID, edit=True) == BoardChanges(10, kept=((10, SAID),))


def test_a_new_turn_posts_and_retires_the_board_it_replaces():
    """After a restart (nothing remembered) only the replaced board's controls go."""
    assert changes(10, (), SAID, edit=False) == BoardChanges(None, before=(Retire(10, Retired.KEEP),))


def test_a_board_never_shown_is_posted_with_nothing_to_retire():
    assert changes(None, ((9, ("x",)),), SAID, edit=True) == BoardChanges(None)


def test_the_lobby_says_the_game_started_when_the_first_board_replaces_it():
    assert changes(10, (), SAID, edit=False, retired="Started.") == BoardChanges(None, before=(Retire(10, "Started."),))


def ids(*ms: int) -> list[int]:
    """Snowflakes of messages posted at these ms since Discord's epoch (the order of their numbers)."""
    return [(ms << 22) for ms in ms]


def test_a_retired_board_tells_the_turns_finished_on_it_whole():
    """Bea's board recapped Ana's turn (told on Ana's board) and showed Bea's in play; Cid's board recaps both,
    Bea's whole, and a computer's after it: retired, Bea's board tells what no earlier board told."""
    ana, bea = ids(1, 2)
    recent = ((ana, ("Ana rolled 3. Ana moved.",)), (bea, ("Ana rolled 3. Ana moved.", "Bea rolled 6.")))
    steps = changes(bea, recent, ("Ana rolled 3. Ana moved.", "Bea rolled 6. Bea moved.", "Computer rolled 1."),
                    edit=False, now_ms=0)
    assert steps.before == (Retire(bea, "Bea rolled 6. Bea moved.\nComputer rolled 1."),) and steps.after == ()
    assert steps.kept == ((ana, ("Ana rolled 3. Ana moved.",)),
                          (bea, ("Bea rolled 6. Bea moved.", "Computer rolled 1.")))


def test_a_retired_board_with_nothing_new_to_tell_is_deleted_once_the_new_one_is_up():
    ana, again = ids(1, 2)
    recent = ((ana, ("Ana rolled 3.",)), (again, ("Ana rolled 3.",)))
    assert changes(again, recent, ("Ana rolled 3.",), edit=False).after == (Retire(again, Retired.DELETE),)


def test_retired_boards_are_folded_a_few_turns_a_message_once_settled():
    """A board up for SETTLED_MS joins the turns of the retired board before it, and goes; a younger one waits."""
    old, settled, young, live = ids(1, 2, 3, 4)
    recent = ((old, ("A.",)), (settled, ("B.",)), (young, ("C.",)), (live, ("C.",)))
    steps = changes(live, recent, ("C.", "D."), edit=False, now_ms=posted_at(settled) + SETTLED_MS)
    assert steps.folds == (Fold(old, "A.\nB.", (settled,)),)
    assert steps.kept == ((old, ("A.", "B.")), (young, ("C.",)), (live, ("D.",)))


def test_a_full_message_folds_no_more():
    messages = ids(*range(1, LOG_LINES + 3))
    recent = tuple((m, (f"Turn {i}.",)) for i, m in enumerate(messages))
    steps = changes(messages[-1], recent, (f"Turn {len(messages) - 1}.",), edit=False,
                    now_ms=posted_at(messages[-1]) + SETTLED_MS)
    assert [len(lines) for _, lines in steps.kept] == [LOG_LINES, 2]


def test_a_turn_said_again_word_for_word_is_still_told_by_the_board_it_was_played_on():
    """"Cid rolls 4 + 6 and cannot play" twice in a game: the recap matches where the log ends, not any line."""
    log, cid = ids(1, 2)
    recent = ((log, ("Cid rolls 4 + 6 and cannot play.", "Ana rolls 1.")), (cid, ("Ana rolls 1.",)))
    steps = changes(cid, recent, ("Ana rolls 1.", "Cid rolls 4 + 6 and cannot play."), edit=False)
    assert steps.before == (Retire(cid, "Cid rolls 4 + 6 and cannot play."),)
