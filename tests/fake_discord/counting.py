"""What the fake counts of the bot's REST requests: by the limit they fall under (the bot's global limit, or
the interaction endpoints exempt from it), by route, and those it refused; and the optional global limiter."""

from __future__ import annotations

import dataclasses
import time
from collections import Counter, deque
from collections.abc import Callable

from tests.fake_discord.constants import GLOBAL_LIMIT_PER_S, GLOBAL_SCOPE, INTERACTION_SCOPE


def scope_of(path: str) -> str:
    """The limit a request counts against: interaction callbacks and the token's webhook routes are exempt
    from the global limit (Discord: "not bound to the application's Global Rate Limit"); all else counts."""
    return INTERACTION_SCOPE if path.startswith(("/interactions/", "/webhooks/")) else GLOBAL_SCOPE


@dataclasses.dataclass(frozen=True)
class CountedRequest:
    """One REST request the bot made and how the fake answered it."""

    method: str
    route: str  # the route template, e.g. "/channels/{channel}/messages" (the path for an unknown route)
    path: str
    scope: str  # "global" or "interaction"
    status: int  # 0: none, the connection was closed (FakeDiscord.drop)
    code: int | None = None  # Discord's JSON error code of a refusal (None for a 429)
    refused: bool = False  # answered 4xx: Discord refused it (403 50001, 400 40094, 401 50027, 429...)
    bot_at_fault: bool = False  # refused for something the bot could have known (a violation), not bad luck

    @property
    def key(self) -> str:
        """"METHOD /route/{template}", the key of `RequestCounts.by_route`."""
        return f"{self.method} {self.route}"

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}" + (f" ({self.code})" if self.code else "")


class RequestCounts:
    """The counted requests from some point on (FakeDiscord.counts(since=mark))."""

    def __init__(self, requests: list[CountedRequest]):
        self.requests = requests

    @property
    def global_requests(self) -> int:
        """Requests that count against the bot's global limit of 50 a second."""
        return sum(r.scope == GLOBAL_SCOPE for r in self.requests)

    @property
    def interaction_requests(self) -> int:
        """Requests to the interaction endpoints (callback, @original, follow-ups), exempt from it."""
        return sum(r.scope == INTERACTION_SCOPE for r in self.requests)

    @property
    def refused(self) -> list[CountedRequest]:
        return [r for r in self.requests if r.refused]

    def by_route(self, scope: str | None = None) -> Counter[str]:
        """{"POST /channels/{channel}/messages": n, ...}, of one scope or all."""
        return Counter(r.key for r in self.requests if scope in (None, r.scope))

    def __repr__(self) -> str:
        return (f"<RequestCounts global={self.global_requests} interaction={self.interaction_requests} "
                f"refused={[str(r) for r in self.refused]}>")


class GlobalLimiter:
    """Discord's global limit: at most `per_second` global-scope requests in any one-second window of `clock`
    (real time by default; a test that means "a burst within one second" holds the clock still, since a busy
    machine may take longer than a second to deliver the burst)."""

    def __init__(self, per_second: int = GLOBAL_LIMIT_PER_S, clock: Callable[[], float] = time.monotonic):
        self.per_second = per_second
        self.clock = clock
        self._accepted: deque[float] = deque()

    def retry_after(self) -> float:
        """0 if one more request may go now (and count it), else the seconds until one may."""
        now = self.clock()
        while self._accepted and now - self._accepted[0] >= 1.0:
            self._accepted.popleft()
        if len(self._accepted) < self.per_second:
            self._accepted.append(now)
            return 0.0
        return 1.0 - (now - self._accepted[0])
