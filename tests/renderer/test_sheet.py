"""Shared drawing helpers: palette, sheets over a cached board, sprites, legend."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from renderer.colours import INK, PAPER, PIECE_RGB, WHITE
from renderer.legend import PlayerTag
from renderer.png import encode_png
from renderer.sheet import Sheet, StaticBoard, make_palette
from renderer.sprites import die_sprite, disc_sprite
from renderer.writing import break_lines, line_step, text_length, wrap_text


def palette_colours(palette: Image.Image) -> set[tuple[int, int, int]]:
    flat = palette.getpalette()
    return {tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)}


def test_palette_holds_solid_colours_and_ramps():
    palette = make_palette([INK, PAPER], [(INK, PAPER)], steps=3)
    colours = palette_colours(palette)
    assert {INK, PAPER} <= colours and len(colours) == 5
    with pytest.raises(ValueError):
        make_palette([(i, i, 0) for i in range(256)] + [(0, 0, 255)])


def board_fixture() -> StaticBoard:
    rgb = Image.new("RGB", (200, 100), PAPER)
    ImageDraw.Draw(rgb).rectangle((0, 0, 99, 99), fill=WHITE)
    ramps = [(INK, g) for g in (PAPER, WHITE, PIECE_RGB["red"])] + [(WHITE, PIECE_RGB["red"])]
    return StaticBoard.build(rgb, make_palette([INK, PAPER, WHITE, PIECE_RGB["red"]], ramps))


def test_sheet_pastes_sprites_and_keeps_the_rest_of_the_board():
    static = board_fixture()
    sheet = Sheet(static)
    sheet.paste(disc_sprite(PIECE_RGB["red"], 40, "3"), (50, 50))
    sheet.arrow([(120, 20), (180, 80)], INK, 4)
    sheet.text((10, 80), "ok", 14, fill=INK)
    out = sheet.finish()
    assert out.mode == "P" and out.size == static.indexed.size == (200, 100)
    rgb = out.convert("RGB")
    assert rgb.getpixel((50, 62)) == PIECE_RGB["red"]          # the disc, below its label
    assert rgb.getpixel((5, 5)) == WHITE and rgb.getpixel((195, 5)) == PAPER   # untouched
    assert rgb.getpixel((150, 50)) == INK                      # on the arrow
    assert INK in set(rgb.crop((10, 80, 40, 99)).get_flattened_data())   # the text
    assert static.indexed.convert("RGB").getpixel((50, 62)) == WHITE   # the cached board is unchanged
    data = encode_png(out)
    assert Image.open(io.BytesIO(data)).size == (200, 100)


def test_disc_sprite_grows_with_its_ring_and_is_antialiased():
    plain = disc_sprite(PIECE_RGB["blue"], 30)
    ringed = disc_sprite(PIECE_RGB["blue"], 30, "1", ring=(0, 255, 0), ring_width=3)
    assert plain.size == (30, 30) and ringed.size == (36, 36)
    alphas = set(plain.getchannel("A").get_flattened_data())
    assert 0 in alphas and 255 in alphas and len(alphas) > 2


def test_die_sprite_and_tag_sizes():
    assert die_sprite(6, 40).size == (40, 40)
    assert die_sprite(6, 40, spent=True).getpixel((20, 3))[:3] != die_sprite(6, 40).getpixel((20, 3))[:3]
    tag = PlayerTag("Alice", ("red", "green"), to_move=True)
    sheet = Sheet(StaticBoard.build(Image.new("RGB", (300, 100), PAPER), make_palette([PAPER, INK, WHITE])))
    assert sheet.player_tag((0, 0), 200, tag, 20) == 32
    drawn = sheet.finish().convert("RGB")
    assert INK in set(drawn.crop((0, 0, 200, 32)).get_flattened_data())
    assert set(drawn.crop((0, 33, 300, 100)).get_flattened_data()) == {PAPER}


def test_text_wraps_to_the_given_lines():
    lines = wrap_text("one two three four five six seven eight nine ten", 80, 16, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    sheet = Sheet(board_fixture())
    tall = sheet.lines((0, 0), wrap_text("one two three four five six", 80, 16, 3), 80, 16)
    assert tall > sheet.lines((0, 0), wrap_text("one", 80, 16, 3), 80, 16) == line_step(16)


def test_legend_on_a_sheet():
    players = [PlayerTag("Alice", ("red",)), PlayerTag("Bob", ("blue",), to_move=True)]
    sheet = Sheet(StaticBoard.build(Image.new("RGB", (300, 100), PAPER), make_palette([PAPER, INK, WHITE])))
    assert sheet.legend((0, 0), 300, players, 20) == 64   # two lines of 20 px text
    assert INK in set(sheet.finish().convert("RGB").get_flattened_data())


def test_a_name_shortened_already_keeps_the_end_that_tells_it_apart():
    """Two long names shortened apart ("Alexandre…n", "Alexandre…u": seat_name) stay apart
    when the picture has even less room for them."""
    from renderer.writing import fit_text
    a, b = fit_text("Alexandre…n", 120, 24), fit_text("Alexandre…u", 120, 24)
    assert a != b and a.endswith("…n") and b.endswith("…u") and len(a) < len("Alexandre…n")


def test_a_first_word_too_wide_for_the_narrow_first_line_starts_the_next_instead_of_being_cut():
    """A name's first line is narrower (beside the colour swatches): "Ordinateur (difficile)" reads whole on the
    wider lines below rather than as "Ordina / teur (dif / ficile)"."""
    size = 33
    word = text_length("Ordinateur", size, True)
    lines = break_lines("Ordinateur (difficile)", [word - 20, word + 10, word + 10], size, True)
    assert lines == ["", "Ordinateur", "(difficile)"]
