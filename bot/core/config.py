"""Settings from the environment (never logged whole: the token is a secret)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from bot.core.shards import Shards, parse_shards

DATABASE = "tablero.sqlite3"                   # the bot's games, unless TABLERO_DATABASE says otherwise
CONSOLE_DATABASE = "tablero-console.sqlite3"   # the console's (`python -m bot play`), unless --database


class SettingError(ValueError):
    """An unreadable setting; `key` and `params` name the problem in the catalogue (cli.settings.*)."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key, self.params = key, params


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
            database=env.get("TABLERO_DATABASE") or DATABASE,
            api_base=(env.get("DISCORD_API_BASE") or "").rstrip("/") or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
            log_level=env.get("TABLERO_LOG_LEVEL", "INFO").upper(),
            min_turn_time=int(env.get("TABLERO_MIN_TURN_TIME") or 60),
            shards=parse_shards(env.get("TABLERO_SHARD_COUNT"), env.get("TABLERO_SHARD_IDS")),
            http=parse_address(env.get("TABLERO_HTTP")),
            json_logs=_log_format(env.get("TABLERO_LOG_FORMAT")),
            retain_days=int(env.get("TABLERO_RETAIN_DAYS") or 30),
            token_lifetime=float(env.get("TABLERO_TOKEN_LIFETIME") or 900),
        )


def _log_format(text: str | None) -> bool:
    """TABLERO_LOG_FORMAT: "text" (the default) or "json"; whether JSON."""
    if (text or "text").lower() not in ("text", "json"):
        raise SettingError("cli.settings.bad_log_format", value=text)
    return (text or "").lower() == "json"
