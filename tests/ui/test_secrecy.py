"""Hot-seat secrecy as a property (BFG-HID-2, BFG-HID-3, BFG-HID-11, NH-SIM-2): at every
prompt of seeded games of two people, two positions that differ only in the *other* side's
secrets look exactly the same to the seated side, through the code the window reads: the
board, the log and dice lines, and the Undo/Redo labels of ``GameDocument``.

The twin of a Battles position changes what the other side knows and the seat does not:
which chits are in its hand, its face-down pool and its set-aside chits, its deployment
plan, the faces of its chit draws, the wording of its private log entries and the name of
its last action. In Noble Houses it changes the other house's hidden declarations (launch
targets, sacrifices) and the name of its last action. Before the chit draws and the undo
labels were made private, this test failed on both.
"""

from __future__ import annotations

import json
import re

import pytest

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles.context import other
from struggle_desktop.ui.document import GameDocument, UndoRecord
from tests.ui.helpers import save_before_two_people_declare

DRAW_TEXT = re.compile(r"^(?P<who>Blue|Red) draws (?P<how>.*): (?P<face>\d+) of (?P<k>\d+)$")


def observed(doc: GameDocument) -> str:
    """Everything of the game the seated side can see in the window, as one text."""
    return json.dumps({
        "board": doc.board,
        "log": doc.log_entries(0),
        "undo": [doc.undo_label(), doc.undo_reason(), doc.redo_label(), doc.can_redo()],
    }, sort_keys=True, default=str)


def other_face(entry_part: dict, side: str) -> None:
    """Give one of ``side``'s chit draws another face (in its text and its die)."""
    match = DRAW_TEXT.match(entry_part.get("text", ""))
    if not match or match["who"].lower() != side:
        return
    k, face = int(match["k"]), int(match["face"])
    new = face % k + 1
    entry_part["text"] = f"{match['who']} draws {match['how']}: {new} of {k}"
    for die in entry_part.get("dice") or []:
        die["face"] = die["result"] = new


def twin_state(state: dict, side: str) -> dict:
    """``state`` with ``side``'s secrets changed and nothing else."""
    twin = clone(state)
    player = twin["players"][side]
    hidden = player["own_chits"] + twin["chit_pool"]
    if player["hand"] and hidden:
        # Swap a chit of the hand with a face-down one: same counts, another hand.
        kept = next((c for c in hidden if c not in player["hand"]), None)
        if kept is not None:
            given = player["hand"][0]
            player["hand"][0] = kept
            pool = player["own_chits"] if kept in player["own_chits"] else twin["chit_pool"]
            pool[pool.index(kept)] = given
    player["own_chits"].reverse()
    player["discards"] = [f"{c}" for c in reversed(player["discards"])]
    for pair in player["deploy"]:
        pair[1] = 7 - pair[1] if isinstance(pair[1], int) else pair[1]
    for entry in twin["log"]:
        other_face(entry, side)
        private = entry.get("private")
        if private is not None and private["role"] == side:
            private["text"] = private["text"] + " (another secret)"
            other_face(private, side)
    return twin


def twin_nobles_state(state: dict, seat: str) -> dict:
    """``state`` with every other house's hidden declarations changed: each declared launch
    becomes a hold, each declared sacrifice is withdrawn."""
    twin = clone(state)
    for frame in twin["stack"]:
        for house, nukes in (frame.get("declared") or {}).items():
            if house != seat:
                for nuke in nukes:
                    nukes[nuke] = None
        sacrifices = frame.get("sacrifices")
        if isinstance(sacrifices, dict):
            for house in sacrifices:
                if house != seat:
                    sacrifices[house] = []
    return twin


def twin_document(doc: GameDocument, side: str) -> GameDocument:
    """The document of the twin position: the other side's secrets (and, in Noble Houses,
    every other house's) changed; ``side`` names the other side of a two-sided game."""
    twin = GameDocument(autosave=False)
    session = doc.session
    twin.game = doc.game
    state = (twin_state(session.state, side) if doc.game.id == "battles"
             else twin_nobles_state(session.state, doc.seat))
    twin.session = Session(doc.game, session.scenario, session.seed, dict(session.options),
                           state, list(session.actions), list(session.digests))
    twin.seat = doc.seat
    for mine, theirs in ((doc._undo, twin._undo), (doc._redo, twin._redo)):
        for record in mine:
            label = (record.label + " (another secret)" if record.role not in ("", doc.seat)
                     else record.label)
            theirs.append(UndoRecord(record.state, record.actions, record.digests, label,
                                     record.chance, record.redo_action, record.role))
    return twin


@pytest.mark.parametrize("scenario, seed, options", [
    ("civil-war", 1, {}), ("civil-war", 2, {"secret_disengagement": True}),
    ("civil-war", 5, {"all": True, "open_hands": False}), ("invasion", 3, {}),
    ("invasion", 4, {"mixed_chits": True, "secret_disengagement": True}),
])
def test_the_other_sides_secrets_never_show(qapp, scenario, seed, options):
    doc = GameDocument(autosave=False)
    doc.watch = False
    doc.new_game("battles", scenario, seed,
                 {"blue_player": "human", "red_player": "human", **options})
    rng = Rng.from_seed(seed, stream=99)
    checked = differing = 0
    while doc.waiting_role is not None and doc.state["turn"] <= 3:
        role = doc.waiting_role
        doc.set_seat(role, quiet=True)
        twin = twin_document(doc, other(role))
        differing += twin.session.state != doc.state
        assert observed(doc) == observed(twin), (
            f"seed {seed}, action {len(doc.session.actions)}: {role} sees a secret of "
            f"{other(role)}")
        checked += 1
        assert doc.perform(doc.game.choose_action(doc.state, role, "bot", rng), role).ok
    assert checked > 50 and differing > checked // 2, "the twins hid next to nothing"


def test_another_houses_declarations_never_show(qapp, tmp_path):
    """NH-SIM-2: from a two-person nuclear exchange on (seed 6, turn 11), every prompt looks
    the same to the seated house whatever the other house has declared."""
    path = tmp_path / "exchange.sgsave"
    save_before_two_people_declare(path)
    doc = GameDocument(autosave=False)
    doc.watch = False
    doc.open(path)
    checked = differing = 0
    while doc.waiting_role is not None and checked < 120:
        role = doc.waiting_role
        doc.set_seat(role, quiet=True)
        other_house = next(r for r in doc.game.roles if r != role)
        twin = twin_document(doc, other_house)
        differing += twin.session.state != doc.state
        assert observed(doc) == observed(twin), (
            f"action {len(doc.session.actions)}: house {role} sees a secret")
        checked += 1
        rng = Rng.from_seed(len(doc.session.actions), 3)
        legal = doc.legal_actions()
        busy = [a for a in legal if a["verb"] != "done"]
        action = busy[rng.below(len(busy))] if busy and rng.below(3) else \
            legal[rng.below(len(legal))]
        assert doc.perform(action, role).ok
    assert checked == 120 and differing >= 1, "a hidden declaration was tested"
