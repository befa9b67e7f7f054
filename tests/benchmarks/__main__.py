"""Tablero benchmarks: `python -m tests.benchmarks [--only PART ...] [--quick] [--game ID ...]`.

Parts (all by default, in this order):
  playouts  random-playout throughput of every ruleset: turns/s, actions/s, complete games/s (best of 5 runs)
  peers     Parcheesi next to ludopy, the pure-Python Ludo engine (if installed)
  render    render_png (board + PNG encoding) median / p95 ms, CPU ms per picture and PNG size, at the posted size
  e2e       200 games at once through the fake Discord against one `python -m bot` (--processes N: one
            per shard) on SQLite (--backend postgresql: PostgreSQL): moves/s, the p50 / p99 delay from an
            interaction's arrival to the bot's first response, the bot's CPU ms per move, the database's
            load per move; run twice, with players acting at once (closed loop: the bot's capacity) and
            at a human pace; --scrape S: each run twice, without the health and metrics listener and with
            it, /metrics fetched every S seconds (the listener's cost per move); the Discord requests per move,
            against the global limit or through interactions, by route (--place group-dm: the games in group
            DMs only interactions reach)
  memory    VmRSS of the bot per active game and per idle stored game loaded
  store     the store's move path alone (load the game, append the action and its snapshot): CPU ms of
            the bot process per move on SQLite and on PostgreSQL (TABLERO_TEST_POSTGRES, if reachable); and
            what finding a person's games costs (/game privacy, /game forget) among 100,000 on SQLite

Everything runs on this machine over loopback, bounded in count and time, and stops by itself
(`--quick`: a few seconds per part). Figures are printed, never asserted; docs/performance.md
records them with the machine. `--profile DIR` also writes cProfile stats: playouts-<game>.prof,
render-<game>.prof and bot-e2e.prof (the bot process during the closed-loop run), to read with
`python -m pstats` or `python -m tests.benchmarks.profiles DIR` (the closed-loop e2e figures are then
those of a profiled bot: slower).
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import sys
from functools import partial
from pathlib import Path

from tests.benchmarks import e2e, memory, peers, playouts, render, store
from tests.benchmarks.common import machine, rulesets

PARTS = ("playouts", "peers", "render", "e2e", "memory", "store")
# Parcheesi (Mundijeux) targets (docs/performance.md).
TARGETS = {"turns_per_s": 35_000, "render_median_ms": 10.0, "png_kb": 150.0, "ack_p99_ms": 150.0,
           "active_kb": 50.0, "postgresql_cpu_ratio": 1.2}


def _profiled(directory: Path | None, name: str, call):
    """call(); with a profile directory, then once more under cProfile (the figures stay unprofiled)."""
    result = call()
    if directory is not None:
        profile = cProfile.Profile()
        profile.runcall(call)
        profile.dump_stats(directory / f"{name}.prof")
    return result


def _mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def run_playouts(games: list[str], quick: bool, profile: Path | None) -> None:
    runs = 2 if quick else 5
    print(f"\n## Random playouts (every seat plays uniformly random legal moves), best of {runs} runs")
    print(f"{'game':<18}{'players':>8}{'turns/s':>10}{'median':>9}{'actions/s':>11}{'games/s':>9}{'turns/game':>11}"
          f"{'cut':>5}")
    for ruleset in rulesets(games):
        repeated = _profiled(profile, f"playouts-{ruleset.id}",
                             partial(playouts.best_of, ruleset, runs=runs, seconds=0.25 if quick else 1.0,
                                     max_games=10_000))
        f = repeated.best
        per_game = f.turns / max(1, f.games + f.abandoned)
        print(f"{f.game:<18}{f.players:>8}{f.turns_per_s:>10,.0f}{repeated.median_turns_per_s:>9,.0f}"
              f"{f.actions_per_s:>11,.0f}{f.games_per_s:>9.1f}{per_game:>11.0f}{f.abandoned:>5}")
        if f.game == "parcheesi":
            print(f"  target >= {TARGETS['turns_per_s']:,} turns/s (best run): "
                  f"{_mark(f.turns_per_s >= TARGETS['turns_per_s'])}")
    print("  (turns/s and the figures after it: the fastest run; median: of every run's turns/s;"
          " cut: games stopped unfinished after 20,000 actions)")


def run_peers(games: list[str], quick: bool, profile: Path | None) -> None:
    print("\n## Next to ludopy (pure-Python Ludo): random four-player games, one game of each in turn")
    if not peers.available():
        print("  ludopy is not installed: `pip install ludopy` to run this part")
        return
    f = peers.measure(seconds=2.0 if quick else 20.0)
    print(f"  {f.games} games each; Tablero parcheesi {f.ours_per_s:,.0f} turns/s; ludopy {f.ludopy_per_s:,.0f} "
          f"turns/s ({f.ludopy_rolls_per_s:,.0f} rolls/s)")
    print(f"  Tablero / ludopy: {f.ratio:.2f}x turn for turn (target 2x: {_mark(f.ratio >= 2)}), "
          f"{f.ratio_to_rolls:.2f}x our whole turns against its rolls")


def run_render(games: list[str], quick: bool, profile: Path | None) -> None:
    print("\n## render_png: board + PNG encoding, positions from random games")
    print(f"{'game':<18}{'size':>10}{'cold ms':>9}{'median ms':>11}{'p95 ms':>8}{'CPU ms':>8}{'PNG KB':>8}"
          f"{'max KB':>8}")
    for ruleset in rulesets(games):
        f = _profiled(profile, f"render-{ruleset.id}", partial(render.measure, ruleset, pictures=10 if quick else 200))
        print(f"{f.game:<18}{f'{f.size[0]}x{f.size[1]}':>10}{f.cold_ms:>9.0f}{f.median_ms:>11.1f}{f.p95_ms:>8.1f}"
              f"{f.cpu_median_ms:>8.1f}{f.median_kb:>8.0f}{f.max_kb:>8.0f}")
        ok = f.median_ms <= TARGETS["render_median_ms"] and f.max_kb <= TARGETS["png_kb"]
        print(f"  target median <= {TARGETS['render_median_ms']:.0f} ms, PNG <= {TARGETS['png_kb']:.0f} KB: "
              f"{_mark(ok)}")


def run_e2e(games: list[str], quick: bool, profile: Path | None, *, backend: str = "sqlite",
            processes: int = 1, pace: str = "both", scrape: float | None = None, place: str = "server",
            db_latency_ms: float | None = None) -> None:
    tables = 40 if quick else 200
    bots = "one `python -m bot`" if processes == 1 else f"{processes} `python -m bot` processes (one shard each)"
    where = "group DMs (only interactions reach them)" if place == "group-dm" else "server channels"
    reached = f" {db_latency_ms:g} ms a round trip away (latency proxy)" if db_latency_ms is not None else ""
    print(f"\n## End to end: {tables} games at once in {where}, fake Discord on loopback, {bots}, {backend}{reached}")
    paces = {"closed": (0.0, "closed loop (act at once)"), "human": (2.0 if quick else 10.0, "human pace")}
    for think, what in (paces.values() if pace == "both" else [paces[pace]]):
        bot_profile = ("cpu", profile / "bot-e2e.prof") if profile and not think else None
        without = None
        for scrape_s in ((None, scrape) if scrape else (None,)):
            f = e2e.measure(games, backend=backend, processes=processes, games=tables, moves=300 if quick else 4000,
                            seconds=10 if quick else 60, think=think, profile=bot_profile, scrape_s=scrape_s,
                            place=place, db_latency_s=None if db_latency_ms is None else db_latency_ms / 1000)
            _print_e2e(f, what, think)
            if scrape_s:
                _print_listener_cost(f, without)
            without = f


def _print_listener_cost(f: e2e.E2EFigures, without: e2e.E2EFigures | None) -> None:
    """The listener's cost per move: measured against the run without it, and computed from one scrape's CPU."""
    every = f"/metrics every {f.scrape_s:g} s ({f.scrapes} scrapes)"
    computed = f.scrape_cpu_ms * f.scrapes / max(1, f.moves)   # ms of scraping per move
    print(f"  listener, {every}: one scrape costs the bot {f.scrape_cpu_ms:.2f} ms of CPU, so "
          f"{computed:.3f} ms per move ({computed / f.cpu_ms_per_move:.2%} of its CPU per move)")
    if without is not None:
        change = f.cpu_ms_per_move / without.cpu_ms_per_move - 1
        print(f"  CPU per move with the listener {f.cpu_ms_per_move:.2f} ms, without {without.cpu_ms_per_move:.2f} ms: "
              f"{change:+.1%} (run-to-run noise included); "
              f"target <= 2 %: {_mark(computed / f.cpu_ms_per_move <= 0.02)}")


def _print_e2e(f: e2e.E2EFigures, what: str, think: float) -> None:
    think_text = f", think {think:.0f} s mean" if think else ""
    listener = f", listener on, /metrics every {f.scrape_s:g} s" if f.scrape_s else ""
    print(f"{what}{think_text}{listener}: {f.moves} moves in {f.seconds:.0f} s = {f.moves_per_s:.1f} moves/s; "
          f"{f.interactions} interactions, {f.finished} games finished")
    print(f"  first response: p50 {f.ack_p50_ms:.0f} ms, p99 {f.ack_p99_ms:.0f} ms, max {f.ack_max_ms:.0f} ms; "
          f"click to next board: p50 {f.board_p50_ms:.0f} ms, p99 {f.board_p99_ms:.0f} ms")
    print(f"  CPU: bot {f.bot_cpu:.0%} of a core ({f.cpu_ms_per_move:.1f} ms per move), fake Discord + players "
          f"{f.driver_cpu:.0%}; stuck tables {f.stuck}, refused {f.refused}, boards edited out of place {f.misplaced}")
    print("  database per move: " + ", ".join(f"{value:,.1f} {key}" for key, value in
                                              {**f.database, **f.db_exchanges}.items()))
    if f.db_statements:
        print("  statements per move: " + ", ".join(f"{n:.2f} {kind}" for kind, n in f.db_statements.items()))
    print(f"  Discord requests per move: {f.requests['global']:.3f} against the global limit, "
          f"{f.requests['interaction']:.3f} through interactions (exempt); by route:")
    for route, per_move in f.routes.items():
        print(f"    {route:<58}{per_move:>7.3f}  ({e2e.limit_of(route.split(' ', 1)[1])})")
    for game, (moves, p50, p99) in f.per_game.items():
        print(f"    {game:<18}{moves:>6} moves   first response p50 {p50:>5.0f} ms  p99 {p99:>5.0f} ms")
    for error in f.errors[:5]:
        print(f"  ! {error}")
    print(f"  target p99 <= {TARGETS['ack_p99_ms']:.0f} ms: {_mark(f.ack_p99_ms <= TARGETS['ack_p99_ms'])}")


def run_memory(games: list[str], quick: bool, profile: Path | None) -> None:
    f = asyncio.run(memory.run(games, games=40 if quick else 200, settle=20 if quick else 100,
                               moves=5 if quick else 10))
    print(f"\n## Memory of the bot process (VmRSS), {f.settle} + {f.games} games of {f.moves} moves")
    ok = f.active_kb_per_game <= TARGETS["active_kb"]
    print(f"  after warm-up {f.base_kb / 1024:.0f} MiB; {f.settle_kb_per_game:.0f} KiB per game over the first "
          f"{f.settle}; "
          f"per active game {f.active_kb_per_game:.0f} KiB over the next {f.games} (steady state; target <= "
          f"{TARGETS['active_kb']:.0f}: {_mark(ok)})")
    print(f"  after a restart {f.idle_base_kb / 1024:.0f} MiB; "
          f"per idle stored game loaded {f.idle_kb_per_game:.1f} KiB")


def run_store(games: list[str], quick: bool, profile: Path | None) -> None:
    moves, runs = (200, 1) if quick else (3000, 3)
    privacy = store.run_privacy(2000 if quick else 100_000, runs)
    print(f"\n## A person's games found (SQLite, {privacy.games} games, best of {runs})")
    print(f"  /game privacy CPU {privacy.cpu_ms_per_ask:.1f} ms per ask, /game forget's read "
          f"{privacy.cpu_ms_per_read:.1f} ms")
    print(f"\n## The store's move path (open_game + append_action), {moves} moves over 20 games, best of {runs}")
    figures, unmeasured = store.run(moves, runs)
    for f in figures:
        print(f"  {f.backend:<18} CPU {f.cpu_ms_per_move:.3f} ms per move (bot process), "
              f"wall {f.wall_ms_per_move:.3f} ms")
    if unmeasured:
        print(f"  {unmeasured}")
        return
    cpu = {f.backend: f.cpu_ms_per_move for f in figures}
    ratio = cpu["postgresql"] / cpu["sqlite"]
    print(f"  PostgreSQL / SQLite CPU: {ratio:.2f} (target <= {TARGETS['postgresql_cpu_ratio']:.1f} in the whole bot; "
          f"here the store alone: {_mark(ratio <= TARGETS['postgresql_cpu_ratio'])})")


RUNNERS = {"playouts": run_playouts, "peers": run_peers, "render": run_render, "e2e": run_e2e, "memory": run_memory,
           "store": run_store}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks", description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", choices=PARTS, help="run only this part (repeatable)")
    parser.add_argument("--game", action="append", help="only this ruleset (repeatable; default: all)")
    parser.add_argument("--quick", action="store_true", help="tiny counts: a smoke run of every part")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="write cProfile stats to DIR")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite",
                        help="e2e: the bot's database (postgresql: a scratch database on TABLERO_TEST_POSTGRES)")
    parser.add_argument("--processes", type=int, default=1, help="e2e: bot processes, one shard each (default 1)")
    parser.add_argument("--pace", choices=("both", "closed", "human"), default="both",
                        help="e2e: the closed loop, the human pace, or both (default)")
    parser.add_argument("--scrape", type=float, metavar="S",
                        help="e2e: run each pace again with the listener on, /metrics fetched every S seconds")
    parser.add_argument("--place", choices=("server", "group-dm"), default="server",
                        help="e2e: games in server channels (default) or in group DMs where one player installed "
                             "the app")
    parser.add_argument("--db-latency", type=float, metavar="MS",
                        help="e2e on postgresql: reach the database through a loopback proxy adding MS "
                             "milliseconds a round trip, which counts round trips and statements per move")
    args = parser.parse_args(argv)
    if args.db_latency is not None and args.backend != "postgresql":
        parser.error("--db-latency needs --backend postgresql")
    logging.basicConfig(level=logging.ERROR)
    games = [r.id for r in rulesets(args.game)]
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    print(f"# Tablero benchmarks{' (quick)' if args.quick else ''}: {machine()}")
    runners = {**RUNNERS, "e2e": partial(run_e2e, backend=args.backend, processes=args.processes,
                                             pace=args.pace, scrape=args.scrape, place=args.place,
                                             db_latency_ms=args.db_latency)}
    for part in args.only or PARTS:
        runners[part](games, args.quick, args.profile)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
