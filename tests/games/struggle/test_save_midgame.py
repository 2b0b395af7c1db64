"""Saving in the middle of the Chaos Events phase, and damaged saves on the command line.

A game is saved while a Phase 1 prompt waits (the first Suppression prompt the bot meets from
turn 2 on, scenario 1 with every optional rule: a chaos event marker has been drawn and waits,
unresolved, for the player's choice): the procedure stack then holds the Phase 1 frame with the
marker being resolved. The file loads, ``struggle-desktop
verify`` accepts it, every answer the prompt offers is accepted after loading, and the loaded
game, played on by the bot with the same player generator, ends exactly like the game played
straight through; the finished game verifies too.

Damaged copies of that save (truncated, bytes flipped in the action list, another or an
unknown game, an unknown scenario or option, a hand-edited digest) make ``verify`` exit 2 with
one ``error:`` line, or 1 with one "verification failed" line when the file is readable but
does not replay; never a traceback, and the damaged file is left byte for byte as it was.
Cases ``tests/test_cli.py`` already covers (tiny or foreign files, a save of the ``battles``
game, the last action or last digest or the snapshot edited) are not repeated.

Rules: SGE-DICE-10 (the generator's state is saved with the game: a game resumed mid-phase
rolls the same dice), SGE-SUP-2 (the Suppression choice between a marker's reveal and its
resolution: saved, loaded, and both answers taken).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from struggle_desktop import cli
from struggle_desktop.engine import saves
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import DIGEST_EVERY, Session
from struggle_desktop.games.struggle import GAME

SCENARIO, OPTIONS = "1", {"all": "on"}
WANTED = ("event_suppression",)
MAX_SEEDS = 30


def bot_turn(session: Session, rng: Rng) -> None:
    role = session.state["pending"]["role"]
    session.perform(role, GAME.choose_action(session.state, role, "bot", rng), copy=False)


def find_phase1_prompt() -> tuple[int, Session, Rng]:
    """The first seed whose bot game meets a wanted Phase 1 prompt from turn 2 on, after more
    than DIGEST_EVERY actions (so the save holds a periodic digest): the seed, the session
    stopped there, and the player generator at that point."""
    for seed in range(MAX_SEEDS):
        session = Session.new(GAME, SCENARIO, seed, OPTIONS)
        rng = Rng.from_seed(seed, stream=99)
        while GAME.outcome(session.state) is None:
            state = session.state
            if (state["phase"] == 1 and state["turn"] >= 2
                    and len(session.actions) > DIGEST_EVERY
                    and state["pending"]["kind"] in WANTED):
                return seed, session, rng
            bot_turn(session, rng)
    pytest.fail(f"no bot game of scenario {SCENARIO} met one of {WANTED} in {MAX_SEEDS} seeds")


@pytest.fixture(scope="module")
def midgame(tmp_path_factory):
    """(save path, the saved document, the player generator's state at the save, and the
    session played on from there to the end by the bot)."""
    seed, session, rng = find_phase1_prompt()
    path = tmp_path_factory.mktemp("midgame") / "phase1.json"
    session.save(path)
    at_save = json.loads(json.dumps(session.to_document()))
    generator = rng.to_json()
    while GAME.outcome(session.state) is None:
        bot_turn(session, rng)
    return path, at_save, generator, session


def verify(capsys, path: Path) -> tuple[int, str, str]:
    code = cli.main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def fingerprint(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


# ------------------------------------------------------------------------------ saved mid-phase
def test_saved_while_a_phase1_prompt_waits(midgame):
    path, at_save, _, _ = midgame
    state = at_save["snapshot"]
    assert state["phase"] == 1 and state["turn"] >= 2 and GAME.outcome(state) is None
    assert state["pending"]["kind"] in WANTED
    phase1 = [f for f in state["stack"] if f["proc"] == "phase1"]
    assert phase1 and phase1[0].get("ev"), "the marker being resolved is saved with the game"
    assert saves.read_document(path) == at_save


def test_the_midphase_save_verifies(midgame, capsys):
    path, at_save, _, _ = midgame
    before = fingerprint(path)
    assert cli.main(["verify", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert err == "" and report["ok"] and report["snapshot_matches"]
    assert report["actions"] == len(at_save["actions"])
    assert report["checked"] == len(at_save["digests"]) >= 2
    assert fingerprint(path) == before


def test_every_answer_to_the_waiting_prompt_works_after_loading(midgame):
    """SGE-SUP-2: the loaded game and the saved one take each legal answer (suppress or not)
    to the same position."""
    path, at_save, _, _ = midgame
    loaded, report = Session.load({"struggle": GAME}, path)
    assert report.ok
    assert loaded.state == at_save["snapshot"]
    legal = GAME.legal_actions(loaded.state, "imperial")
    assert legal == GAME.legal_actions(at_save["snapshot"], "imperial") and len(legal) >= 2
    for action in legal:
        a = GAME.advance(GAME.apply(loaded.state, "imperial", action, copy=True))
        b = GAME.advance(GAME.apply(at_save["snapshot"], "imperial", action, copy=True))
        assert GAME.digest(a) == GAME.digest(b)
        assert not GAME.invariants(a)


def test_the_loaded_game_plays_on_to_the_same_end(midgame, capsys, tmp_path):
    """SGE-DICE-10: resumed mid-phase, the same actions give the same dice and the same end."""
    path, at_save, generator, straight = midgame
    loaded, _ = Session.load({"struggle": GAME}, path)
    rng = Rng.from_json(generator)
    while GAME.outcome(loaded.state) is None:
        assert len(loaded.actions) <= len(straight.actions), "the loaded game runs longer"
        bot_turn(loaded, rng)
    assert loaded.actions == straight.actions
    assert GAME.digest(loaded.state) == GAME.digest(straight.state)
    assert loaded.state == straight.state
    assert GAME.outcome(loaded.state) == GAME.outcome(straight.state)
    final = tmp_path / "final.json"
    loaded.save(final)
    assert json.loads(final.read_text()) == json.loads(json.dumps(straight.to_document()))
    assert verify(capsys, final)[0] == 0


# ------------------------------------------------------------------------------ damaged saves
def damaged(path: Path, tmp_path: Path, raw: bytes, name: str = "damaged.json") -> Path:
    target = tmp_path / name
    target.write_bytes(raw)
    os.utime(target, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
    return target


def edited(path: Path, tmp_path: Path, change) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    return damaged(path, tmp_path, json.dumps(document).encode())


def bad_input(capsys, path: Path, *expected: str) -> str:
    """verify exits 2 with one error: line naming the problem; the file is untouched."""
    before = fingerprint(path)
    code, out, err = verify(capsys, path)
    assert code == 2, (code, out, err)
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("error:"), err
    for text in expected:
        assert text in err, err
    assert fingerprint(path) == before, "the damaged file was modified"
    return err


def fails_verification(capsys, path: Path, *expected: str) -> str:
    """verify exits 1 with one "verification failed" line; the file is untouched."""
    before = fingerprint(path)
    code, out, err = verify(capsys, path)
    assert code == 1, (code, out, err)
    assert err == "" and len(out.splitlines()) == 1 and "verification failed" in out, out
    for text in expected:
        assert text in out, out
    assert fingerprint(path) == before, "the damaged file was modified"
    return out


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9, 0.999])
def test_a_truncated_save(midgame, capsys, tmp_path, keep):
    path = midgame[0]
    raw = path.read_bytes()
    target = damaged(path, tmp_path, raw[: int(len(raw) * keep)])
    bad_input(capsys, target, str(target), "damaged, truncated or not JSON")


def actions_span(raw: bytes) -> tuple[int, int]:
    """Where the action list lies in a save's bytes (saves are compact, keys sorted)."""
    start = raw.index(b'"actions":[') + len(b'"actions":[')
    end = raw.index(b'],"app_version"', start)
    assert end - start > 100
    return start, end


def flip_bytes(raw: bytes, seed: int, json_safe: bool) -> bytes:
    """1-3 bytes of the action list changed: any bit of any byte, or (``json_safe``) a letter's
    case or a digit's value, which keeps the file JSON but changes names, verbs and numbers."""
    out = bytearray(raw)
    start, end = actions_span(raw)
    rng = Rng.from_seed(seed, stream=7)
    if json_safe:
        spots = [i for i in range(start, end) if chr(raw[i]).isalnum()]
    for _ in range(1 + seed % 3):
        if not json_safe:
            out[start + rng.below(end - start)] ^= (0x01, 0x04, 0x20, 0x80)[rng.below(4)]
            continue
        where = spots[rng.below(len(spots))]
        if chr(out[where]).isdigit():
            out[where] = ord("0") + (out[where] - ord("0") + 1 + rng.below(9)) % 10
        else:
            out[where] ^= 0x20
    assert bytes(out) != raw
    return bytes(out)


@pytest.mark.parametrize("json_safe", [False, True], ids=["any-bit", "letters-digits"])
@pytest.mark.parametrize("seed", range(8))
def test_flipped_bytes_in_the_action_list(midgame, capsys, tmp_path, seed, json_safe):
    """Whatever the flips turn the action list into (bad JSON or UTF-8, a document that fails
    the save schema, an illegal action, or one that leads elsewhere), verify says so cleanly."""
    path = midgame[0]
    target = damaged(path, tmp_path, flip_bytes(path.read_bytes(), seed, json_safe))
    before = fingerprint(target)
    code, out, err = verify(capsys, target)
    assert fingerprint(target) == before
    if code == 2:
        assert out == "" and len(err.splitlines()) == 1 and err.startswith("error:")
    elif code == 1:
        assert err == "" and len(out.splitlines()) == 1 and "verification failed" in out
    else:   # only if the flips left an equivalent game: check that independently
        session, report = Session.from_document(GAME, saves.read_document(target))
        assert code == 0 and report.ok
        assert GAME.digest(session.state) == GAME.digest(midgame[1]["snapshot"])


def test_chosen_flips_in_the_action_list(midgame, capsys, tmp_path):
    """One byte each: a verb misspelt (exit 1), a quote broken (exit 2), invalid UTF-8 (2)."""
    path = midgame[0]
    raw = path.read_bytes()
    start, end = actions_span(raw)
    verb = raw.index(b'"verb":"', start) + len(b'"verb":"')
    misspelt = bytearray(raw)
    misspelt[verb] ^= 0x20                       # e.g. auto_place -> Auto_place
    fails_verification(capsys, damaged(path, tmp_path, bytes(misspelt)),
                       "action 1 no longer replays")
    broken = bytearray(raw)
    broken[verb - 1] = ord("{")                  # "verb":{auto_place...
    bad_input(capsys, damaged(path, tmp_path, bytes(broken)), "damaged, truncated or not JSON")
    binary = bytearray(raw)
    binary[verb + 1] = 0xFF
    bad_input(capsys, damaged(path, tmp_path, bytes(binary)), "damaged, truncated or not JSON")


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(game="chess"), "unknown game 'chess'"),
    (lambda d: d.update(game=5), "damaged: game"),
    (lambda d: d.update(format="struggle-desktop-game"), "not a struggle_desktop save file"),
    (lambda d: d["actions"][3].update(role=["imperial"]), "actions/3/role"),
    (lambda d: d["actions"][2].pop("action"), "actions/2"),
    (lambda d: d["digests"][0].update(after=-1), "digests/0/after"),
    (lambda d: d.update(seed="eleven"), "damaged: seed"),
], ids=["unknown-game", "game-not-a-name", "wrong-format", "role-not-a-string",
        "action-missing", "negative-digest-count", "seed-not-a-number"])
def test_a_foreign_or_hand_edited_header_is_bad_input(midgame, capsys, tmp_path, change,
                                                      expected):
    bad_input(capsys, edited(midgame[0], tmp_path, change), expected)


def test_a_hand_edited_periodic_digest(midgame, capsys, tmp_path):
    """Not the last digest (tests/test_cli.py edits that one): the first periodic one, found
    at its own action count."""
    path, at_save, _, _ = midgame
    assert len(at_save["actions"]) > DIGEST_EVERY
    assert at_save["digests"][0]["after"] == DIGEST_EVERY
    target = edited(path, tmp_path, lambda d: d["digests"][0].update(digest="0" * 64))
    fails_verification(capsys, target, f"the position after action {DIGEST_EVERY} differs")
    setup = edited(path, tmp_path, lambda d: d["digests"].insert(0, {"after": 0,
                                                                      "digest": "0" * 64}))
    fails_verification(capsys, setup, "the set-up differs")


def test_a_different_seed_does_not_replay(midgame, capsys, tmp_path):
    path, at_save, _, _ = midgame
    target = edited(path, tmp_path, lambda d: d.update(seed=d["seed"] + 1))
    fails_verification(capsys, target)


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(scenario="99"), "unknown scenario '99'"),
    (lambda d: d["options"].update(warp="on"), "unknown option 'warp'"),
    (lambda d: d["options"].update(nexus="off"), "requires the optional rule nexus"),
], ids=["unknown-scenario", "unknown-option", "required-option-off"])
def test_a_save_naming_an_unknown_scenario_or_option(midgame, capsys, tmp_path, change,
                                                     expected):
    """Refused cleanly, naming the problem. An unknown scenario or option is bad
    input (ARCHITECTURE.md section 6)."""
    target = edited(midgame[0], tmp_path, change)
    before = fingerprint(target)
    code, out, err = verify(capsys, target)
    assert code == 2 and not out
    assert len(err.splitlines()) == 1 and err.startswith("error:") and expected in err
    assert fingerprint(target) == before


def test_a_save_naming_an_unknown_scenario_is_bad_input(midgame, capsys, tmp_path):
    target = edited(midgame[0], tmp_path, lambda d: d.update(scenario="99"))
    bad_input(capsys, target, "unknown scenario '99'")


def test_a_digest_for_actions_the_save_lacks_fails_verification(midgame, capsys, tmp_path):
    """A hand-added digest the replay can never reach: the save does not replay to all of its
    recorded digests, so verify must not say ok."""
    path, at_save, _, _ = midgame
    beyond = len(at_save["actions"]) + 1000
    target = edited(path, tmp_path, lambda d: d["digests"].append({"after": beyond,
                                                                    "digest": "0" * 64}))
    code, _, _ = verify(capsys, target)
    assert code in (1, 2)
