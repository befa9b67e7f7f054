"""What the lead still saw wrong in the gallery (after the plan): names cut harder in the
picture than in the messages, a Maghreb note replaced by a count beside empty houses, Barricade's die
of the player to move too small to read at chat size."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from bot.domain import i18n
from bot.domain.names import NAME_LIMIT
from bot.games import GAME_IDS
from bot.games.barricade import Barricade
from bot.games.barricade.state import MOVE
from bot.games.parcheesi.board import HOUSE, Cross68Scene, ScenePawn, board
from bot.games.pariti import PAIR, piece_code
from renderer import PlayerTag, cross68, layout
from renderer.cross68.panels import namer
from renderer.fonts import CHAT_WIDTH
from renderer.plan import OVERLAYS, inside, overlap
from renderer.sample import HARD, hard_position
from renderer.writing import printable
from tests.renderer.test_plan import positions

# Names as bot.domain.names.short_names leaves them, as wide as NAME_LIMIT characters get in the shipped face.
COLOURS = ("yellow", "blue", "red", "green")
WIDE = ("WWWWWWWWWWWW", "Grand-mère…", "MMMMMMMMMMM…", "Éloïse Dumas")
# Wider still: twelve CJK characters, and a computer's name in French (our words, whole in the messages).
LONGER = ("小明小明小明小明小明小明", "Ordinateur 2 (difficile)", "さくらさくらさくらさくら", "Bob")


def letters(text: str) -> str:
    return "".join(text.split())


def whole_or_shortened_on_one_line(name: str, role: str) -> bool:
    """A name is written whole, broken only between words, or on one line shortened
    with "…" where a word of it is wider than a line (never "WWWWWWW / WWWWW", nor "Bartholome / w…")."""
    lines = [line for line in role.split("\n") if line]
    if letters(name) in letters(role):
        return all(line.split()[-1] in name.split() or line.endswith("-") or not line.isascii() for line in lines)
    return len(lines) == 1 and lines[0].endswith("…") and letters(name).startswith(letters(lines[0])[:-1])


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_picture_shows_a_name_whole_when_the_messages_do(game):
    """A name of NAME_LIMIT characters (the messages show it whole) is written whole in the picture, on
    a second line (or third, in Pariti's narrow panel) where one does not hold it, whoever is to move, unless
    a word of it is wider than a line ("WWWWWWWWWWWW": shortened on one line); the rows it pushes down still
    cover nothing, even under wider names."""
    assert all(len(name) <= NAME_LIMIT for name in WIDE)
    cases = [(positions(game)[4], seat) for seat in range(4)] + [(positions(game)[-1], None)]   # and a banner
    for ((ruleset, state, players, history), to_move), (names, locale) in itertools.product(
            cases, ((WIDE, "en"), (LONGER, "fr"))):
        tags = [PlayerTag(names[i], tag.colours, i == to_move) for i, tag in enumerate(players)]
        plan = layout(ruleset, state, tags, locale, traced=history)
        assert plan.of("name")
        for item in plan.of("name"):
            if len(item.ref) <= NAME_LIMIT:   # as the fonts here write it (小明 without a CJK font: ??)
                assert whole_or_shortened_on_one_line(printable(item.ref), item.role), item
        overlays, covered = plan.of(*OVERLAYS), plan.of("piece", "label")
        for i, item in enumerate(overlays):
            assert not [c for c in [*covered, *overlays[i + 1:]] if overlap(item.box, c.box)], item
            assert inside(item.box, (0, 0, *plan.size)), item



# Not Maghreb: beside its two swatches no first line holds "Ordinateur", and its two lines hold the name
# whole only with a cut inside that word, which beats cutting the name short.
@pytest.mark.parametrize("game", [game for game in GAME_IDS if game != "parchis-maghreb"])
def test_a_computers_name_breaks_between_words_never_inside_one(game):
    """A computer's French name written whole on two or three lines reads "Ordinateur 2 / (difficile)", never
    "Ordina / teur 2 (dif / ficile)" (Pariti's panel once cut it so), whoever is to move."""
    ruleset, state, players, history = positions(game)[4]
    name = "Ordinateur 2 (difficile)"
    for to_move in range(len(players)):
        tags = [PlayerTag(name if i == 0 else "Bob", tag.colours, i == to_move) for i, tag in enumerate(players)]
        item = next(i for i in layout(ruleset, state, tags, "fr", traced=history).of("name") if i.ref == name)
        if letters(name) in letters(item.role):
            assert all(any(word in line for line in item.role.split("\n")) for word in name.split()), item.role

def test_a_partner_is_named_whole_in_two_vs_two():
    """PM-10.1: each house names its owner's partner, as whole as the owner's name."""
    pawns = tuple(ScenePawn(c, c, HOUSE, str(i)) for c in COLOURS for i in range(1, 5))
    for name in WIDE[1:]:
        players = [PlayerTag(name if i == 2 else f"P{i}", (c,), i == 0) for i, c in enumerate(COLOURS)]
        plan = cross68.plan(Cross68Scene(pawns, dice=(5, 3)), players, teams=True)
        yellow = cross68.Grid(cross68.SIZE, board()).panel_box("yellow")   # seat 0: plays with seat 2
        words = "".join(item.ref for item in plan.of("note") if inside(item.box, yellow))
        assert letters(name) in letters(words) or letters(name[:-1])[:6] in letters(words), words


def test_a_maghreb_note_goes_to_the_sides_second_house_rather_than_a_count():
    """Each Maghreb side has two colours, so two houses: a note that does not fit under the acting house's
    pawns is written whole in the side's other house, not counted as "1 more note"."""
    hard = next(h for h in HARD if h.name == "maghreb-door")
    ruleset, state, players, history, focus = hard_position(hard)
    assert ruleset.scene(state).notes
    plan = layout(ruleset, state, players, "en", focus, history)
    notes = [item.ref for item in plan.of("note")]
    assert not [note for note in notes if "more note" in note], notes
    assert "cheating" in " ".join(notes)


def test_barricades_die_of_the_player_to_move_is_on_their_line_and_reads_at_chat_size():
    game = Barricade()
    state = game.new_game(4, {}, 0).evolve(order=(2, 0, 1, 3), ranking=(), stage=MOVE, seat=1, die=5)
    players = [PlayerTag(name, (c,), i == 1)
               for i, (name, c) in enumerate(zip(("Ann", "Bob", "Cat", "Dan"), state.colours))]
    plan = layout(game, state, players)
    (die,), bob = plan.of("die"), next(item for item in plan.of("name") if item.ref == "Bob")
    middle = (die.box[1] + die.box[3]) / 2
    assert bob.box[1] <= middle <= bob.box[3]
    assert (die.box[3] - die.box[1]) * CHAT_WIDTH / plan.size[0] >= 18   # pips a phone shows


def test_the_player_to_move_is_told_apart_without_colour():
    """The turn marker "▶ " gave its room to the name: the mover's ink-framed band (and bold name) still tell
    them apart in grey, as under any colour blindness."""
    from PIL import Image

    from renderer.colours import INK, PAPER, TO_MOVE_BAND, WHITE
    from renderer.sheet import Sheet, StaticBoard, make_palette

    def grey_edge(tag: PlayerTag) -> int:
        sheet = Sheet(StaticBoard.build(Image.new("RGB", (300, 50), WHITE),
                                        make_palette([PAPER, INK, WHITE, TO_MOVE_BAND])))
        sheet.player_tag((0, 0), 300, tag, 33)
        grey = sheet.finish().convert("L")
        return min(grey.getpixel((x, y)) for x in range(0, 4) for y in range(10, 30))

    assert grey_edge(PlayerTag("Ann", ("red",), True)) < 100 < grey_edge(PlayerTag("Ann", ("red",)))


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_four_player_classics_call_out_note_is_written_whole_where_no_house_is_free(locale):
    """The call-out window's note takes five lines where the acting house has room for
    three, and no house is free with four players: it was replaced by "and 1 more note". It goes on under
    the pawns at home of the next house in the order of play, marked "…" at both ends where the mark fits."""
    hard = next(h for h in HARD if h.name == "classic-shared")
    ruleset, state, players, history, focus = hard_position(hard)
    view = ruleset.scene(state)
    assert len(players) == 4 and any(note.key == "parcheesi.note.call_window" for note in view.notes)
    notes = [item.ref for item in layout(ruleset, state, players, locale, focus, history).of("note")
             if not item.ref.startswith(("Goal", "Arrivée"))]
    assert not [note for note in notes if "more note" in note or "autre" in note], notes
    written = letters(" ".join(notes)).replace("…", "")
    for note in view.notes:
        assert letters(printable(i18n.render(note, locale, namer(players)))).replace("…", "") in written, notes


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_pariti_s_final_board_names_the_winner_whole(locale):
    """The banner in Pariti's narrow panel once read "Compu… (hard)…": every word of who won is written whole,
    within the panel."""
    ruleset, state, players, history = positions("pariti")[4]
    board = list(state.board)
    for number in range(1, 16, 2):   # the odd numbers' eight pairs made (PA-5.1): the second seat wins
        blue, pink = board.index(piece_code(0, number)), board.index(piece_code(1, number))
        board[blue], board[pink] = PAIR + number, 0
    state = dataclasses.replace(state, board=tuple(board))
    assert ruleset.result(state).winners == (1,)
    for name in ("Computer (hard)", "L’ordinateur (difficile)", "Ordinateur 2 (normal)", "Player 1"):
        tags = [PlayerTag(name, tag.colours, False) for tag in players]
        plan = layout(ruleset, state, tags, locale, traced=history)
        (banner,) = plan.of("banner")
        assert banner.role.split() == banner.ref.split() and name in banner.ref, banner
        assert inside(banner.box, (0, 0, *plan.size)) and not [c for c in plan.of("piece", "label", "name")
                                                               if overlap(banner.box, c.box)], banner
