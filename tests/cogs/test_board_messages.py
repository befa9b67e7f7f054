"""What a new board does to the channel's board messages (board_messages.changes, which the board publisher
carries out)."""
from bot.cogs.messages.board_messages import BoardChanges, Retire, Retired, changes

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


def test_lines_the_new_board_says_again_are_taken_from_the_earlier_boards():
    """Ana's board said what she did; Bea's board recaps it with her own move: Ana's board keeps only its
    'now' no more (its lines all repeated) and is deleted once Bea's is up; an older board keeps its lines."""
    recent = ((8, ("Old news.",)), (9, ("Ana rolled 3.",)), (10, ("Ana moved R1.",)))
    assert changes(10, recent, ("Ana rolled 3.", "Ana moved R1.", "Bea rolled 6."), edit=False) == BoardChanges(
        None, after=(Retire(9, Retired.DELETE), Retire(10, Retired.DELETE)), kept=((8, ("Old news.",)),))


def test_a_board_partly_repeated_keeps_the_rest_and_stays_before_the_new_post():
    recent = ((9, ("Cid rolled 2.", "Ana rolled 3.")),)
    assert changes(9, recent, ("Ana rolled 3.", "Bea rolled 6."), edit=False) == BoardChanges(
        None, before=(Retire(9, "Cid rolled 2."),), kept=((9, ("Cid rolled 2.",)),))
