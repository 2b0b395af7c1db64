"""A short random-play fuzz of the chit mode: random environs, groups, flags and options, every
prompt answered by the ``random`` policy, with invariants checked after every answer: each chit
in exactly one place (the mug, the drawn row or the hand of the draw being resolved), letters
only from drawn chits, never a negative bonus count, and a finished report."""

from __future__ import annotations

from collections import Counter

from struggle_desktop.engine import flow
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom import chits
from struggle_desktop.games.freedom.chits_data import chit_tables
from struggle_desktop.games.freedom.registry import RULES

from .test_part_b_helpers import data

HOLDERS = ["Norrocks", "Professor Mareg", "Yarro Latac", "Oneste Woada", "Advisor Android"]


def random_context(r: Rng) -> dict:
    env = ["urban", "wild", "special", "orbit"][r.below(4)] if r.below(8) else "orbit"
    side = ["rebel", "imperial"][r.below(2)]
    letters = list("ABCDEFGHIPRST") if env != "orbit" else ["J", "Q"]
    groups = []
    for i in range(1 + r.below(min(4, len(letters)))):
        mission = letters.pop(r.below(len(letters)))
        groups.append({"id": f"G{i + 1}", "mission": mission, "bonus_draws": r.below(7) - 2,
                       "members": [f"c{i}{j}" for j in range(1 + r.below(3))],
                       "diplomat": bool(r.below(2)),
                       "holders": [h for h in HOLDERS if r.below(4) == 0]})
    ctx = {"environs_type": env, "phasing_side": side, "groups": groups,
           "enemy_controls_planet": bool(r.below(2)), "enemy_units": r.below(3),
           "special_ops": r.below(4) == 0, "enemy_leader": r.below(3) == 0,
           "enemy_characters": bool(r.below(2)),
           "creature": ["Gach", None][r.below(2)],
           "flags": {k: r.below(4) == 0 for k in ("trap_infiltrated", "ignore_enemy_agent",
                                                   "ignore_subtracting",
                                                   "reverse_subtracting")},
           "cards": [c for c in ("G#6", "G#7", "H#1", "M#14") if r.below(4) == 0],
           "game_turn": 1 + r.below(6)}
    if env != "orbit":
        ctx["size"] = 1 + r.below(6)
        if side == "rebel":
            free = [m for m in "DIS" if m not in {g["mission"] for g in groups}]
            if free and r.below(2):
                ctx["cells"] = [{"id": "cell", "mission": free[r.below(len(free))]}]
    return ctx


def check(state) -> list[str]:
    problems = []
    t = chit_tables(data())
    mug = t.mug(state["environs"]["mug"])
    held = [f["chit"] for f in state["stack"] if f["proc"] == "chit_draw" and "chit" in f
            and not (state["drawn"] and (state["drawn"][-1]["draw"], state["drawn"][-1]["k"])
                     == (f["draw"], f["k"]))]
    if state["options"]["chit_method"] == "mug" and state["outcome"] is None:
        for pile, kinds in (("mug", ("regular", "bonus")), ("side_mug", ("bonus_only",))):
            drawn = [d["chit"] for d in state["drawn"] if d["draw"] in kinds]
            if not state[pile] and not drawn:
                continue
            hand = held if (state["stack"] and state["stack"][-1].get("draw") in kinds) else []
            places = Counter(state[pile] + drawn + hand)
            if set(places) != set(mug) or any(n != 1 for n in places.values()):
                problems.append(f"{pile}: chits not each in exactly one place")
    drawn_ids = {d["chit"] for d in state["drawn"]}
    for g in state["groups"]:
        for x in g["letters"] + g["lost"]:
            if x["chit"] not in drawn_ids or x["letter"] not in t.by_id(x["chit"]).letters:
                problems.append(f"{g['id']} holds a letter from no drawn chit: {x}")
        if g["count"] is not None and g["count"] < 0:
            problems.append(f"{g['id']} has a negative bonus count")
        if g["status"] == "aborted" and g["letters"]:
            problems.append(f"aborted {g['id']} keeps letters")
    return problems


def test_random_play_keeps_the_chits_and_letters_straight():
    # FIG-CHIT-6, FIG-CHIT-8, FIG-CHIT-15, FIG-CHIT-16, FIG-CHIT-22: 150 random environs.
    outcomes = 0
    for seed in range(150):
        r = Rng.from_seed(seed, stream=91)
        scenario = {"id": f"fuzz{seed}", "kind": "chit-mug", "context": random_context(r)}
        options = {"chit_method": ["mug", "d66"][r.below(2)], "drama": bool(r.below(2)),
                   "allow_repeats": bool(r.below(2))}
        state = chits.new_state(data(), scenario, options, seed)
        policy_rng = Rng.from_seed(seed, stream=77)
        for _ in range(2000):
            ctx = chits.ChitContext(state)
            flow.run(ctx)
            ctx.close()
            assert not check(state), (seed, check(state))
            if state["outcome"] is not None:
                break
            pending = state["pending"]
            legal = RULES.legal_actions[pending["kind"]](chits.ChitContext(state), pending)
            assert legal, f"seed {seed}: prompt {pending['kind']} has no legal action"
            action = chits.choose(state, None, pending["role"], legal,
                                  "random" if seed % 3 else "simple", policy_rng)
            flow.answer(state, action)
        assert state["outcome"] is not None, f"seed {seed}: no end"
        assert state["stack"] == [] and all(e["rule"] for e in state["log"])
        outcomes += 1
    assert outcomes == 150
