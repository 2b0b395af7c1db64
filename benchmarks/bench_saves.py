#!/usr/bin/env python3
"""Save and load (replay and verify) of a finished 10-turn game (budget: <= 100 ms each).

    python benchmarks/bench_saves.py [--game struggle|nobles] [--scenario S] [--seed 3]
                                     [--repeat 5]

Struggle (the default, scenario 4): the bot plays the Empire until the game ends. Noble
Houses (scenario ``standard``): four houses, every seat the program's as ``simulate`` seats it
(``program_options``), and a 10-turn limit. The game is played once; then it is saved and
loaded ``--repeat`` times and the median of each is printed. A load reads the file, replays
every action and checks the recorded digests (``Session.load``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.rng import Rng  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import PLAYER_STREAM, program_options  # noqa: E402

#: The Noble Houses game measured: four program houses, stopped after 10 turns.
NOBLES_OPTIONS = {"houses": 4, "turn_limit": 10}


def play_struggle(game, scenario: str, seed: int) -> Session:
    """A Struggle game, the bot playing the Empire until it ends."""
    session = Session.new(game, scenario, seed, {})
    rng = Rng.from_seed(seed, stream=99)
    while game.outcome(session.state) is None:
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot", rng))
    return session


def play_nobles(game, scenario: str, seed: int) -> Session:
    """A Noble Houses game, the program playing every house until the turn limit ends it."""
    session = Session.new(game, scenario, seed, program_options(game, NOBLES_OPTIONS))
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    while game.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        session.perform(role, game.choose_action(session.state, role, "bot", rng))
    return session


GAMES = {"struggle": ("4", play_struggle), "nobles": ("standard", play_nobles)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(GAMES), default="struggle")
    parser.add_argument("--scenario", default=None,
                        help="default: 4 for struggle, standard for nobles")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    default_scenario, play = GAMES[args.game]
    scenario = args.scenario or default_scenario
    game = get_game(args.game)
    game.data_digest()
    session = play(game, scenario, args.seed)
    turns = session.state["turn"]
    saves, loads = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        for _ in range(args.repeat):
            t = time.perf_counter()
            session.save(path)
            saves.append(time.perf_counter() - t)
            t = time.perf_counter()
            Session.load({args.game: game}, path)
            loads.append(time.perf_counter() - t)
        size = path.stat().st_size
    label = f"scenario {scenario}" if args.game == "struggle" else f"{args.game} {scenario}"
    print(f"{label}: {turns} turns, {len(session.actions)} actions, {size / 1024:.0f} KiB")
    print(f"save: median {statistics.median(saves) * 1000:.1f} ms")
    print(f"load (replay + digest checks): median {statistics.median(loads) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
