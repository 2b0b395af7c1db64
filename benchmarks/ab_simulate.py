#!/usr/bin/env python3
"""Compare the simulation speed of two checkouts of the program, game by game.

    python benchmarks/ab_simulate.py TREE_A TREE_B [--games 40] [--scenarios 1234567]
                                     [--policy bot] [--rounds 1]

Each tree runs in a worker process of its own (data loaded first); the two workers play the
same games of a batch (``simulate``'s seeds) one at a time, alternately, and the CPU time
of every game is added up per tree. Alternating game by game keeps a machine whose speed
drifts (other work, a busy second core) from favouring the tree measured first, which whole
runs one after the other do not: on a shared 2-core machine they often differ by 10% between
two runs of the same tree. Make a tree with ``git worktree add /tmp/base <commit>``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from struggle_desktop.games import get_game
from struggle_desktop.simulate import run_one
game = get_game("struggle")
game.warm_up()
for line in sys.stdin:
    scenario, k, policy = json.loads(line)
    start = time.process_time()
    result = run_one(game, scenario, 1, k, {}, policy)
    print(json.dumps([time.process_time() - start, result.digest]), flush=True)
"""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree_a")
    parser.add_argument("tree_b")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--scenarios", default="1234567")
    parser.add_argument("--policy", default="bot")
    parser.add_argument("--rounds", type=int, default=1, help="batches per scenario")
    args = parser.parse_args()
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, tree], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
               for tree in (args.tree_a, args.tree_b)]

    def play(worker, scenario: str, k: int) -> tuple[float, str]:
        worker.stdin.write(json.dumps([scenario, k, args.policy]) + "\n")
        worker.stdin.flush()
        seconds, digest = json.loads(worker.stdout.readline())
        return seconds, digest

    print(f"{'scenario':>8} {'A cpu g/s':>10} {'B cpu g/s':>10} {'B/A':>6} {'same games':>11}"
          f"   ({args.games} games x {args.rounds}, policy {args.policy})")
    for scenario in args.scenarios:
        spent = [0.0, 0.0]
        same = True
        for k in range(args.games * args.rounds):
            order = (0, 1) if k % 2 == 0 else (1, 0)   # who goes first alternates too
            digests = {}
            for w in order:
                seconds, digests[w] = play(workers[w], scenario, k % args.games)
                spent[w] += seconds
            same = same and digests[0] == digests[1]
        n = args.games * args.rounds
        print(f"{scenario:>8} {n / spent[0]:>10.2f} {n / spent[1]:>10.2f} "
              f"{spent[0] / spent[1]:>6.2f} {'yes' if same else 'NO':>11}", flush=True)
    for worker in workers:
        worker.stdin.close()
        worker.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
