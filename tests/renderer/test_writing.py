"""Names in every script and direction inside our sentences: a right-to-left
name is isolated, so that a line that begins with it is not turned around; its letters are joined and in
their order with raqm and, where Pillow has no raqm, through python-bidi and arabic-reshaper; combining
marks never draw a box. Each test runs with both layouts (Pillow's BASIC layout forces the fallback)."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageFont, features

from bot.games import get_ruleset
from renderer import PlayerTag, fonts, layout, writing
from renderer.fonts import faces, has_glyph
from renderer.legend import tag_lines
from renderer.writing import FSI, PDI, break_lines, draw_text, isolate, printable, text_length, visual_runs
from tests.benchmarks.common import random_action

YUSUF, FATIMA, DAVID = "يوسف", "فاطمة", "דוד כהן"
LAYOUTS = [pytest.param(ImageFont.Layout.BASIC, id="basic")] + (
    [pytest.param(ImageFont.Layout.RAQM, id="raqm")] if features.check("raqm") else [])


@pytest.fixture(params=LAYOUTS)
def engine(request, monkeypatch):
    monkeypatch.setattr(fonts, "LAYOUT", request.param)
    return request.param


def line_picture(text: str, size: int = 30, x: float = 5) -> Image.Image:
    image = Image.new("RGB", (500, 60), (255, 255, 255))
    draw_text(image, (x, 10), text, size)
    return image


def ink(image: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.invert(image.convert("L")).getbbox()


def test_a_right_to_left_name_is_isolated_and_a_left_to_right_one_left_as_written():
    assert isolate(YUSUF) == FSI + YUSUF + PDI and isolate(DAVID) == FSI + DAVID + PDI
    assert isolate("Éloïse") == "Éloïse" and isolate("王小明") == "王小明" and isolate("Bob") == "Bob"
    assert isolate("\u202e" + YUSUF) == FSI + YUSUF + PDI   # a direction control typed into a name is left out


@pytest.mark.parametrize("words", ["{} wins", "{} gagne", "{} may call out cheating by " + isolate(FATIMA)])
def test_a_sentence_that_begins_with_a_right_to_left_name_keeps_its_direction(engine, words):
    """"يوسف wins" (the name at the left, read first), never "wins يوسف"; each name in its own direction."""
    runs = visual_runs(words.format(isolate(YUSUF)))
    directions = ["rtl", "ltr"] if engine == ImageFont.Layout.RAQM else [None, None]
    assert [direction for _, direction in runs][:2] == directions
    assert runs[1][0].startswith(" " + words.split()[1])   # our words follow the name, left to right
    name = runs[0][0]
    assert name == YUSUF if engine == ImageFont.Layout.RAQM else all("\ufe70" <= ch <= "\ufeff" for ch in name)


def test_a_sentence_beginning_with_a_right_to_left_name_is_drawn_name_first(engine):
    """In pixels: the words after the name stand where they stand after a left-to-right name of its width."""
    line = isolate(YUSUF) + " wins"
    after = text_length(isolate(YUSUF), 30)
    whole, words = line_picture(line), line_picture(" wins", x=5 + after)
    right = (round(5 + after) + 2, 0, 500, 60)
    assert ImageChops.difference(whole.crop(right), words.crop(right)).getbbox() is None
    left = ink(whole.crop((0, 0, round(5 + after) - 2, 60)))
    assert left is not None   # the name itself, at the left


def test_an_emoji_in_an_arabic_name_stays_on_its_side(engine):
    """Written first (at the right, where a right-to-left name starts), the dragon is drawn at the right."""
    runs = visual_runs(isolate("🐉 " + YUSUF))
    assert "🐉" in runs[-1][0] if engine == ImageFont.Layout.RAQM else runs[-1][0].endswith("🐉")
    assert visual_runs(isolate("Drago 🐉"))[0][0].startswith("Drago")


def test_a_hebrew_name_reads_right_to_left_inside_a_french_sentence(engine):
    runs = visual_runs("Au tour de " + isolate(DAVID) + " (2).")
    assert runs[0][0] == "Au tour de " and runs[-1][0] == " (2)."
    assert runs[1][0] == (DAVID if engine == ImageFont.Layout.RAQM else DAVID[::-1])


@pytest.mark.skipif(not features.check("raqm"), reason="compares with raqm's writing")
def test_without_raqm_arabic_letters_are_joined_as_raqm_joins_them(monkeypatch):
    """The fallback writes what raqm writes: the same joined glyphs, in the same order (a few pixels of
    kerning apart at most)."""
    raqm = line_picture(isolate(YUSUF))
    monkeypatch.setattr(fonts, "LAYOUT", ImageFont.Layout.BASIC)
    basic = line_picture(isolate(YUSUF))
    a, b = ink(raqm), ink(basic)
    assert a is not None and b is not None and abs((a[2] - a[0]) - (b[2] - b[0])) <= 3
    differing = ImageChops.difference(raqm.convert("L"), basic.convert("L")).point(lambda v: 255 if v > 128 else 0)
    assert sum(differing.histogram()[255:]) < 0.1 * sum(ImageChops.invert(raqm.convert("L")).point(
        lambda v: 255 if v > 128 else 0).histogram()[255:])


def test_a_combining_mark_no_font_has_draws_no_box_and_leaves_its_letter(engine):
    mark = next(ch for ch in ("\u1ac1", "\u1dfa", "\u20f0") if not any(has_glyph(p, ch) for p in faces()))
    assert line_picture("Zoe" + mark + "!").tobytes() == line_picture("Zoe!").tobytes()


def test_a_name_breaks_only_between_words_or_is_shortened_on_one_line(engine):
    """Never "Bartholome / w…"."""
    assert break_lines("Bartholomew Whitfield", [200, 200], 22) == ["Bartholomew", "Whitfield"]
    one = break_lines("Bartholomewbartholomew", [160, 200], 22)
    assert len([line for line in one if line]) == 1 and one[-1].endswith("…")
    if printable("王") == "王":   # with a CJK font (CI has none): CJK breaks between letters
        assert break_lines("王小明王小明王小明王小明", [120, 200], 22)[0].startswith("王")
    two = tag_lines(PlayerTag(f"{FATIMA} {YUSUF}", ("red",)), 150, 22, 2)
    assert [line.strip(FSI + PDI) for line in two] == [FATIMA, YUSUF]


def test_the_maghreb_final_board_names_its_arabic_winner_first_in_the_banner_as_the_panel_does(engine):
    """Through the plan: the banner is "⁨يوسف⁩ wins", the name as its panel
    writes it."""
    ruleset = get_ruleset("parchis-maghreb")
    state, rng = ruleset.new_game(2, {}, 4), random.Random(4)
    while ruleset.result(state) is None:
        state = ruleset.apply(state, random_action(ruleset, state, rng)).state
    names = ("يوسف بن عبد الرحمن الكبير", FATIMA)
    colours = ruleset.seat_colours(2, {})
    plan = layout(ruleset, state, [PlayerTag(names[i], colours[i]) for i in range(2)], "en")
    winner = ruleset.result(state).winners[0]
    banner = plan.of("banner")[0].ref
    panel = next(item.role for item in plan.of("name") if item.ref == names[winner])
    shown = " ".join(line.strip(FSI + PDI) for line in panel.split("\n") if line)
    assert banner == f"{FSI}{shown}{PDI} wins", (banner, panel)
    runs = visual_runs(banner)
    assert runs[-1][0] == " wins"


def test_the_start_up_log_says_which_layout_writes_right_to_left_names(monkeypatch):
    assert ("raqm" in writing.layout_description()) == (fonts.LAYOUT == ImageFont.Layout.RAQM)
    monkeypatch.setattr(fonts, "LAYOUT", ImageFont.Layout.BASIC)
    assert "python-bidi" in writing.layout_description() and "arabic-reshaper" in writing.layout_description()
