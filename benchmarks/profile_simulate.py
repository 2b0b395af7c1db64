#!/usr/bin/env python3
"""Where a simulated Struggle game's time goes: a cProfile listing, or (``--split``) the CPU
time per game split into the bot's decisions, the legality check of each action and the rules'
automated steps, each broken down by decision kind and by rules procedure.

    python benchmarks/profile_simulate.py [--scenario 4] [--games 10] [--policy bot]
                                          [--sort tottime] [--rows 45] [--split]

Games are played as ``simulate`` plays them (seeds of a batch with ``--seed``, no log kept, the
player's own generator, ``Session.perform`` in place). The split's rate is CPU time (``time.process_time``,
steadier than wall time on a busy machine); its parts are timed with ``time.perf_counter``
around every call, which itself adds some 10-20% to the total: read the parts as shares.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.rng import Rng  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.games.struggle import bot, registry  # noqa: E402
from struggle_desktop.simulate import PLAYER_STREAM, game_seed  # noqa: E402


def play(game, scenario: str, games: int, seed: int, policy: str) -> int:
    """Play the games of a batch; returns the number of player actions."""
    actions = 0
    for k in range(games):
        gseed = game_seed(seed, k)
        session = Session.new(game, scenario, gseed, {}, record_digests=False, keep_log=False)
        rng = Rng.from_seed(gseed, stream=PLAYER_STREAM)
        while game.outcome(session.state) is None:
            action = game.choose_action(session.state, "imperial", policy, rng)
            session.perform("imperial", action, copy=False)
            actions += 1
    return actions


def timed(table: dict, name: str, fn):
    """``fn`` with its calls counted and its time added to ``table[name]``."""
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            entry = table.setdefault(name, [0, 0.0])
            entry[0] += 1
            entry[1] += time.perf_counter() - start
    return wrapper


def split(game, args) -> None:
    parts: dict = {}
    procedures: dict = {}
    decisions: dict = {}
    for name, fn in list(registry.PROCEDURES.items()):
        registry.PROCEDURES[name] = timed(procedures, name, fn)
    for kind, fn in list(bot.HANDLERS.items()):
        bot.HANDLERS[kind] = timed(decisions, kind, fn)
    for method in ("choose_action", "apply", "advance"):
        setattr(game, method, timed(parts, method, getattr(game, method)))
    start = time.process_time()
    actions = play(game, args.scenario, args.games, args.seed, args.policy)
    total = time.process_time() - start
    n = args.games
    print(f"scenario {args.scenario}, {args.policy}: {n / total:.2f} games/s (CPU), "
          f"{1000 * total / n:.1f} ms and {actions / n:.0f} actions per game")
    print("  " + ", ".join(f"{name} {1000 * t / n:.1f} ms" for name, (_c, t) in parts.items())
          + " per game (advance: the rules' automated steps; apply: the legality check)")
    for title, table in (("rules procedures", procedures), ("bot decisions", decisions)):
        print(f"{title} (ms per game, calls per game, us per call):")
        for name, (calls, t) in sorted(table.items(), key=lambda kv: -kv[1][1])[:args.rows]:
            print(f"  {name:20s} {1000 * t / n:7.2f} {calls / n:8.1f} {1e6 * t / calls:8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", default="4")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="bot")
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--rows", type=int, default=45)
    parser.add_argument("--split", action="store_true",
                        help="CPU time by part, rules procedure and decision kind")
    args = parser.parse_args()
    game = get_game("struggle")
    game.warm_up()   # loading the data is start-up, not play
    if args.split:
        split(game, args)
        return 0
    profile = cProfile.Profile()
    profile.enable()
    actions = play(game, args.scenario, args.games, args.seed, args.policy)
    profile.disable()
    print(f"{args.games} games, {actions} player actions")
    pstats.Stats(profile).sort_stats(args.sort).print_stats(args.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
