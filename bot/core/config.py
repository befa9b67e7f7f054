"""Settings from the environment (never logged whole: the token is a secret)."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from bot.core.shards import Shards, parse_shards

DATABASE = "tablero.sqlite3"                   # the bot's games, unless TABLERO_DATABASE says otherwise
CONSOLE_DATABASE = "tablero-console.sqlite3"   # the console's (`python -m bot play`), unless --database
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")   # TABLERO_LOG_LEVEL's values (logging's levels)


class SettingError(ValueError):
    """An unreadable setting; `key` and `params` name the problem in the catalogue (cli.settings.*)."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key, self.params = key, params


def database_setting(env: dict[str, str] | None = None) -> str:
    """TABLERO_DATABASE (or the default file): all the operator's tools read of the settings, so that another
    setting unreadable stops no backup."""
    return (os.environ if env is None else env).get("TABLERO_DATABASE") or DATABASE


def parse_address(text: str | None) -> tuple[str, int] | None:
    """TABLERO_HTTP: "127.0.0.1:9108", "0.0.0.0:9108", "[::1]:9108" (None when unset: no listener)."""
    if not text:
        return None
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not (colon and host and port.isdigit() and 0 < int(port) < 65536):
        raise SettingError("cli.settings.bad_address", value=text)
    return host, int(port)


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str             # a SQLite file's path or a postgresql:// (postgres://) URL (bot/store/urls.py)
    api_base: str | None      # REST base URL (a REST proxy, or the test suite's fake Discord)
    gateway_url: str | None   # gateway URL to dial when the shard count is given (a proxy, or the fake Discord)
    log_level: str
    min_turn_time: int        # seconds: the shortest turn_time a game may set
    shards: Shards | None     # this process's gateway shards; None: every shard Discord recommends
    http: tuple[str, int] | None = None   # where /healthz and /metrics listen (TABLERO_HTTP); None: nowhere
    json_logs: bool = False   # TABLERO_LOG_FORMAT=json: one JSON object per line
    retain_days: int = 30     # days a server's games are kept after it removed the bot (bot/services/privacy.py)
    token_lifetime: float = 900.0   # seconds an interaction's token lasts (Discord: 15 min; shorter in tests)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Raises bot.core.shards.ShardSpecError on unreadable shard settings, SettingError on another."""
        env = dict(os.environ if env is None else env)
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            database=database_setting(env),
            api_base=(env.get("DISCORD_API_BASE") or "").rstrip("/") or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
            log_level=_log_level(env.get("TABLERO_LOG_LEVEL")),
            min_turn_time=_whole(env, "TABLERO_MIN_TURN_TIME", 60, least=1),
            shards=parse_shards(env.get("TABLERO_SHARD_COUNT"), env.get("TABLERO_SHARD_IDS")),
            http=parse_address(env.get("TABLERO_HTTP")),
            json_logs=_log_format(env.get("TABLERO_LOG_FORMAT")),
            retain_days=_whole(env, "TABLERO_RETAIN_DAYS", 30, least=0),
            token_lifetime=_seconds(env, "TABLERO_TOKEN_LIFETIME", 900.0),
        )


def _log_format(text: str | None) -> bool:
    """TABLERO_LOG_FORMAT: "text" (the default) or "json"; whether JSON."""
    if (text or "text").lower() not in ("text", "json"):
        raise SettingError("cli.settings.bad_log_format", value=text)
    return (text or "").lower() == "json"


def _log_level(text: str | None) -> str:
    """TABLERO_LOG_LEVEL: one of LOG_LEVELS, in any case (INFO when unset)."""
    level = (text or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise SettingError("cli.settings.bad_log_level", value=text, levels=", ".join(LOG_LEVELS))
    return level


def _whole(env: dict[str, str], name: str, default: int, *, least: int) -> int:
    """A whole number, `least` or more (`default` when unset or empty)."""
    text = (env.get(name) or "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < least:   # "-5" is refused with the rest
        raise SettingError("cli.settings.bad_whole", name=name, least=least, value=env[name])
    return int(text)


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    """A number of seconds above 0, such as 900 or 2.5 (`default` when unset or empty)."""
    text = (env.get(name) or "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:   # nan compares false: refused too
        raise SettingError("cli.settings.bad_seconds", name=name, value=env[name])
    return seconds
