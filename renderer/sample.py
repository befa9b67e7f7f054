"""Pictures drawn by the current renderer, kept in docs/ (tests keep the committed files equal to
what this writes):

- `python -m renderer.sample docs/board.png`: the board picture the README shows, a four-player
  Parcheesi game of seeded random moves stopped mid-game, the last round of moves traced as the
  player to move sees them; `--lang de` (any served locale) draws it with that language's words;
- `python -m renderer.sample --gallery docs`: hard positions of every ruleset (shared squares, a
  long absence, a finished game, a 2 vs 2, emoji, CJK and Arabic names) at chat size, 400 px wide, in
  docs/boards/, with docs/boards.md showing them, and a long absence's alt text (bot.present's words:
  this script, a writer of the docs, is their one reader in renderer/).
"""
from __future__ import annotations

import argparse
import io
import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from bot.core.game_records import GameRecord, Seat
from bot.domain import i18n
from bot.domain.names import short_names
from bot.games import get_ruleset
from bot.games.barricade import Barricade
from bot.games.base import Ruleset
from bot.present.alt_text import board_alt
from bot.present.words import sentence
from renderer import PlayerTag, layout, render_png
from renderer.plan import Plan

GAME, SEED, ACTIONS, TRACED = "parcheesi", 7, 124, 12
NAMES = ("Éloïse", "Bob", "Computer (hard)", "Dmitri")
HARD_NAMES = short_names(("Grand-mère Josette 👵", "小明", "Bob 🎲", "さくら"))   # as the messages show them
CHAT_WIDTH = 400


def sample_png(locale: str = i18n.DEFAULT_LOCALE) -> bytes:
    ruleset = get_ruleset(GAME)
    state, rng = ruleset.new_game(4, {}, SEED), random.Random(SEED)
    positions = [state]
    for _ in range(ACTIONS):
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else \
            rng.choice(ruleset.legal_actions(state))
        state = ruleset.apply(state, action).state
        positions.append(state)
    to_move, colours = ruleset.to_move(state), ruleset.seat_colours(4, {})
    computer = i18n.Word(i18n.text("player.computer", locale, level=i18n.text("level.hard", locale)))
    names = [computer if name == NAMES[2] else name for name in NAMES]   # as the bot names it: "Computer (hard)"
    players = [PlayerTag(names[i], colours[i], to_move == i) for i in range(4)]
    return render_png(ruleset, state, players, locale, traced=positions[-TRACED:])


# --- the gallery --------------------------------------------------------------------

# (ruleset, state, players, traced positions, focus) of a picture: rulesets of every game, hence Any.
Position = tuple[Ruleset[Any], Any, list[PlayerTag], list[Any], str | None]


@dataclass(frozen=True)
class Hard:
    """A hard position: the first of a seeded random game's positions (after `skip`) that `wanted`
    accepts in its plan, with the `traced` positions before it."""

    name: str
    game: str
    caption: str
    seed: int
    wanted: Callable[[Plan], bool]
    options: tuple[tuple[str, Any], ...] = ()
    traced: int = 2
    skip: int = 0
    finished: bool = False
    focus: bool = False
    names: tuple[str, ...] = tuple(HARD_NAMES)
    made: Callable[[], Position] | None = None   # a position set up
    locale: str = i18n.DEFAULT_LOCALE            # the language of its words


def _shared(plan: Plan) -> bool:
    squares = Counter(p.square for p in plan.of("piece") if p.square and "house" not in p.square
                      and "start" not in p.square and p.square != "goal")
    return any(n > 1 for n in squares.values())


def _anything(plan: Plan) -> bool:
    return True


def _two_colours(plan: Plan) -> bool:
    """Two pieces of two colours on one track square."""
    colours: dict[str, set[str]] = {}
    for p in plan.of("piece"):
        if p.square and p.square.isdigit():
            colours.setdefault(p.square, set()).add(p.ref[0])
    return any(len(found) > 1 for found in colours.values())


def _capture(plan: Plan) -> bool:
    """A captured piece's way home traced."""
    return any(t.role.startswith("home") for t in plan.of("trace"))


def around_a_barricade() -> Position:
    """The review's case: red's pawn on i3 plays a 6 to e1 with a barricade on g3, the way
    row 3 would take barred; the trace goes round by row 1. As hard_position returns it."""
    ruleset = get_ruleset("barricade")
    assert isinstance(ruleset, Barricade)
    board, start = ruleset.board, ruleset.new_game(4, {}, 1)
    red = (board.index["i3"],) + start.pawns[0][1:]
    before = start.evolve(order=(0, 1, 2, 3), ranking=(), stage="move", seat=0, die=6, pawns=(red,) + start.pawns[1:],
                          barricades=tuple(sorted({*board.black_points, board.index["g3"]} - {board.index["i3"]})))
    after = ruleset.apply(before, "i3-e1").state
    players = [PlayerTag(HARD_NAMES[i], colours, ruleset.to_move(after) == i)
               for i, colours in enumerate(ruleset.seat_colours(4, {}))]
    return ruleset, after, players, [before, after], None


HARD = (
    Hard("parcheesi-shared", "parcheesi", "Parcheesi: two pawns on one square stand inside it (a bridge is framed); "
         "a long absence of twelve moves traced in lanes", 3, _shared, traced=13, skip=150),
    Hard("parcheesi-2v2-finished", "parcheesi", "Parcheesi 2 vs 2, finished: the winners in a house panel, "
         "the partners named under each player", 2, _anything, (("teams", True),), traced=6, finished=True),
    Hard("classic-shared", "parcheesi-classic", "Classic Parcheesi: a barrier; a note longer than the acting "
         "house holds (four players: no house is free) goes on in the next house, marked …", 5, _shared, traced=4,
         skip=80),
    Hard("maghreb-door", "parchis-maghreb", "Parchís Maghreb: a door of two pieces, two colours per side; the note "
         "goes on in the side's second house", 4, _shared, traced=4, skip=60),
    Hard("barricade-held", "barricade", "Barricade: the order of play that was rolled, who holds which barricade, "
         "the die of the player to move on their line; traces along the lines", 1,
         lambda plan: bool(plan.of("die")) and any(p.square and p.square.endswith(" held") for p in plan.of("piece")),
         traced=8, skip=400),
    Hard("barricade-finished", "barricade", "Barricade, finished: who won, under the legend", 3, _anything,
         traced=4, finished=True),
    Hard("parcheesi-two-colours", "parcheesi", "Parcheesi: two pieces of two colours on one square, side by side "
         "across the long square, each 14 px and more at chat size, its number 8 px and more", 4, _two_colours,
         traced=3, skip=40),
    Hard("parcheesi-capture", "parcheesi", "Parcheesi: a capture: a ✕ on the square where it happened, the captured "
         "piece's way home traced (dashed, 2 px at chat size) to its own slot, where it is ringed", 6, _capture,
         traced=3, skip=20),
    Hard("barricade-capture", "barricade", "Barricade: a pawn sent back to its start area: a ✕ beside the point, its "
         "way back dashed to its slot, where it is ringed", 0, _capture, traced=2, skip=20),
    Hard("barricade-eleven", "barricade", "Barricade: eleven moves since the player's last turn: the last four lead, "
         "the older ones thin and pale, their lanes within the lines' room, every badge one size", 2,
         lambda plan: sum(not t.ref.startswith("bar:") for t in plan.of("trace")) >= 11, traced=26, skip=200),
    Hard("barricade-around", "barricade", "Barricade: a trace goes round a barricade (g3), the way the pawn "
         "could take", 0, _anything, made=around_a_barricade),
    Hard("pariti-focus", "pariti", "Pariti: a piece chosen (framed) and the squares it can reach (named)",
         2, _anything, skip=12, focus=True),
    Hard("pariti-finished", "pariti", "Pariti, finished: who won, in the side panel", 1, _anything, traced=5,
         finished=True),
    Hard("parcheesi-es-capture", "parcheesi", "Parchís in Spanish: a capture and its count of 20 told in the acting "
         "house; the longer Spanish words within the panels", 6, _capture, traced=3, skip=20, locale="es",
         names=("María José", "Íñigo", "la máquina (difícil)", "Lucía")),
    Hard("barricade-de-finished", "barricade", "Malefiz in German, finished: the banner says who won (gewinnt) "
         "under a long German name; our words (der Computer) and names with umlauts within the legend at 400 px", 1,
         _anything, traced=4, finished=True, locale="de",
         names=("Jürgen", "Großvater Günther", "der Computer (schwer)", "Hannelore Müller-Lüdenscheidt")),
    Hard("maghreb-arabic-winner", "parchis-maghreb", "Parchís Maghreb, finished: an Arabic name wins, written right to "
         "left in the panel and at the start of the banner, whose sentence still reads left to right", 4, _anything,
         traced=4, finished=True, names=("يوسف", "فاطمة الزهراء")),
)

# A long absence in words: the board's description for screen readers after sixty actions of others.
ABSENCE = ("parcheesi", 3, 150, 60, ("يوسف", "דוד כהן", "王小明", "🐉 Drago"))


def hard_position(hard: Hard) -> Position:
    """(ruleset, state, players, traced positions, focus) of `hard`."""
    if hard.made is not None:
        return hard.made()
    ruleset = get_ruleset(hard.game)
    options = dict(hard.options)
    n = ruleset.player_range(options)[1]
    colours = ruleset.seat_colours(n, options)
    state, rng = ruleset.new_game(n, options, hard.seed), random.Random(hard.seed)
    positions = [state]

    def players_of(state: Any) -> list[PlayerTag]:
        to_move = ruleset.to_move(state) if ruleset.result(state) is None else None
        return [PlayerTag(hard.names[i], colours[i], to_move == i) for i in range(n)]

    while ruleset.result(state) is None:
        if not hard.finished and len(positions) > hard.skip and \
                hard.wanted(layout(ruleset, state, players_of(state), traced=positions[-hard.traced:])):
            break
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else \
            rng.choice(ruleset.legal_actions(state))
        state = ruleset.apply(state, action).state
        positions.append(state)
    focus = None
    if hard.focus:
        focus = next((g for a in ruleset.legal_actions(state) if (g := ruleset.action_group(state, a))), None)
    return ruleset, state, players_of(state), positions[-hard.traced:], focus


def chat_size(png: bytes) -> bytes:
    """The picture as a phone's chat shows it: 400 px wide."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((CHAT_WIDTH, round(image.height * CHAT_WIDTH / image.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def absence_alt() -> str:
    """ABSENCE's alt text: the board's description after its last actions, told as the board message does."""
    game, seed, actions, away, names = ABSENCE
    ruleset = get_ruleset(game)
    state, rng = ruleset.new_game(len(names), {}, seed), random.Random(seed)
    record = GameRecord(id=1, guild_id=1, channel_id=1, game=game, status="active", host_id=1, locale="en",
                        options={}, seats=tuple(Seat(i + 1, name) for i, name in enumerate(names)), seed=str(seed),
                        state=None, version=0)
    said = []
    for i in range(actions):
        action = ruleset.random_roll(state, rng) if ruleset.roll_due(state) else \
            rng.choice(ruleset.legal_actions(state))
        applied = ruleset.apply(state, action)
        state = applied.state
        if i >= actions - away:
            said += [sentence(record, event, "en") for event in applied.events]
    shown = GameRecord(**{**record.__dict__, "state": ruleset.to_json(state), "version": actions})
    return board_alt(shown, "en", said)


def gallery_page() -> str:
    """docs/boards.md: each hard position's caption and picture, then a long absence's alt text."""
    lines = ["# Boards at chat size", "",
             "Hard positions of every ruleset as a phone shows them (400 px wide; each links to the full size), "
             "drawn by "
             "`python -m renderer.sample --gallery docs` with the current code (a test keeps them current).", ""]
    for hard in HARD:
        lines += [f"## {hard.caption}", "",
                  f"[![{hard.caption}](boards/{hard.name}.png)](boards/full/{hard.name}.png)", ""]
    alt = absence_alt()
    lines += ["## A long absence in words: the board's alt text for a screen reader", "",
              f"Sixty actions since the player's last turn; {len(alt)} characters, within Discord's 1,024: whose turn "
              "and the dice first, then the pieces, then the story, its oldest sentences left out.", "",
              f"> {alt}", ""]
    return "\n".join(lines)


def gallery(root: Path) -> None:
    """docs/boards/<name>.png (400 px wide), docs/boards/full/<name>.png (full size) and docs/boards.md."""
    (root / "boards" / "full").mkdir(parents=True, exist_ok=True)
    for hard in HARD:
        ruleset, state, players, traced, focus = hard_position(hard)
        png = render_png(ruleset, state, players, hard.locale, focus, traced)
        (root / "boards" / "full" / f"{hard.name}.png").write_bytes(png)
        (root / "boards" / f"{hard.name}.png").write_bytes(chat_size(png))
    (root / "boards.md").write_text(gallery_page(), encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m renderer.sample", description="Draw the README's board picture, "
                                     "or the gallery of hard positions (docs/boards.md).")
    parser.add_argument("target", nargs="?", default="board.png", help="the README's board picture (board.png)")
    parser.add_argument("--gallery", metavar="FOLDER", nargs="?", const="docs",
                        help="draw the hard positions into FOLDER/boards/ and FOLDER/boards.md instead (docs)")
    parser.add_argument("--lang", choices=i18n.LOCALES, default=i18n.DEFAULT_LOCALE,
                        help="the language of the board's words (default: English)")
    args = parser.parse_args(argv)   # --help prints the usage (it was taken for a file name)
    if args.gallery is not None:
        gallery(Path(args.gallery))
        return 0
    target = Path(args.target)
    locale = args.lang
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(sample_png(locale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
