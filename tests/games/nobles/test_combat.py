"""Step 8, the Battles (rules-nobles.md sections 13 and 14, the Noble rules of section 15 and the
battle abilities of section 5), run through the ``battles`` procedure of games/nobles/combat.py
with scripted dice: a die beyond a test's stream fails it.

Unless a test says otherwise, the attacking house's units arrived this turn (``moved``) and the
defender's were already there, so the defender is the house that stayed (NH-BAT-3)."""

from __future__ import annotations

from struggle_desktop.games.nobles.combat import choose_defender
from struggle_desktop.games.nobles.context import Ctx
from struggle_desktop.games.nobles.data import default_data
from struggle_desktop.games.nobles.registry import RULES
from tests.games.nobles.helpers import (DONE, board, command, control, legal, lose, notes, play,
                                        put, reply, rolls, start, volley_rolls)

HEX = [5, 5]          # Bolavor on the default board
AWAY = [7, 7]         # empty space


def arrive(state, house, types, h=HEX):
    """Units of ``house`` that moved into ``h`` this turn."""
    return [put(state, house, t, h, moved=True) for t in types]


def stay(state, house, types, h=HEX):
    """Units of ``house`` that were in ``h`` before the Movement step."""
    return [put(state, house, t, h) for t in types]


def finished(ctx):
    """The step has ended with every scripted die used."""
    state = ctx.state
    return (state["pending"] is None and state["stack"] == [] and ctx.rng.left == 0
            and state["battle"] is None)


def volley_of(state, uid):
    """Which volley each roll of ``uid`` was in, in order."""
    return ["first strike" if "first-strike volley" in e["text"] else "normal"
            for e in state["log"] if e["kind"] == "roll" and e["rule"] == "NH-BAT-7"
            and e["refs"][0] == uid]


# ------------------------------------------------------------------------------ NH-BAT-16
def test_battle_test_case():
    """NH-BAT-16, the rules' own battle, with its dice stream; on the way NH-BAT-7 (step
    order), NH-ABIL-2 (each 1 is a hit), NH-BAT-8 and NH-BAT-9 (the hit house chooses),
    NH-BAT-10 (3 base + 1 command + 1 psychic; 1 base + 1 home defence), NH-ABIL-5 (D-JF1
    fires in the first-strike volley although A-AM1's hits were rolled before its dice: a
    volley's hits land together), NH-ABIL-6 (Jungle Fighters on Bolavor), NH-NOB-2 (command:
    +1 AD and First Strike), NH-PSY-5 (the Noble's result goes to its army), NH-BAT-11,
    NH-BAT-12 (D-JS1 is lost) and NH-BAT-14 (A-N1 has fought)."""
    state = board({"Bolavor": (5, 5)}, order=["A", "B", "C", "D"])
    control(state, "Bolavor", "D")
    d_units = stay(state, "D", ["House Troops", "House Troops", "Jungle Fighters", "Jumpship"])
    ship = put(state, "A", "Jumpship", HEX, moved=True)
    a_units = [put(state, "A", t, HEX, ship=ship) for t in ("Amazonians", "Amazonians", "Noble")]
    state["arrivals"] = {"5,5": ["A"]}
    assert d_units == ["D-HT1", "D-HT2", "D-JF1", "D-JS1"]
    assert [ship, *a_units] == ["A-JS1", "A-AM1", "A-AM2", "A-N1"]

    ctx = start(state, "battles", [4, 1, 1, 4, 6, 3, 2, 1, 2, 5, 1, 2, 3, 4, 6])
    assert state["pending"]["kind"] == "command" and state["pending"]["hex"] == HEX
    assert legal(ctx) == [command("A-N1", "A-AM1"), command("A-N1", "A-AM2"), DONE]
    reply(ctx, "A", command("A-N1", "A-AM1"))
    # Round 1's first-strike volley has been rolled; A is asked first for its loss.
    battle = state["battle"]
    assert (battle["defender"], battle["attacker"], battle["round"]) == ("D", "A", 1)
    assert battle["commands"] == {"A-N1": "A-AM1"}
    assert battle["psychic"]["A-N1"]["extra"] == 1
    assert battle["dice"] == {"A": {"A-AM1": [1, 1, 4, 6, 3]}, "D": {"D-JF1": [2, 1]}}
    assert battle["hits"] == {"A": 2, "D": 1}
    assert (state["pending"]["kind"], state["pending"]["role"]) == ("casualty", "A")
    play(ctx, [("A", lose("A-AM2")), ("D", lose("D-HT1")), ("D", lose("D-HT2")),
               ("A", command("A-N1", "A-AM1"))])
    assert finished(ctx)
    assert volley_rolls(state) == [("A-AM1", [1, 1, 4, 6, 3]), ("D-JF1", [2, 1]),
                                   ("A-AM1", [5, 1, 2, 3]), ("D-JF1", [4, 6])]
    assert rolls(state, "NH-PSY-4") == [[4], [2]]
    assert sorted(state["units"]) == ["A-AM1", "A-JS1", "A-N1"]
    assert state["units"]["A-N1"]["fought"]


# -------------------------------------------------------------- NH-BAT-2, NH-BAT-3, NH-BAT-4
def test_no_armies_means_no_battle():
    """NH-BAT-2: with no army on either side the houses share the hex: no dice, no losses,
    and nobody has fought (NH-BAT-14 needs a battle)."""
    state = board(order=["A", "B"])
    ship = put(state, "A", "Jumpship", HEX, moved=True)
    noble = put(state, "A", "Noble", HEX, ship=ship)
    stay(state, "B", ["Nuclear Arsenal", "Noble"])
    before = set(state["units"])
    ctx = start(state, "battles")
    assert finished(ctx) and set(state["units"]) == before
    assert not state["units"][noble]["fought"] and rolls(state) == []


def test_a_house_without_armies_loses_at_once():
    """NH-BAT-2 and NH-BAT-12: B has only a jumpship (with a Noble aboard) and a nuke where A
    has an army: B loses them all at once, without dice; A keeps everything."""
    state = board(order=["B", "A"])
    a_army = stay(state, "A", ["Clone Soldiers"])[0]
    b_ship = put(state, "B", "Jumpship", HEX, moved=True)
    put(state, "B", "Noble", HEX, ship=b_ship)
    put(state, "B", "Nuclear Arsenal", HEX, ship=b_ship)
    ctx = start(state, "battles")
    assert finished(ctx) and rolls(state) == []
    assert sorted(state["units"]) == [a_army]


def test_defender_choice():
    """NH-BAT-3: the world's controller if it has units there; else the house that was there
    before Movement (the earliest in initiative order if several); else the first to arrive."""
    state = board({"Bolavor": (5, 5)}, order=["A", "B", "C", "D"])
    ctx = Ctx(state, RULES.procedures, default_data())
    arrive(state, "A", ["Clone Soldiers"])
    stay(state, "C", ["Clone Soldiers"])
    arrive(state, "D", ["Clone Soldiers"])
    state["arrivals"] = {"5,5": ["D", "A"]}
    control(state, "Bolavor", "D")
    assert choose_defender(ctx, HEX, ["A", "C", "D"])[0] == "D"
    control(state, "Bolavor", "B")                       # B controls it but has no units
    assert choose_defender(ctx, HEX, ["A", "C", "D"])[0] == "C"
    stay(state, "B", ["Clone Soldiers"])
    assert choose_defender(ctx, HEX, ["A", "C", "D"])[0] == "C"   # B is not fighting
    assert choose_defender(ctx, HEX, ["A", "B", "C", "D"])[0] == "B"
    state["order"] = ["C", "A", "B", "D"]
    control(state, "Bolavor", None)
    assert choose_defender(ctx, HEX, ["A", "B", "C", "D"])[0] == "C"
    assert choose_defender(ctx, HEX, ["A", "D"])[0] == "D"     # both moved: D arrived first


def test_the_defender_role_decides_the_bonus():
    """NH-BAT-3 in play: B stayed and defends although A is first in initiative, so B's House
    Troops roll 2 dice (+1 when defending, NH-ABIL-4) and A's roll 1."""
    state = board(order=["A", "B"])
    a_ht = arrive(state, "A", ["House Troops"])[0]
    b_ht = stay(state, "B", ["House Troops"])[0]
    ctx = start(state, "battles", [6, 6, 1])
    assert finished(ctx)
    assert volley_rolls(state) == [(a_ht, [6]), (b_ht, [6, 1])]
    assert sorted(state["units"]) == [b_ht]


def test_three_houses_defender_keeps_its_place():
    """NH-BAT-4: D (controller) fights B, then A, in initiative order; it beats B and then
    falls to A."""
    state = board({"Bolavor": (5, 5)}, order=["B", "A", "D"])
    control(state, "Bolavor", "D")
    d_ht = stay(state, "D", ["House Troops"])[0]
    b_cl = arrive(state, "B", ["Clone Soldiers"])[0]
    a_cl = arrive(state, "A", ["Clone Soldiers"])[0]
    ctx = start(state, "battles", [6, 1, 6, 1, 6, 6])
    assert finished(ctx)
    assert volley_rolls(state) == [(b_cl, [6]), (d_ht, [1, 6]), (a_cl, [1]), (d_ht, [6, 6])]
    assert sorted(state["units"]) == [a_cl]


def test_three_houses_a_winner_takes_over_the_defence():
    """NH-BAT-4: D is wiped out by B, the first attacker; B, first in initiative order among
    those left, now defends against A, and its House Troops get the defender's +1 AD."""
    state = board({"Bolavor": (5, 5)}, order=["B", "A", "D"])
    control(state, "Bolavor", "D")
    d_cl = stay(state, "D", ["Clone Soldiers"])[0]
    b_ht = arrive(state, "B", ["House Troops"])[0]
    a_ht = arrive(state, "A", ["House Troops"])[0]
    ctx = start(state, "battles", [1, 6, 6, 6, 1])
    assert finished(ctx)
    assert volley_rolls(state) == [(b_ht, [1]), (d_cl, [6]), (a_ht, [6]), (b_ht, [6, 1])]
    assert sorted(state["units"]) == [b_ht]
    assert any("now defends" in text for text in notes(state, "NH-BAT-4"))


# ------------------------------------------------------------------------------ hits and ends
def test_hex_order_and_fights_to_the_end():
    """NH-BAT-5: battles are fought hex by hex in order of y, then x: (7,3) before (2,5),
    although the units at (2,5) were placed first. NH-BAT-1 and NH-BAT-13: rounds go on, with
    no retreat, until a side is wiped out (three rounds at (7,3)), all within the step.
    NH-MOV-12: rivals in one hex fight; a dozen of A's units alone in a hex (no stacking
    limit) roll nothing."""
    state = board(order=["A", "B"])
    first_a, first_b = arrive(state, "A", ["Clone Soldiers"], [2, 5]) + stay(
        state, "B", ["Clone Soldiers"], [2, 5])
    a_cl, b_cl = arrive(state, "A", ["Clone Soldiers"], [7, 3]) + stay(
        state, "B", ["Clone Soldiers"], [7, 3])
    crowd = stay(state, "A", ["Clone Soldiers"] * 12, AWAY)
    ctx = start(state, "battles", [6, 6, 6, 6, 1, 6, 1, 6])
    assert finished(ctx)
    assert [uid for uid, _ in volley_rolls(state)] == [a_cl, b_cl] * 3 + [first_a, first_b]
    assert set(state["units"]) == {first_a, a_cl, *crowd}


def test_mutual_wipe_out():
    """NH-BAT-11 and NH-CTRL-4: both last armies fall in the same volley; the battle ends, both
    houses lose their other units there (NH-BAT-12), and Bolavor stays with D, its defender."""
    state = board(order=["A", "D"])
    control(state, "Bolavor", "D")
    stay(state, "D", ["Clone Soldiers", "Jumpship"])
    arrive(state, "A", ["Clone Soldiers", "Noble"])
    ctx = start(state, "battles", [1, 1])
    reply(ctx, "A", DONE)
    assert finished(ctx) and state["units"] == {}
    assert state["worlds"]["Bolavor"]["controller"] == "D"
    assert len(notes(state, "NH-CTRL-4")) == 1


def test_hits_beyond_the_armies_are_lost():
    """NH-BAT-9: three hits on a single army destroy it and the other two are lost."""
    state = board(order=["A", "B"])
    a_am = arrive(state, "A", ["Amazonians"])[0]
    stay(state, "B", ["Clone Soldiers"])
    ctx = start(state, "battles", [1, 1, 1, 6])
    assert finished(ctx) and sorted(state["units"]) == [a_am]
    assert any("2 hit(s)" in text and "lost" in text for text in notes(state, "NH-BAT-9"))


def test_the_loser_loses_ships_nukes_and_nobles():
    """NH-BAT-12: when B's last army falls, its jumpship (with the Noble aboard), its nuke and
    its Noble on the ground are lost too; the winner keeps its own."""
    state = board(order=["A", "B"])
    a_ship = put(state, "A", "Jumpship", HEX, moved=True)
    a_am = put(state, "A", "Amazonians", HEX, ship=a_ship)
    b_units = stay(state, "B", ["Clone Soldiers", "Nuclear Arsenal", "Noble", "Jumpship"])
    put(state, "B", "Noble", HEX, ship=b_units[3], moved=False)
    ctx = start(state, "battles", [1, 6, 6, 6])
    reply(ctx, "B", DONE)                  # B's Noble commands nothing
    assert finished(ctx)
    assert sorted(state["units"]) == [a_am, a_ship]


def test_round_limit_guard(monkeypatch):
    """NH-BAT-15: a battle that reaches the round limit (2 here) stops; the survivors stay and
    no more dice are rolled, not even by C, the attacker still waiting in that hex."""
    monkeypatch.setitem(default_data().procedure, "battle_round_limit", 2)
    state = board(order=["A", "B", "C"])
    a_cl = arrive(state, "A", ["Clone Soldiers"])[0]
    b_cl = stay(state, "B", ["Clone Soldiers"])[0]
    c_cl = arrive(state, "C", ["Clone Soldiers"])[0]
    state["arrivals"] = {"5,5": ["A", "C"]}
    ctx = start(state, "battles", [6, 6, 6, 6])
    assert finished(ctx)
    assert sorted(state["units"]) == [a_cl, b_cl, c_cl]
    assert len(notes(state, "NH-BAT-15")) == 1


def test_nobles_in_a_battle_hex_have_fought():
    """NH-BAT-14: A's Noble in the battle hex is flagged fought though it commands nothing;
    A's Noble in another hex is not."""
    state = board(order=["A", "B"])
    a_cl, here = arrive(state, "A", ["Clone Soldiers", "Noble"])
    away = put(state, "A", "Noble", AWAY)
    stay(state, "B", ["Clone Soldiers"])
    ctx = start(state, "battles", [1, 6])
    reply(ctx, "A", DONE)
    assert finished(ctx)
    assert state["units"][here]["fought"] and not state["units"][away]["fought"]


def test_nukes_have_no_dice_and_are_never_casualties():
    """NH-NUK-9: A's nuke in the battle rolls nothing and is not offered as a casualty."""
    state = board(order=["B", "A"])
    b_am = arrive(state, "B", ["Amazonians"])[0]
    a_am, a_cl, a_nuke = stay(state, "A", ["Amazonians", "Clone Soldiers", "Nuclear Arsenal"])
    ctx = start(state, "battles", [1, 6, 6, 1, 6, 6, 6])
    assert legal(ctx) == [lose(a_am), lose(a_cl)]
    reply(ctx, "A", lose(a_cl))
    assert finished(ctx)
    assert [uid for uid, _ in volley_rolls(state)] == [b_am, a_am, a_cl]
    assert sorted(state["units"]) == [a_am, a_nuke]


# ------------------------------------------------------------------------------ abilities
def test_role_bonuses():
    """NH-ABIL-4: Berserkers add 2 AD only when attacking, House Troops 1 only when defending
    (two battles: at 5,5 then at 7,7)."""
    state = board(order=["A", "B"])
    a_ab = arrive(state, "A", ["Anthrosynthetic Berserkers"])[0]
    b_ht = stay(state, "B", ["House Troops"])[0]
    a_ht = arrive(state, "A", ["House Troops"], AWAY)[0]
    b_ab = stay(state, "B", ["Anthrosynthetic Berserkers"], AWAY)[0]
    ctx = start(state, "battles", [1, 6, 6, 6, 6, 6, 6, 1, 6])
    assert finished(ctx)
    assert volley_rolls(state) == [(a_ab, [1, 6, 6, 6]), (b_ht, [6, 6]),
                                   (a_ht, [6]), (b_ab, [1, 6])]
    assert sorted(state["units"]) == [a_ab, b_ab]


def test_home_defence():
    """NH-ABIL-6: Jungle Fighters get +1 AD and First Strike only while defending Bolavor's
    hex: not when attacking there, and not when defending elsewhere."""
    state = board({"Bolavor": (5, 5), "Quayat": (7, 7)}, order=["A", "B"])
    a_jf = arrive(state, "A", ["Jungle Fighters"])[0]
    b_home = stay(state, "B", ["Jungle Fighters"])[0]
    a_cl = arrive(state, "A", ["Clone Soldiers"], AWAY)[0]
    b_away = stay(state, "B", ["Jungle Fighters"], AWAY)[0]
    ctx = start(state, "battles", [6, 6, 1, 6, 1])
    assert finished(ctx)
    assert volley_rolls(state) == [(b_home, [6, 6]), (a_jf, [1]), (a_cl, [6]), (b_away, [1])]
    assert volley_of(state, b_home) == ["first strike"]
    assert volley_of(state, a_jf) == ["normal"] and volley_of(state, b_away) == ["normal"]
    assert sorted(state["units"]) == [a_jf, b_away]


def test_sacrifices():
    """NH-ABIL-12 with NH-SIM-2: A sacrifices its Kadesh Fanatics, which A-N1 commands (so its
    sure hit comes in the first-strike volley); B sacrifices its Discordian Heretics (hit in the
    normal volley). A's declaration waits hidden in the frame while B declares. Sacrificed
    units roll no dice."""
    state = board(order=["A", "B"])
    a_kf, a_cl, a_noble = arrive(state, "A", ["Kadesh Fanatics", "Clone Soldiers", "Noble"])
    b_cl1, b_cl2, b_dh = stay(state, "B", ["Clone Soldiers", "Clone Soldiers",
                                           "Discordian Heretics"])
    ctx = start(state, "battles", [2, 6, 6])
    reply(ctx, "A", command(a_noble, a_kf))
    assert legal(ctx) == [{"verb": "sacrifice", "unit": a_kf}, DONE]
    reply(ctx, "A", {"verb": "sacrifice", "unit": a_kf})
    # A has nothing more to sacrifice; B is asked, and A's choice is not public yet.
    assert state["pending"]["kind"] == "sacrifice" and state["pending"]["role"] == "B"
    assert state["stack"][-1]["sacrifices"] == {"A": [a_kf], "B": []}
    assert state["battle"]["sacrificed"] == {"A": [], "B": []}
    assert a_kf in state["units"]
    reply(ctx, "B", {"verb": "sacrifice", "unit": b_dh})
    assert finished(ctx)
    assert [uid for uid, _ in volley_rolls(state)] == [a_cl, b_cl2]
    assert notes(state, "NH-BAT-8") == [
        "Round 1 first-strike volley: House A scores 1 hit(s), House B scores 0",
        "Round 1 normal volley: House A scores 0 hit(s), House B scores 1"]
    assert b_cl1 not in state["units"]              # taken by the first-strike sure hit
    assert sorted(state["units"]) == [b_cl2]


def test_prisoners_escape():
    """NH-ABIL-13 and NH-ABIL-14 (NH-BAT-6 order: the attacker's units first): each Prisoner
    Soldiers unit rolls; on 1-2 it leaves the game (it does not join the enemy). B's only army
    escapes, so B loses at once and no round is fought."""
    state = board(order=["B", "A"])
    a_ps1, a_ps2 = arrive(state, "A", ["Prisoner Soldiers", "Prisoner Soldiers"])
    b_ps, b_ship = stay(state, "B", ["Prisoner Soldiers", "Jumpship"])
    ctx = start(state, "battles", [2, 3, 1])
    assert finished(ctx)
    assert rolls(state, "NH-ABIL-14") == [[2], [3], [1]]
    assert sorted(state["units"]) == [a_ps2]
    assert state["units"][a_ps2]["owner"] == "A"
    assert volley_rolls(state) == []


def test_supersoldiers_defect_and_fight_for_the_other_side():
    """NH-ABIL-15 and NH-ABIL-16: one roll for A's whole group of Supersoldiers; on 2 both go
    over to B, step off A's jumpship, and fight for B from round 1 (4 AD each, in B's
    line-up). A's last army falls and A-JS1 goes (NH-BAT-12) without them."""
    state = board(order=["A", "B"])
    ship = put(state, "A", "Jumpship", HEX, moved=True)
    a_cl, ts1, ts2 = [put(state, "A", t, HEX, ship=ship)
                      for t in ("Clone Soldiers", "Transhuman Supersoldiers",
                                "Transhuman Supersoldiers")]
    b_cl = stay(state, "B", ["Clone Soldiers"])[0]
    ctx = start(state, "battles", [2, 6, 1, 6, 6, 6, 6, 6, 6, 6, 6])
    assert finished(ctx)
    assert rolls(state, "NH-ABIL-16") == [[2]]
    assert volley_rolls(state) == [(a_cl, [6]), (ts1, [1, 6, 6, 6]), (ts2, [6, 6, 6, 6]),
                                   (b_cl, [6])]
    for ts in (ts1, ts2):
        assert state["units"][ts]["owner"] == "B" and state["units"][ts]["ship"] is None
    assert sorted(state["units"]) == [ts1, ts2, b_cl]


def test_defection_rolls_attacker_first_and_once_per_group():
    """NH-ABIL-16 in the NH-BAT-6 order: A rolls 3 (its Supersoldiers stay), then B rolls 1 and
    its only army goes over to A; B then has no army and loses its Noble (NH-BAT-12)."""
    state = board(order=["B", "A"])
    a_cl, a_ts = arrive(state, "A", ["Clone Soldiers", "Transhuman Supersoldiers"])
    b_ts, b_noble = stay(state, "B", ["Transhuman Supersoldiers", "Noble"])
    ctx = start(state, "battles", [3, 1])
    assert finished(ctx)
    assert [e["refs"][0] for e in state["log"] if e["rule"] == "NH-ABIL-16"
            and e["kind"] == "roll"] == [a_ts, b_ts]
    assert state["units"][b_ts]["owner"] == "A"
    assert sorted(state["units"]) == [a_cl, a_ts, b_ts]


def test_cyborg_commandos_strike_first_when_attacking():
    """NH-ABIL-17: Cyborg Commandos fire in the first-strike volley when attacking, in the
    normal volley when defending. NH-ABIL-5: B-CL1, destroyed by the first-strike volley,
    never gets to roll in the normal one."""
    state = board(order=["A", "B"])
    a_cc = arrive(state, "A", ["Cyborg Commandos"])[0]
    b_cl = stay(state, "B", ["Clone Soldiers"])[0]
    a_cl = arrive(state, "A", ["Clone Soldiers"], AWAY)[0]
    b_cc = stay(state, "B", ["Cyborg Commandos"], AWAY)[0]
    ctx = start(state, "battles", [1, 6, 6, 1, 6])
    assert finished(ctx)
    assert volley_rolls(state) == [(a_cc, [1, 6]), (a_cl, [6]), (b_cc, [1, 6])]
    assert volley_of(state, a_cc) == ["first strike"] and volley_of(state, b_cc) == ["normal"]
    assert volley_of(state, b_cl) == []
    assert sorted(state["units"]) == [a_cc, b_cc]


def test_subterranean_mutants_strike_first_defending_hellish():
    """NH-ABIL-18: Subterranean Mutants have First Strike when defending Hellish, not when
    defending elsewhere (they also make their psychic roll, NH-PSY-4)."""
    state = board({"Hellish": (5, 5)}, order=["A", "B"])
    a_home = arrive(state, "A", ["Clone Soldiers"])[0]
    b_home = stay(state, "B", ["Subterranean Mutants"])[0]
    a_away = arrive(state, "A", ["Clone Soldiers"], AWAY)[0]
    b_away = stay(state, "B", ["Subterranean Mutants"], AWAY)[0]
    ctx = start(state, "battles", [1, 1, 1, 6, 1])
    assert finished(ctx)
    assert rolls(state, "NH-PSY-4") == [[1], [1]]
    assert volley_rolls(state) == [(b_home, [1]), (a_away, [6]), (b_away, [1])]
    assert volley_of(state, b_home) == ["first strike"] and volley_of(state, b_away) == ["normal"]
    assert a_home not in state["units"]


def test_death_squads_attacking():
    """NH-ABIL-19: Imperial Death Squads get +1 AD and First Strike when attacking only."""
    state = board(order=["A", "B"])
    a_id = arrive(state, "A", ["Imperial Death Squads"])[0]
    stay(state, "B", ["Clone Soldiers"])
    a_cl = arrive(state, "A", ["Clone Soldiers"], AWAY)[0]
    b_id = stay(state, "B", ["Imperial Death Squads"], AWAY)[0]
    ctx = start(state, "battles", [1, 6, 6, 1])
    assert finished(ctx)
    assert volley_rolls(state) == [(a_id, [1, 6]), (a_cl, [6]), (b_id, [1])]
    assert volley_of(state, a_id) == ["first strike"] and volley_of(state, b_id) == ["normal"]


def test_rebels_against_imperial_units():
    """NH-ABIL-21: Rebel Freedom Fighters roll one extra die against a side with an Imperial
    unit (Imperial Conscripts), not against Clone Soldiers."""
    state = board(order=["A", "B"])
    rf1 = arrive(state, "A", ["Rebel Freedom Fighters"])[0]
    stay(state, "B", ["Imperial Conscripts"])
    rf2 = arrive(state, "A", ["Rebel Freedom Fighters"], AWAY)[0]
    stay(state, "B", ["Clone Soldiers"], AWAY)
    ctx = start(state, "battles", [1, 6, 6, 1, 6])
    assert finished(ctx)
    assert volley_rolls(state) == [(rf1, [1, 6, 6]), (rf2, [1, 6])]
    assert sorted(state["units"]) == [rf1, rf2]


# ------------------------------------------------------------------------------ Nobles
def test_command_assignment():
    """NH-NOB-3: one Noble per army, chosen anew each round; NH-NOB-2: the commanded army gets
    +1 AD and First Strike; NH-PSY-5: a Noble left without an army makes no psychic roll."""
    state = board(order=["A", "B"])
    am1, am2, n1, n2 = arrive(state, "A", ["Amazonians", "Amazonians", "Noble", "Noble"])
    stay(state, "B", ["Robot Death Machines", "Robot Death Machines"])
    ctx = start(state, "battles", [1] + [6] * 15 + [1, 1] + [1, 1, 6, 6] * 2)
    reply(ctx, "A", command(n1, am1))
    assert legal(ctx) == [command(n2, am2), DONE]
    reply(ctx, "A", DONE)
    reply(ctx, "A", command(n1, am2))
    reply(ctx, "A", command(n2, am1))
    assert finished(ctx)
    assert rolls(state, "NH-PSY-4") == [[1], [1], [1]]
    a_rolls = [(uid, len(faces)) for uid, faces in volley_rolls(state) if uid.startswith("A")]
    assert a_rolls == [(am1, 4), (am2, 3), (am1, 4), (am2, 4)]
    assert volley_of(state, am2) == ["normal", "first strike"]
    assert sorted(state["units"]) == [am1, am2, n1, n2]


def test_a_noble_falls_with_its_sacrificed_last_army():
    """NH-NOB-4 and NH-NOB-5: A-N1 commands A's only army, which is sacrificed; the Noble dies
    at once, before the volleys. The sure hits still land (NH-ABIL-12)."""
    state = board(order=["A", "B"])
    a_ns, a_noble = arrive(state, "A", ["Nitrix Suicide Squads", "Noble"])
    b_cl = stay(state, "B", ["Clone Soldiers"] * 3)
    ctx = start(state, "battles", [1])
    play(ctx, [("A", command(a_noble, a_ns)), ("A", {"verb": "sacrifice", "unit": a_ns})])
    assert finished(ctx)
    texts = [(e["rule"], e["text"]) for e in state["log"]]
    death = next(i for i, (rule, _) in enumerate(texts) if rule == "NH-NOB-4")
    first_volley = next(i for i, (rule, _) in enumerate(texts) if rule == "NH-BAT-8")
    assert a_noble in texts[death][1] and death < first_volley
    assert sorted(state["units"]) == [b_cl[2]]


def test_a_noble_survives_while_its_house_has_armies():
    """NH-NOB-4: A-N1's army is destroyed but A still has another army in the fight, so the
    Noble lives (and its command ends: it makes no psychic roll the next round, NH-PSY-5)."""
    state = board(order=["A", "B"])
    a_am, a_cl, a_noble = arrive(state, "A", ["Amazonians", "Clone Soldiers", "Noble"])
    stay(state, "B", ["Clone Soldiers"])
    ctx = start(state, "battles", [1, 6, 6, 6, 6, 6, 1, 1, 6])
    play(ctx, [("A", command(a_noble, a_am)), ("A", lose(a_am)), ("A", DONE)])
    assert finished(ctx)
    assert sorted(state["units"]) == [a_cl, a_noble]
    assert notes(state, "NH-NOB-4") == [] and rolls(state, "NH-PSY-4") == [[1]]


# ------------------------------------------------------------------------------ psychics
def test_who_makes_psychic_rolls():
    """NH-PSY-2: Kadesh Warrior Priests, Solar Templars, a commanding Noble, Psychic Natives
    and Subterranean Mutants roll; Amazonians and Psychic Veterans do not. NH-BAT-7: the
    attacker's rolls come first, each side in unit-id order."""
    state = board(order=["A", "B"])
    a_kw, a_st, a_am, a_noble = arrive(state, "A", ["Kadesh Warrior Priests", "Solar Templars",
                                                    "Amazonians", "Noble"])
    b_pn, b_sm = stay(state, "B", ["Psychic Natives", "Subterranean Mutants"])
    stay(state, "B", ["Psychic Veterans"])
    ctx = start(state, "battles", [1, 1, 1, 1, 1, 1, 1, 1, 6])
    reply(ctx, "A", command(a_noble, a_am))
    assert finished(ctx)
    assert [e["refs"][0] for e in state["log"] if e["rule"] == "NH-PSY-4"
            and e["kind"] == "roll"] == [a_kw, a_noble, a_st, b_pn, b_sm]
    assert sorted(state["units"]) == [a_am, a_kw, a_noble, a_st]


def test_psychic_rolls_each_round():
    """NH-ABIL-7, NH-PSY-3 and NH-PSY-4: a psychic army rolls once every round and adds that
    round's result to its own volley; by the table (NH-PSY-1) a 6 gives +3 in round 1 and a 4
    gives +1 in round 2."""
    state = board(order=["A", "B"])
    a_kw = arrive(state, "A", ["Kadesh Warrior Priests"])[0]
    stay(state, "B", ["Clone Soldiers"])
    ctx = start(state, "battles", [6, 6, 6, 6, 6, 6, 6, 4, 1, 6, 6, 6])
    assert finished(ctx)
    assert rolls(state, "NH-PSY-4") == [[6], [4]]
    assert [len(f) for uid, f in volley_rolls(state) if uid == a_kw] == [5, 3]
    assert sorted(state["units"]) == [a_kw]


def test_psychic_veterans_negate():
    """NH-PSY-6 and NH-PSY-7: each Psychic Veterans unit picks a different enemy result of 1+
    (the highest left) and cancels it on 1-3: B-PV1 cancels A-ST1's +3 (a 2), B-PV2 fails
    against A-KW1's +2 (a 4), and B-PV3 has nothing left to pick and does not roll."""
    state = board(order=["A", "B"])
    a_kw, a_st = arrive(state, "A", ["Kadesh Warrior Priests", "Solar Templars"])
    stay(state, "B", ["Psychic Veterans"] * 3)
    ctx = start(state, "battles", [5, 6, 2, 4, 1, 1, 1, 6, 1, 6, 6, 6, 6, 6, 6, 6, 6])
    assert finished(ctx)
    assert rolls(state, "NH-PSY-7") == [[2], [4]]
    assert [e["refs"][:2] for e in state["log"]
            if e["rule"] == "NH-PSY-7" and e["kind"] == "roll"] == [["B-PV1", a_st],
                                                                      ["B-PV2", a_kw]]
    assert [(uid, len(f)) for uid, f in volley_rolls(state)][:2] == [(a_kw, 4), (a_st, 3)]
    assert sorted(state["units"]) == [a_kw, a_st]
