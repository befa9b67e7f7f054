"""`python -m tests.benchmarks.profiles DIR [N]`: the N (default 15) functions with the most own time
in each cProfile file that `python -m tests.benchmarks --profile DIR` wrote."""
from __future__ import annotations

import pstats
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    directory, count = Path(argv[0]), int(argv[1]) if len(argv) > 1 else 15
    for path in sorted(directory.glob("*.prof")):
        print(f"\n===== {path.name}")
        pstats.Stats(str(path), stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
