"""python -m bot.tools.forget's command line (what it removes: tests/services/test_privacy.py)."""
import pytest

from bot.domain import i18n
from bot.tools import forget


def test_help_says_what_its_database_is_for(capsys):
    with pytest.raises(SystemExit) as done:
        forget.main(["--help"])
    said = " ".join(capsys.readouterr().out.split())   # argparse wraps the lines
    assert done.value.code == 0 and i18n.text("forget.cli_database", "en") in said
    assert "to copy or to restore" not in said   # backup's words, which it showed
