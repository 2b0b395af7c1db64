"""Golden games (ARCHITECTURE.md section 8): stored saves whose replay must not change.

``golden/*.json`` are real save files of a few fixed games (scenario 3 played to the end by the
bot; scenario 4 with every optional rule, to the end; scenario 7 on base scenario 2 with random
play, stopped mid-game; scenario 1 stopped while a Chaos Events prompt of Phase 1 waits), and
``golden/digests.json`` pins the digest of each one's final position (its ``data_digest`` is
only a note of the tables used: a table edit that changes no golden game needs no rewrite).
Loading a file replays its actions from the seed; the replayed position must equal the pinned
digest and every digest the save recorded along the way, and ``struggle-desktop verify`` must
accept it.

When one of these tests fails, the games no longer replay as they did: a rules or table
change altered the dice or the positions. If that change is deliberate:

1. bump ``RULES_VERSION`` in ``struggle_desktop/games/struggle/game.py`` (players' old saves
   then say the rules changed, instead of silently replaying differently), and
2. run ``python tools/make_golden_saves.py`` and commit the rewritten ``golden/`` folder
   (``python tools/make_golden_saves.py --check`` only reports what differs).

If the change was not meant to alter any game, it is a bug: find it, do not regenerate.

Rules: SGE-DICE-10 (one seeded generator in the state: replays and golden games are
bit-exact), SGE-SEQ-21 (the games start from the set-up placement prompt, saved like any
other).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from struggle_desktop import cli
from struggle_desktop.engine import saves
from struggle_desktop.engine.session import Session
from struggle_desktop.games.struggle import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
PINS = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))
NAMES = sorted(PINS["games"])
REGENERATE = ("if the rules changed on purpose, bump RULES_VERSION in "
              "struggle_desktop/games/struggle/game.py and run python tools/make_golden_saves.py")


def path_of(name: str) -> Path:
    return GOLDEN / PINS["games"][name]["file"]


def test_every_golden_file_is_pinned_and_small():
    files = sorted(p.name for p in GOLDEN.glob("*.json") if p.name != "digests.json")
    assert files == sorted(PINS["games"][n]["file"] for n in NAMES)
    assert len(NAMES) >= 4
    total = sum((GOLDEN / f).stat().st_size for f in files)
    assert total < 1_000_000, f"golden saves take {total} bytes"


def test_the_golden_files_match_the_rules_version():
    """A RULES_VERSION bump must come with regenerated golden games (and the other way)."""
    assert PINS["rules_version"] == GAME.rules_version, REGENERATE
    for name in NAMES:
        assert saves.read_document(path_of(name))["rules_version"] == GAME.rules_version, name


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_game_replays_to_its_pinned_digests(name):
    """SGE-DICE-10, SGE-SEQ-21: the replay gives the pinned final position and every digest
    recorded in the save, and the loaded game is where the save says it stopped."""
    pin = PINS["games"][name]
    path = path_of(name)
    before = path.read_bytes()
    document = saves.read_document(path)
    assert (document["game"], document["scenario"], document["seed"], document["options"]) == \
        ("struggle", pin["scenario"], pin["seed"], pin["options"])
    assert len(document["actions"]) == pin["actions"]
    recorded = {d["after"]: d["digest"] for d in document["digests"]}
    assert recorded[pin["actions"]] == pin["digest"], "the save's last digest is the pinned one"
    assert len(recorded) >= 2, "periodic digests along the way, not only the last one"

    try:
        session, report = Session.load({"struggle": GAME}, path)
    except Exception as exc:   # a SaveError says where the replay went astray
        pytest.fail(f"{path.name} no longer replays: {exc}; {REGENERATE}")
    changed = " (the tables changed since)" if report.data_changed else ""
    assert report.ok and report.checked == len(recorded), report.message + changed
    assert GAME.digest(session.state) == pin["digest"], REGENERATE + changed
    assert GAME.digest(document["snapshot"]) == pin["digest"], "stored snapshot"
    assert session.actions == document["actions"]

    state = session.state
    outcome = GAME.outcome(state)
    assert (outcome["result"] if outcome else None) == pin["outcome"]
    assert (state["turn"], state["phase"]) == (pin["turn"], pin["phase"])
    assert (state["pending"]["kind"] if state["pending"] else None) == pin["pending"]
    assert not GAME.invariants(state)
    assert path.read_bytes() == before, "loading never writes the file"


@pytest.mark.parametrize("name", NAMES)
def test_verify_accepts_a_golden_game(name, capsys):
    path = path_of(name)
    assert cli.main(["verify", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["snapshot_matches"], report["message"]
    assert report["checked"] == len(saves.read_document(path)["digests"])


def test_the_golden_set_covers_what_it_promises():
    """Whole games with options off and all on, random play stopped mid-game in Sweep of
    Empire, and a save made while a Phase 1 (Chaos Events) prompt waits."""
    pins = list(PINS["games"].values())
    assert any(p["outcome"] and p["options"] == {} for p in pins)
    assert any(p["outcome"] and p["options"].get("all") == "on" for p in pins)
    assert any(p["scenario"] == "7" and p["policy"] == "random" and p["outcome"] is None
               for p in pins)
    phase1 = [p for p in pins if p["stop"] == "phase1-prompt"]
    assert phase1 and all(p["phase"] == 1 and p["pending"].startswith("event_") for p in phase1)


def test_the_phase1_golden_game_takes_every_answer():
    """Saved while a Chaos Events prompt waits: loaded, it accepts each of the prompt's legal
    answers and plays on."""
    name = next(n for n in NAMES if PINS["games"][n]["stop"] == "phase1-prompt")
    session, _ = Session.load({"struggle": GAME}, path_of(name))
    assert any(f["proc"] == "phase1" for f in session.state["stack"])
    legal = GAME.legal_actions(session.state, "imperial")
    assert legal
    for action in legal:
        state = GAME.advance(GAME.apply(session.state, "imperial", action, copy=True))
        assert not GAME.invariants(state)
    assert GAME.digest(session.state) == PINS["games"][name]["digest"]
