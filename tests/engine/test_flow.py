"""The procedure-stack flow (engine/flow.py): the runner, prompts and answers, logged dice,
the runaway guard, and saving in the middle of an automated phase.

Rules: SGE-DICE-4 (a face of 0 read as 10 before modifiers), SGE-DICE-5 (modified rolls are
face plus modifiers, never clamped), SGE-DICE-9 (random choices are one uniform draw logged as
"k of n"), SGE-DICE-10 (every roll logged with rule ID, face, modifiers and result).
"""

from __future__ import annotations

import json

import pytest

from struggle_desktop.engine.canonical import clone, digest
from struggle_desktop.engine.errors import RunawayError
from struggle_desktop.engine.flow import MAX_STEPS_PER_RUN, Context, UnkeptLog, answer, run
from struggle_desktop.engine.rng import Rng


def new_state(*frames: dict) -> dict:
    return {"rng": Rng.from_seed(1).to_json(), "stack": list(frames), "pending": None,
            "outcome": None, "log": [], "turn": 1, "phase": 2}


# A small "game": count to a limit, asking the player at each step whether to go on.
def counter(ctx: Context, frame: dict) -> None:
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "stop":
            ctx.pop()
            return
        frame["n"] += 1
        ctx.push("tick", n=frame["n"])
        return
    if frame["n"] >= frame["limit"]:
        ctx.state["outcome"] = {"result": "done", "n": frame["n"]}
        return
    ctx.ask("go_on", f"Count past {frame['n']}?", rule="DEMO-1", limit=frame["limit"])


def tick(ctx: Context, frame: dict) -> None:
    ctx.roll("d10", "DEMO-2", f"tick {frame['n']}")
    ctx.pop()


PROCS = {"counter": counter, "tick": tick}


def play(state: dict, actions: list[dict]) -> dict:
    ctx = Context(state, PROCS)
    run(ctx)
    ctx.close()
    for action in actions:
        answer(state, action)
        ctx = Context(state, PROCS)
        run(ctx)
        ctx.close()
    return state


def test_runner_stops_at_a_prompt_and_answer_resumes_the_asking_frame():
    state = new_state({"proc": "counter", "n": 0, "limit": 2})
    play(state, [])
    assert state["pending"] == {"kind": "go_on", "text": "Count past 0?", "role": "imperial",
                                "rule": "DEMO-1", "limit": 2}
    play(state, [{"verb": "go"}])
    assert state["stack"] == [{"proc": "counter", "n": 1, "limit": 2}]
    assert state["pending"]["text"] == "Count past 1?"
    play(state, [{"verb": "go"}])
    assert state["outcome"] == {"result": "done", "n": 2}
    assert state["pending"] is None
    assert [e["rule"] for e in state["log"]] == ["DEMO-2", "DEMO-2"]


def test_answer_puts_the_action_in_the_top_frame_and_clears_the_prompt():
    state = new_state({"proc": "counter", "n": 0, "limit": 5})
    play(state, [])
    answer(state, {"verb": "stop"})
    assert state["pending"] is None
    assert state["stack"][-1]["answer"] == {"verb": "stop"}
    run(Context(state, PROCS))
    assert state["stack"] == []


def test_runner_stops_on_an_empty_stack_and_on_an_outcome():
    state = new_state()
    run(Context(state, PROCS))   # nothing to do: returns at once
    state = new_state({"proc": "counter", "n": 3, "limit": 3})
    run(Context(state, PROCS))
    assert state["outcome"]["result"] == "done"


def test_runaway_guard():
    def spin(ctx, frame):
        frame["k"] = frame.get("k", 0) + 1   # "progress" that never ends

    state = new_state({"proc": "spin"})
    with pytest.raises(RunawayError, match="spin"):
        run(Context(state, {"spin": spin}), max_steps=1_000)
    assert MAX_STEPS_PER_RUN >= 100_000


def test_push_of_an_unknown_procedure_fails():
    ctx = Context(new_state(), PROCS)
    with pytest.raises(KeyError):
        ctx.push("nowhere")


def test_a_game_saved_while_a_prompt_waits_resumes_identically():
    """The whole flow lives in the state: JSON out, JSON in, same future (SGE-DICE-10)."""
    actions = [{"verb": "go"}] * 4
    straight = play(new_state({"proc": "counter", "n": 0, "limit": 4}), actions)

    half = play(new_state({"proc": "counter", "n": 0, "limit": 4}), actions[:2])
    assert half["pending"] is not None
    resumed = play(json.loads(json.dumps(half)), actions[2:])
    assert digest(resumed) == digest(straight)


def test_close_writes_the_generator_back():
    state = new_state()
    ctx = Context(state, PROCS)
    before = list(state["rng"])
    ctx.rng.d10()
    assert state["rng"] == before
    ctx.close()
    assert state["rng"] != before


def test_roll_logs_rule_face_modifiers_and_result():
    """SGE-DICE-5, SGE-DICE-10: the result is face plus modifiers, not clamped to 0-9, and the
    log entry carries the rule ID, the die, the raw face, the modifiers and the result."""
    state = new_state()
    ctx = Context(state, PROCS)
    face = Rng.from_json(state["rng"]).d10()
    result = ctx.roll("d10", "DEMO-5", "attack", modifiers=[("leader", 4), ("units", 9),
                                                                  ("none", 0)], refs=["sector:5"])
    assert result == face + 13 and result > 9
    entry = state["log"][-1]
    assert entry["rule"] == "DEMO-5" and entry["kind"] == "roll"
    assert entry["refs"] == ["sector:5"] and (entry["turn"], entry["phase"]) == (1, 2)
    assert entry["dice"] == [{"die": "d10", "face": face, "modifiers": [["leader", 4], ["units", 9]],
                              "result": result}]
    assert str(face) in entry["text"] and entry["text"].endswith(f"= {result}")


def test_negative_modifiers_are_not_clamped():
    """SGE-DICE-5: a modified roll may fall below 0."""
    ctx = Context(new_state(), PROCS)
    assert ctx.roll("d10", "DEMO-3", "test", modifiers=[("minus", -20)]) < 0


def test_zero_read_as_ten_before_modifiers():
    """SGE-DICE-4: with ``zero_as=10`` a face of 0 counts as 10, then modifiers are added;
    the log keeps the raw face and the reading."""
    seed = next(s for s in range(1000) if Rng.from_seed(s).d10() == 0)
    state = new_state()
    state["rng"] = Rng.from_seed(seed).to_json()
    ctx = Context(state, PROCS)
    assert ctx.roll("d10", "DEMO-6", "recruit", modifiers=[("RV", 3)], zero_as=10) == 13
    record = state["log"][-1]["dice"][0]
    assert record["face"] == 0 and record["read_as"] == 10 and record["result"] == 13


def test_other_dice_and_unknown_dice():
    ctx = Context(new_state(), PROCS)
    assert 1 <= ctx.roll("d6", "DEMO-4", "d6") <= 6
    assert 11 <= ctx.roll("d66", "DEMO-4", "d66") <= 66
    with pytest.raises(ValueError):
        ctx.roll("d20", "DEMO-4", "no such die")


def test_pick_is_one_uniform_draw_logged_as_k_of_n():
    """SGE-DICE-9: a random choice among n items is one draw, logged "k of n"; a single item
    needs no draw."""
    state = new_state()
    ctx = Context(state, PROCS)
    items = ["a", "b", "c", "d"]
    expected = Rng.from_json(state["rng"]).below(4)
    assert ctx.pick(items, "SGE-DICE-9", "a unit") == items[expected]
    entry = state["log"][-1]
    assert entry["kind"] == "draw" and entry["text"].endswith(f"{expected + 1} of 4")
    assert entry["dice"][0]["die"] == "pick4"
    log_len, rng_before = len(state["log"]), ctx.rng.to_json()
    assert ctx.pick(["only"], "SGE-DICE-9", "one") == "only"
    assert len(state["log"]) == log_len and ctx.rng.to_json() == rng_before
    with pytest.raises(ValueError):
        ctx.pick([], "SGE-DICE-9", "none")


def test_state_stays_plain_json():
    state = play(new_state({"proc": "counter", "n": 0, "limit": 3}), [{"verb": "go"}] * 3)
    assert json.loads(json.dumps(state)) == state == clone(state)


def test_an_unkept_log_changes_no_die():
    """A state whose log is an UnkeptLog (a simulation writing no log) keeps no entry, and
    every kind of die gives the very results it gives with the log kept."""
    def throws(ctx: Context) -> list:
        return [ctx.roll("d10", "DEMO-1", "plain"),
                ctx.roll("d10", "DEMO-1", "modified", modifiers=[("leader", 2), ("none", 0)]),
                ctx.roll("d10", "DEMO-1", "zero read as ten", zero_as=10),
                ctx.roll("d6", "DEMO-1", "d6"), ctx.roll("d66", "DEMO-1", "d66"),
                ctx.pick(["a", "b", "c"], "DEMO-1", "pick"),
                ctx.roll_d6s(3, "DEMO-1", "three"), ctx.draw_index(5, "DEMO-1", "of five")]

    kept, unkept = new_state(), new_state()
    unkept["log"] = UnkeptLog()
    kept_ctx, unkept_ctx = Context(kept, {}), Context(unkept, {})
    assert kept_ctx.keeps_log and not unkept_ctx.keeps_log
    for _ in range(30):   # enough throws for faces of 0 and modified results
        assert throws(unkept_ctx) == throws(kept_ctx)
    assert unkept_ctx.log("DEMO-1", "note", "dropped") == {}
    kept_ctx.close(), unkept_ctx.close()
    assert unkept["log"] == [] and len(kept["log"]) == 30 * 8
    assert unkept["rng"] == kept["rng"]
