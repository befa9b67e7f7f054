"""`python -m bot.operations.probe`: the container's health check. GET /healthz of this process's listener
(TABLERO_HTTP, an address on all interfaces asked on loopback), its one line printed; exit status 0 when healthy,
1 otherwise (the bot unhealthy, not answering, or no listener set). Light: no Discord, database or picture
library is imported, as Docker runs it every 30 s."""
from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

from bot.core.config import SettingError, parse_address
from bot.domain import i18n

TIMEOUT_S = 5.0
_LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def main() -> int:
    try:
        address = parse_address(os.environ.get("TABLERO_HTTP"))
    except SettingError:
        address = None
    if address is None:
        print(i18n.text("cli.probe.no_listener", "en"), file=sys.stderr)
        return 1
    host = _LOOPBACK.get(address[0], address[0])
    url = f"http://{f'[{host}]' if ':' in host else host}:{address[1]}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            print(response.read().decode().strip())
            return 0
    except urllib.error.HTTPError as unhealthy:   # 503: the reasons, in one line of JSON
        print(unhealthy.read().decode().strip())
    except OSError as error:   # refused, timed out: the bot is not (yet) listening
        print(i18n.text("cli.probe.no_answer", "en", url=url, reason=getattr(error, "reason", error)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
