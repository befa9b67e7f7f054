"""Settings from the environment: the listener's address, the log format and level, the numbers; each unreadable one
refused naming the variable and what it takes."""
import pytest

from bot.core.config import SettingError, Settings
from bot.domain import i18n


@pytest.mark.parametrize("text, address", [(None, None), ("", None), ("127.0.0.1:9108", ("127.0.0.1", 9108)),
                                           ("0.0.0.0:9108", ("0.0.0.0", 9108)), ("[::1]:9108", ("::1", 9108))])
def test_the_listener_is_off_unless_an_address_is_given(text, address):
    env = {} if text is None else {"TABLERO_HTTP": text}
    assert Settings.from_env(env).http == address


@pytest.mark.parametrize("text", ["9108", ":9108", "localhost", "127.0.0.1:http", "127.0.0.1:70000"])
def test_an_unreadable_address_is_refused(text):
    with pytest.raises(SettingError) as refused:
        Settings.from_env({"TABLERO_HTTP": text})
    assert refused.value.key == "cli.settings.bad_address"


def test_logs_are_text_unless_json_is_asked():
    assert not Settings.from_env({}).json_logs and Settings.from_env({"TABLERO_LOG_FORMAT": "JSON"}).json_logs
    with pytest.raises(SettingError):
        Settings.from_env({"TABLERO_LOG_FORMAT": "xml"})


WHOLE, SECONDS = "cli.settings.bad_whole", "cli.settings.bad_seconds"


@pytest.mark.parametrize("name, value, key", [
    ("TABLERO_LOG_LEVEL", "LOUD", "cli.settings.bad_log_level"),
    ("TABLERO_RETAIN_DAYS", "abc", WHOLE), ("TABLERO_RETAIN_DAYS", "-1", WHOLE),
    ("TABLERO_MIN_TURN_TIME", "abc", WHOLE), ("TABLERO_MIN_TURN_TIME", "-5", WHOLE),
    ("TABLERO_MIN_TURN_TIME", "0", WHOLE), ("TABLERO_MIN_TURN_TIME", "²", WHOLE),
    ("TABLERO_TOKEN_LIFETIME", "x", SECONDS), ("TABLERO_TOKEN_LIFETIME", "0", SECONDS),
    ("TABLERO_TOKEN_LIFETIME", "nan", SECONDS), ("TABLERO_TOKEN_LIFETIME", "inf", SECONDS)])
def test_an_unreadable_number_or_level_is_refused_naming_the_variable_and_what_it_takes(name, value, key):
    with pytest.raises(SettingError) as refused:
        Settings.from_env({name: value})
    assert refused.value.key == key
    said = i18n.text(key, "en", **refused.value.params)
    assert name in said and value in said


def test_numbers_and_levels_that_are_taken():
    settings = Settings.from_env({"TABLERO_LOG_LEVEL": "debug", "TABLERO_RETAIN_DAYS": "0",
                                  "TABLERO_MIN_TURN_TIME": "1", "TABLERO_TOKEN_LIFETIME": "2.5"})
    assert (settings.log_level, settings.retain_days, settings.min_turn_time, settings.token_lifetime) == \
        ("DEBUG", 0, 1, 2.5)
    defaults = Settings.from_env({"TABLERO_RETAIN_DAYS": ""})
    assert (defaults.min_turn_time, defaults.retain_days) == (60, 30)
