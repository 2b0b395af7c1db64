#!/usr/bin/env python3
"""Write the golden games: a few fixed games saved for tests/games/<game>/test_golden.py.

    python tools/make_golden_saves.py                  # rewrite tests/games/struggle/golden/
    python tools/make_golden_saves.py --game battles   # rewrite tests/games/battles/golden/
    python tools/make_golden_saves.py --game nobles    # rewrite tests/games/nobles/golden/
    python tools/make_golden_saves.py --check          # would a rewrite change anything?

Each game in GOLDEN_GAMES is played from its seed by the program's own player (the Imperial bot
or uniform random play, with the player generator ``Rng.from_seed(seed, stream=99)``), stopped
where its ``stop`` says, and written with ``Session.save`` to ``golden/<name>.json``.
``golden/digests.json`` pins, for every file, the digest of its final position, its action
count, where it stopped, and the ``RULES_VERSION`` it was made with.

The golden test replays every file and fails when a digest changes. Run this tool only after a
deliberate change of the rules or tables, together with a bump of ``RULES_VERSION`` in
``struggle_desktop/games/<game>/game.py`` (old saves of players then report that the rules
changed instead of silently replaying differently). Table overrides in the user's config folder
are never used: the tool runs with a private, empty user folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A private user folder before the game loads its data: no user table overrides, ever.
os.environ["STRUGGLE_DESKTOP_HOME"] = tempfile.mkdtemp(prefix="golden-home-")

from struggle_desktop.engine.rng import Rng  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402

DIGESTS = "digests.json"
COMMAND = "python tools/make_golden_saves.py"
GAME = get_game("struggle")     # the game being written (main() sets it from --game)

#: name -> how the game is played and where it stops. ``stop`` is "end" (the game is over),
#: {"actions": N} (after N decisions), or "phase1-prompt" (the first Chaos Events prompt, Phase
#: 1, from turn ``min_turn`` on: saved with that prompt waiting).
GOLDEN_GAMES: dict[str, dict] = {
    "s3-bot-seed11": {"scenario": "3", "options": {}, "seed": 11, "policy": "bot",
                      "stop": "end"},
    "s4-all-bot-seed5": {"scenario": "4", "options": {"all": "on"}, "seed": 5, "policy": "bot",
                         "stop": "end"},
    "s7-base2-random-seed3-mid": {"scenario": "7", "options": {"base": "2"}, "seed": 3,
                                  "policy": "random", "stop": {"actions": 70}},
    "s1-bot-seed1-phase1-prompt": {"scenario": "1", "options": {}, "seed": 1, "policy": "bot",
                                   "stop": "phase1-prompt", "min_turn": 2},
}

#: Battles: whole games of both scenarios (with every optional rule in one), and a game saved
#: while Blue's secret deployment waits after Red has made its plan.
BATTLES_GOLDEN_GAMES: dict[str, dict] = {
    "civil-war-bot-seed3": {"scenario": "civil-war", "options": {}, "seed": 3, "policy": "bot",
                            "stop": "end"},
    "invasion-all-bot-seed4": {"scenario": "invasion", "options": {"all": "on"}, "seed": 4,
                               "policy": "bot", "stop": "end"},
    "civil-war-bot-seed5-secret": {"scenario": "civil-war", "options": {}, "seed": 5,
                                   "policy": "bot", "stop": "secret-deploy", "min_turn": 2},
}
#: Noble Houses: a short two-house game to its turn limit, a four-house game of random play
#: stopped in the middle, and a three-house game saved while a house's nuclear launch waits
#: after another house in the hex has declared its own in secret (NH-SIM-2).
NOBLES_GOLDEN_GAMES: dict[str, dict] = {
    "h2-bot-seed3-limit6": {"scenario": "standard", "options": {"houses": 2, "turn_limit": 6},
                            "seed": 3, "policy": "bot", "stop": "end"},
    "h4-random-seed4-mid": {"scenario": "standard", "options": {"houses": 4, "turn_limit": 30},
                            "seed": 4, "policy": "random", "stop": {"actions": 400}},
    "h3-bot-seed1-hidden-launch": {"scenario": "standard",
                                   "options": {"houses": 3, "turn_limit": 30}, "seed": 1,
                                   "policy": "bot", "stop": "hidden-launch"},
}
GOLDEN_SETS = {"struggle": GOLDEN_GAMES, "battles": BATTLES_GOLDEN_GAMES,
               "nobles": NOBLES_GOLDEN_GAMES}

#: No golden game may run longer than this: a runaway bot is a bug, not a golden game.
MAX_ACTIONS = 5_000


def stopped(session: Session, spec: dict) -> bool:
    state = session.state
    if GAME.outcome(state) is not None:
        return True
    stop = spec["stop"]
    if stop == "end":
        return False
    if stop == "phase1-prompt":
        return (state["phase"] == 1 and state["turn"] >= spec.get("min_turn", 1)
                and state["pending"]["kind"].startswith("event_"))
    if stop == "secret-deploy":
        return (state["turn"] >= spec.get("min_turn", 1) and state["pending"]["kind"] == "deploy"
                and state["pending"]["role"] == "blue" and bool(state["players"]["red"]["deploy"]))
    if stop == "hidden-launch":
        exchange = state.get("exchange")
        return (state["pending"]["kind"] == "launch" and bool(exchange)
                and bool(exchange["committed"])
                and state["pending"]["role"] not in exchange["committed"])
    return len(session.actions) >= stop["actions"]


def play(spec: dict) -> Session:
    """The golden game of ``spec``, played to its stop."""
    session = Session.new(GAME, spec["scenario"], spec["seed"], spec["options"])
    rng = Rng.from_seed(spec["seed"], stream=99)
    while not stopped(session, spec):
        if len(session.actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{spec}: no stop after {MAX_ACTIONS} actions")
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, spec["policy"], rng),
                        copy=False)
    if spec["stop"] in ("phase1-prompt", "secret-deploy", "hidden-launch") and GAME.outcome(
            session.state):
        raise RuntimeError(f"{spec}: the game ended before its {spec['stop']} stop")
    if isinstance(spec["stop"], dict) and GAME.outcome(session.state) is not None:
        raise RuntimeError(f"{spec}: the game ended before {spec['stop']['actions']} actions")
    return session


def record(name: str, spec: dict, session: Session) -> dict:
    """What digests.json pins for one golden file."""
    state = session.state
    outcome = GAME.outcome(state)
    return {**spec, "file": f"{name}.json", "actions": len(session.actions),
            "digest": GAME.digest(state), "turn": state["turn"], "phase": state["phase"],
            "pending": state["pending"]["kind"] if state["pending"] else None,
            "outcome": outcome["result"] if outcome else None}


def build(games: dict[str, dict]) -> tuple[dict, dict[str, Session]]:
    if GAME.overrides():
        raise RuntimeError("table overrides are active: golden games use the shipped tables")
    sessions = {name: play(spec) for name, spec in games.items()}
    command = COMMAND + ("" if GAME.id == "struggle" else f" --game {GAME.id}")
    pins = {"rules_version": GAME.rules_version, "data_digest": GAME.data_digest(),
            "regenerate": command,
            "games": {name: record(name, games[name], s) for name, s in sessions.items()}}
    return pins, sessions


def main(argv: list[str] | None = None) -> int:
    global GAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="struggle", choices=sorted(GOLDEN_SETS))
    parser.add_argument("--out", type=Path, default=None,
                        help="folder to write (default tests/games/<game>/golden)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the stored digests.json; write nothing")
    args = parser.parse_args(argv)
    GAME = get_game(args.game)
    args.out = args.out or ROOT / "tests" / "games" / args.game / "golden"
    games = GOLDEN_SETS[args.game]
    pins, sessions = build(games)
    if args.check:
        try:
            stored = json.loads((args.out / DIGESTS).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"error: cannot read {args.out / DIGESTS}: {exc}", file=sys.stderr)
            return 2
        changed = [name for name, rec in pins["games"].items()
                   if stored.get("games", {}).get(name) != rec]
        if stored.get("rules_version") != pins["rules_version"]:
            changed.append(f"rules_version {stored.get('rules_version')} -> "
                           f"{pins['rules_version']}")
        for line in changed:
            print(f"differs: {line}")
        print("golden games up to date" if not changed else f"run {pins['regenerate']} to rewrite them")
        return 1 if changed else 0

    args.out.mkdir(parents=True, exist_ok=True)
    wanted = {f"{name}.json" for name in games} | {DIGESTS}
    for old in args.out.glob("*.json"):
        if old.name not in wanted:
            old.unlink()
    total = 0
    for name, session in sessions.items():
        path = args.out / f"{name}.json"
        session.save(path)
        rec = pins["games"][name]
        size = path.stat().st_size
        total += size
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
              f"{rec['actions']} actions, turn {rec['turn']} phase {rec['phase']}, "
              f"{rec['outcome'] or 'pending ' + str(rec['pending'])}, {size // 1024} KiB, "
              f"digest {rec['digest'][:16]}")
    (args.out / DIGESTS).write_text(json.dumps(pins, indent=2, sort_keys=True) + "\n",
                                    encoding="utf-8")
    print(f"{len(sessions)} golden games, {total // 1024} KiB in all, "
          f"rules {pins['rules_version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
