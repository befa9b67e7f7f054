"""The README's board picture is drawn by `python -m renderer.sample`, and the committed file is
what the current renderer draws."""
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]


def test_the_sample_script_draws_the_readmes_picture_as_committed(tmp_path):
    target = tmp_path / "docs" / "board.png"
    subprocess.run([sys.executable, "-m", "renderer.sample", str(target)], check=True, cwd=ROOT, timeout=120)
    drawn, committed = Image.open(target).convert("RGB"), Image.open(ROOT / "docs" / "board.png").convert("RGB")
    assert drawn.size == committed.size and ImageChops.difference(drawn, committed).getbbox() is None, \
        "docs/board.png is out of date: run python -m renderer.sample docs/board.png"
