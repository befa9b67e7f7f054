"""Settings from the environment: the listener's address and the log format."""
import pytest

from bot.core.config import SettingError, Settings


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
