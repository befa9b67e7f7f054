"""`python -m tests.benchmarks.profiled_bot cpu|memory OUT`: `python -m bot` under a profiler.

cpu: cProfile, stats written to OUT (read them with pstats); memory: tracemalloc, the 40 biggest
allocation sites still alive written to OUT as text. Written when the process is told to stop
(SIGTERM), then it exits.
"""
from __future__ import annotations

import cProfile
import os
import signal
import sys
import tracemalloc
from pathlib import Path

from bot.__main__ import main


def _memory_report(out: str) -> None:
    snapshot = tracemalloc.take_snapshot()
    top = snapshot.statistics("traceback")[:40]
    lines = [f"{s.size / 1024:.0f} KiB in {s.count} blocks\n  " + "\n  ".join(s.traceback.format(limit=6))
             for s in top]
    Path(out).write_text("\n".join(lines))


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    profile = cProfile.Profile()

    def stop(*_: object) -> None:
        if kind == "cpu":
            profile.disable()
            profile.dump_stats(out)
        else:
            _memory_report(out)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    if kind == "cpu":
        profile.enable()
    else:
        tracemalloc.start(6)
    main([])
