"""The optional HTTP listener (TABLERO_HTTP=host:port, off by default): GET /healthz answers 200 while the
process is healthy (bot/operations/health.py), else 503 with the reasons, each as one line of JSON; GET /metrics
serves prometheus_client's registry (bot/core/metrics.py, and the process's CPU and memory) in Prometheus' text
format. Bind it to 127.0.0.1 unless a scraper elsewhere needs it: it needs no secret and shows none."""
from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.operations.health import Health

log = logging.getLogger(__name__)


class CannotListen(Exception):
    def __init__(self, address: str, reason: str):
        super().__init__(address, reason)
        self.address, self.reason = address, reason


class Listener:
    """`before_scrape()` refreshes what is read from elsewhere (the games' gauges) before /metrics answers."""

    def __init__(self, host: str, port: int, health: Health, before_scrape: Callable[[], Awaitable[None]]):
        self.host, self.port = host, port
        self._health, self._before_scrape = health, before_scrape
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)   # a scrape every few seconds is no news
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as error:   # the port taken, the address not this machine's
            await self._runner.cleanup()
            raise CannotListen(f"{self.host}:{self.port}", error.strerror or str(error)) from error
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        problems = await self._health.problems()
        if problems:
            return web.Response(status=503, text=json.dumps({"healthy": False, "reason": "; ".join(problems)}) + "\n",
                                content_type="application/json")
        return web.Response(text=json.dumps({"healthy": True}) + "\n", content_type="application/json")

    async def _metrics(self, request: web.Request) -> web.Response:
        await self._before_scrape()
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})
