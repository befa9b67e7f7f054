"""The README's board picture is drawn by `python -m renderer.sample`, and the committed file is
what the current renderer draws."""
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]


def test_the_sample_script_draws_the_readmes_picture_as_committed(tmp_path):
    target = tmp_path / "docs" / "board.png"
    subprocess.run([sys.executable, "-m", "renderer.sample", str(target)], check=True, cwd=ROOT, timeout=120)
    drawn, committed = Image.open(target).convert("RGB"), Image.open(ROOT / "docs" / "board.png").convert("RGB")
    assert drawn.size == committed.size and ImageChops.difference(drawn, committed).getbbox() is None, \
        "docs/board.png is out of date: run python -m renderer.sample docs/board.png"


def test_the_gallery_page_lists_every_hard_position_with_its_caption_and_picture():
    """Checked everywhere (the pixels below need fonts CI's machine lacks): docs/boards.md is the page
    renderer.sample writes, and each position it lists has its picture in docs/boards/."""
    from bot.games import GAME_IDS
    from renderer.sample import HARD, gallery_page
    docs = ROOT / "docs"
    assert (docs / "boards.md").read_text(encoding="utf-8") == gallery_page(), \
        "docs/boards.md is out of date: run python -m renderer.sample --gallery docs"
    names = sorted(f"{hard.name}.png" for hard in HARD)
    assert sorted(p.name for p in (docs / "boards").iterdir() if p.is_file()) == names
    assert sorted(p.name for p in (docs / "boards" / "full").iterdir()) == names
    assert {hard.game for hard in HARD} == set(GAME_IDS), "each game has its sample (docs/adding-a-game.md, step 7)"


def test_the_gallery_in_docs_is_what_the_current_renderer_draws(tmp_path):
    """docs/boards.md and its pictures: hard positions of every ruleset at chat size.
    Their names need the CJK and emoji fallback fonts (the Docker image installs them)."""
    from renderer.fonts import faces
    found = " ".join(faces())
    if "CJK" not in found or "Emoji" not in found:
        pytest.skip("the gallery's names need Noto CJK and Noto Color Emoji, which this machine lacks")
    subprocess.run([sys.executable, "-m", "renderer.sample", "--gallery", str(tmp_path)], check=True, cwd=ROOT,
                   timeout=300)
    docs = ROOT / "docs"
    assert (tmp_path / "boards.md").read_text(encoding="utf-8") == (docs / "boards.md").read_text(encoding="utf-8"), \
        "docs/boards.md is out of date: run python -m renderer.sample --gallery docs"
    drawn = sorted(p.name for p in (tmp_path / "boards").iterdir() if p.is_file())
    assert drawn == sorted(p.name for p in (docs / "boards").iterdir() if p.is_file()) and len(drawn) >= 8
    games = {"parcheesi", "classic", "maghreb", "barricade", "pariti"}
    assert games == {name.split("-")[0] for name in drawn}
    for name in drawn:
        new, old = Image.open(tmp_path / "boards" / name), Image.open(docs / "boards" / name)
        assert new.width == 400
        same = new.size == old.size and ImageChops.difference(new.convert("RGB"), old.convert("RGB")).getbbox() is None
        assert same, f"docs/boards/{name} is out of date: run python -m renderer.sample --gallery docs"


def test_help_is_help_not_a_file_name(tmp_path, monkeypatch, capsys):
    from renderer.sample import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0 and "--gallery" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_the_sample_is_drawn_in_a_language_the_bot_speaks(tmp_path):
    """`python -m renderer.sample --lang de board.png`: the same game in German words (the panels' "Ziel");
    a language Tablero does not serve is refused."""
    from bot.domain import i18n
    from renderer.sample import main
    if "de" not in i18n.LOCALES:
        pytest.skip("no German catalogue")
    assert main(["--lang", "de", str(tmp_path / "de.png")]) == 0 and main([str(tmp_path / "en.png")]) == 0
    german, english = (Image.open(tmp_path / f"{name}.png").convert("RGB") for name in ("de", "en"))
    assert german.size == english.size and ImageChops.difference(german, english).getbbox() is not None
    with pytest.raises(SystemExit) as refused:
        main(["--lang", "xx", str(tmp_path / "xx.png")])
    assert refused.value.code == 2 and not (tmp_path / "xx.png").exists()
