"""What earlier boards still say once a new board, which recaps what its player missed, is posted."""
from bot.present.post import retired


def test_a_recap_takes_its_lines_back_from_the_boards_it_repeats():
    boards = [("A rolls 3.", "B's turn."), ("B rolls 2.", "B moves.", "A's turn."), ("A rolls 5.",)]
    recap = ("B moves.", "A's turn.", "A rolls 5.", "A moves.", "B's turn.")
    assert retired(boards, recap) == [("A rolls 3.", "B's turn."), ("B rolls 2.",), ()]


def test_boards_a_recap_does_not_repeat_keep_every_line():
    boards = [("A rolls 3.",), ("B rolls 3.",)]
    assert retired(boards, ("A rolls 3.", "A moves.")) == boards, "a same line that is not a recap stays"
    assert retired(boards, ()) == boards
