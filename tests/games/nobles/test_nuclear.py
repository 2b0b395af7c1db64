"""Step 7, the Nuclear Exchange (rules-nobles.md section 12), run through the ``nuclear_exchange``
procedure of games/nobles/combat.py with scripted dice."""

from __future__ import annotations

import pytest

from tests.games.nobles.helpers import (board, legal, lose, notes, play, put, reply, rolls,
                                        start)

HEX = [5, 5]


def launch(nuke, target):
    return {"verb": "launch", "nuke": nuke, "target": target}


def hold(nuke):
    return {"verb": "hold", "nuke": nuke}


def loaded_jumpship(state, house="A", cargo=("House Troops",) * 3, h=HEX):
    """A jumpship of ``house`` that arrived in ``h`` this turn with ``cargo`` aboard."""
    ship = put(state, house, "Jumpship", h, moved=True)
    return ship, [put(state, house, t, h, ship=ship) for t in cargo]


@pytest.mark.parametrize("faces, destroyed", [([3, 1, 6, 6, 2], True),
                                              ([2, 3, 4, 5, 6], False)])
def test_nuke_test_case(faces, destroyed):
    """NH-NUK-11 (with NH-NUK-4, NH-NUK-6, NH-NUK-7): D's surface nuke fired at A's loaded
    jumpship; one 1 among the five dice destroys the ship and its three armies, no 1 leaves
    them; the nuke is spent either way."""
    state = board(order=["A", "D"])
    ship, armies = loaded_jumpship(state)
    nuke = put(state, "D", "Nuclear Arsenal", HEX)
    assert (ship, armies, nuke) == ("A-JS1", ["A-HT1", "A-HT2", "A-HT3"], "D-NK1")
    ctx = start(state, "nuclear_exchange", faces)
    assert state["pending"]["kind"] == "launch" and state["pending"]["role"] == "D"
    assert state["pending"]["nuke"] == "D-NK1" and state["pending"]["hex"] == HEX
    assert legal(ctx) == [launch("D-NK1", "armies:A"), launch("D-NK1", "ship:A-JS1"),
                          hold("D-NK1")]
    reply(ctx, "D", launch("D-NK1", "ship:A-JS1"))
    assert state["pending"] is None and state["stack"] == [] and ctx.rng.left == 0
    assert rolls(state, "NH-NUK-4") == [faces]
    assert "D-NK1" not in state["units"]
    survivors = {"A-JS1", "A-HT1", "A-HT2", "A-HT3"} & set(state["units"])
    assert survivors == (set() if destroyed else {"A-JS1", "A-HT1", "A-HT2", "A-HT3"})
    assert state["exchange"] is None


def test_only_contested_hexes_with_nukes_and_in_order_of_y_then_x():
    """NH-NUK-1 and NH-NUK-3: an exchange happens in each hex holding two or more houses, hexes
    taken in order of y, then x; a nuke alone with its own house is not asked about, and a
    contested hex without nukes has no exchange."""
    state = board({"Bolavor": (5, 5), "Quayat": (2, 7), "Frost": (8, 2), "Mox": (1, 1)},
                  order=["A", "B"])
    for h in ([2, 7], [8, 2], [5, 5]):
        put(state, "A", "Clone Soldiers", h)
        put(state, "B", "Nuclear Arsenal", h)
    put(state, "A", "Nuclear Arsenal", [1, 1])              # alone: no exchange there
    put(state, "A", "Clone Soldiers", [4, 4])
    put(state, "B", "Clone Soldiers", [4, 4])               # contested, but no nukes
    ctx = start(state, "nuclear_exchange")
    asked = []
    while state["pending"] is not None:
        asked.append((state["pending"]["hex"], state["pending"]["nuke"]))
        reply(ctx, "B", hold(state["pending"]["nuke"]))
    assert asked == [([8, 2], "B-NK2"), ([5, 5], "B-NK3"), ([2, 7], "B-NK1")]
    assert state["stack"] == [] and rolls(state) == []


def test_declarations_stay_hidden_in_the_frame_until_all_have_declared():
    """NH-SIM-2 and NH-NUK-3: A's declaration waits in the asking frame, not in the public
    exchange record, while D is still to declare; both are revealed together. A held nuke
    stays in play (launching is optional)."""
    state = board(order=["A", "D"])
    put(state, "A", "Clone Soldiers", HEX)
    a_nuke = put(state, "A", "Nuclear Arsenal", HEX)
    a_spare = put(state, "A", "Nuclear Arsenal", HEX)
    put(state, "D", "Clone Soldiers", HEX)
    d_nuke = put(state, "D", "Nuclear Arsenal", HEX)
    ctx = start(state, "nuclear_exchange", [6] * 10)
    play(ctx, [("A", launch(a_nuke, "armies:D")), ("A", hold(a_spare))])
    pending = state["pending"]
    assert pending["role"] == "D" and pending["nuke"] == d_nuke
    assert "armies:D" not in str(pending)
    exchange = state["exchange"]
    assert exchange["launches"] is None and exchange["committed"] == ["A"]
    assert "armies:D" not in str(exchange)
    frame = state["stack"][-1]
    assert frame["proc"] == "nuke_hex"
    assert frame["declared"]["A"] == {a_nuke: "armies:D", a_spare: None}
    reply(ctx, "D", launch(d_nuke, "armies:A"))
    assert [(x["nuke"], x["target"]) for x in notes_launches(state)] == [
        (a_nuke, "armies:D"), (d_nuke, "armies:A")]
    assert a_spare in state["units"] and a_nuke not in state["units"]


def notes_launches(state):
    """The launches as revealed, read back from the log (the exchange record is cleared)."""
    out = []
    for text in notes(state, "NH-NUK-3"):
        nuke, _, rest = text.partition(" is launched at ")
        if rest:
            out.append({"nuke": nuke, "target": ("armies:" + rest.split()[-1]
                                                 if rest.startswith("the armies") else rest)})
    return out


def test_every_nuke_rolls_before_any_hit_and_an_orbiting_nuke_still_fires():
    """NH-NUK-2 and NH-NUK-8: A's nuke fires from orbit aboard A-JS1 while D's surface nuke
    destroys that jumpship; both roll before any hit is applied, so A's hits still land on
    D's armies. NH-NUK-7: both nukes are gone afterwards."""
    state = board(order=["A", "D"])
    ship, (a_nuke,) = loaded_jumpship(state, cargo=("Nuclear Arsenal",))
    d_army = put(state, "D", "Clone Soldiers", HEX)
    d_nuke = put(state, "D", "Nuclear Arsenal", HEX)
    ctx = start(state, "nuclear_exchange", [1, 6, 6, 6, 6, 1, 6, 6, 6, 6])
    play(ctx, [("A", launch(a_nuke, "armies:D")), ("D", launch(d_nuke, f"ship:{ship}"))])
    assert rolls(state, "NH-NUK-4") == [[1, 6, 6, 6, 6], [1, 6, 6, 6, 6]]
    assert not {ship, a_nuke, d_nuke, d_army} & set(state["units"])
    assert state["stack"] == []


def test_hits_on_armies_are_chosen_by_the_target_and_extra_hits_are_lost():
    """NH-NUK-5: each hit destroys one army of the targeted house, embarked or on the ground,
    chosen by that house; hits beyond its armies are lost. NH-NUK-9 and NH-NOB-1: the house's
    nuke and its Noble (not an army) are never offered as casualties."""
    state = board(order=["A", "D"])
    ship, (embarked,) = loaded_jumpship(state, cargo=("Amazonians",))
    ground = put(state, "A", "Clone Soldiers", HEX)
    noble = put(state, "A", "Noble", HEX)
    spare = put(state, "A", "Nuclear Arsenal", HEX)
    d_nuke = put(state, "D", "Nuclear Arsenal", HEX)
    ctx = start(state, "nuclear_exchange", [1, 6, 6, 6, 6])
    # A's nuke has nothing to aim at (D has no armies and no ship): held without a prompt.
    reply(ctx, "D", launch(d_nuke, "armies:A"))
    pending = state["pending"]
    assert (pending["kind"], pending["role"], pending["hits"], pending["source"]) == (
        "casualty", "A", 1, "nuke")
    assert legal(ctx) == [lose(embarked), lose(ground)]
    reply(ctx, "A", lose(embarked))
    assert embarked not in state["units"]
    assert {ground, noble, spare, ship} <= set(state["units"])

    state = board(order=["A", "D"])
    army = put(state, "A", "Clone Soldiers", HEX)
    d_nuke = put(state, "D", "Nuclear Arsenal", HEX)
    ctx = start(state, "nuclear_exchange", [1, 1, 1, 6, 6])
    reply(ctx, "D", launch(d_nuke, "armies:A"))
    assert army not in state["units"] and state["pending"] is None
    assert any("2 hit(s)" in text and "lost" in text for text in notes(state, "NH-NUK-5"))


def test_a_ship_hit_twice_is_destroyed_once():
    """NH-NUK-6: one or more hits destroy the targeted jumpship with its cargo; the extra hits
    do not spill onto other units. A Self Transport unit may be the target (NH-ABIL-11)."""
    state = board(order=["A", "D"])
    ship, cargo = loaded_jumpship(state, cargo=("Clone Soldiers",))
    rangers = put(state, "A", "Colonial Rangers", HEX, moved=True)
    other = put(state, "A", "Amazonians", HEX)
    d_nuke = put(state, "D", "Nuclear Arsenal", HEX)
    ctx = start(state, "nuclear_exchange", [1, 1, 1, 6, 6])
    assert {"verb": "launch", "nuke": d_nuke, "target": f"ship:{rangers}"} in legal(ctx)
    reply(ctx, "D", launch(d_nuke, f"ship:{ship}"))
    assert not {ship, *cargo} & set(state["units"])
    assert {rangers, other} <= set(state["units"])


def test_nobles_of_launching_and_targeted_houses_have_fought():
    """NH-NUK-10: Nobles of the house that launched and of the house aimed at are flagged
    fought; a third house in the hex that neither launched nor was targeted is not, and
    neither is a Noble of the launching house elsewhere. NH-PSY-8: the psychic units there
    (Nobles, Kadesh Warrior Priests) roll nothing in the exchange."""
    state = board({"Bolavor": (5, 5), "Frost": (2, 2)}, order=["A", "B", "C"])
    a_noble = put(state, "A", "Noble", HEX)
    put(state, "A", "Clone Soldiers", HEX)
    b_noble = put(state, "B", "Noble", HEX)
    b_nuke = put(state, "B", "Nuclear Arsenal", HEX)
    b_away = put(state, "B", "Noble", [2, 2])
    c_noble = put(state, "C", "Noble", HEX)
    put(state, "C", "Kadesh Warrior Priests", HEX)
    ctx = start(state, "nuclear_exchange", [6, 6, 6, 6, 6])
    reply(ctx, "B", launch(b_nuke, "armies:A"))
    fought = {uid for uid, u in state["units"].items() if u["fought"]}
    assert fought == {a_noble, b_noble}
    assert c_noble not in fought and b_away not in fought
    assert [e["rule"] for e in state["log"] if e["kind"] == "roll"] == ["NH-NUK-4"]


def test_held_nukes_roll_nothing_and_flag_nobody():
    """NH-NUK-3: launching is optional; with every nuke held there are no dice, no losses and
    no fought flags (NH-NUK-10 needs a launch)."""
    state = board(order=["A", "D"])
    noble = put(state, "D", "Noble", HEX)
    nuke = put(state, "D", "Nuclear Arsenal", HEX)
    put(state, "A", "Clone Soldiers", HEX)
    ctx = start(state, "nuclear_exchange")
    reply(ctx, "D", hold(nuke))
    assert rolls(state) == [] and nuke in state["units"]
    assert not state["units"][noble]["fought"]
    assert state["stack"] == [] and state["exchange"] is None
