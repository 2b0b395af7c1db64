"""GameDocument: the one operation path of the window (check, perform, undo, autosave)."""

import json

import pytest

from struggle_desktop.ui.document import GameDocument, autosave_path


@pytest.fixture
def doc(qapp):
    document = GameDocument()
    document.new_game("struggle", "3", 1, {})
    return document


def test_new_game_opens_at_the_set_up_prompt_and_autosaves(doc):
    assert doc.board["prompt"]["kind"] == "setup_placement"
    assert autosave_path().exists()
    saved = json.loads(autosave_path().read_text())
    assert saved["scenario"] == "3" and saved["seed"] == 1


def test_illegal_action_changes_nothing_and_says_why(doc, qtbot):
    before = doc.game.digest(doc.state)
    with qtbot.waitSignal(doc.message) as message:
        result = doc.perform({"verb": "move", "unit": "AF-01", "to": 2})
    assert not result.ok and result.reason
    assert message.args[0].startswith("Not possible")
    assert doc.game.digest(doc.state) == before and doc.session.actions == []


def test_perform_emits_changed_once_and_collects_watchable_frames(doc, qtbot):
    with qtbot.waitSignal(doc.changed):
        result = doc.perform({"verb": "auto_place"})
    assert result.ok and doc.session.actions == [{"role": "imperial", "action": {"verb": "auto_place"}}]
    # Turn 1 begins: the Chaos side moved, fought or placed something the window can show.
    assert result.frames
    assert all(f.entry in result.new_entries for f in result.frames)
    assert result.frames[-1].board["turn"] >= 1


def test_undo_is_refused_across_a_roll_and_allowed_otherwise(doc):
    doc.perform({"verb": "auto_place"})        # turn 1 rolls dice and draws markers
    reason = doc.undo_reason()
    assert reason and "chance" in reason
    assert doc.undo() == reason
    # A plain move in the movement phase involves no chance: it can be undone and redone.
    for _ in range(200):
        if doc.board["prompt"]["kind"] == "movement":
            break
        doc.perform(doc.hint())
    moves = [a for a in doc.legal_actions() if a["verb"] == "move"]
    assert moves, "no movement prompt reached"
    before = doc.game.digest(doc.state)
    doc.perform(moves[0])
    after = doc.game.digest(doc.state)
    assert doc.undo() is None and doc.game.digest(doc.state) == before
    assert doc.redo() is None and doc.game.digest(doc.state) == after


def test_save_and_open_round_trip(doc, tmp_path):
    doc.perform({"verb": "auto_place"})
    target = doc.save(tmp_path / "game.sgsave")
    other = GameDocument(autosave=False)
    note = other.open(target)
    assert "replayed" in note
    assert other.game.digest(other.state) == doc.game.digest(doc.state)


def test_damaged_save_is_refused_and_left_untouched(tmp_path, qapp):
    from struggle_desktop.engine.errors import StruggleError

    bad = tmp_path / "bad.sgsave"
    bad.write_text('{"format": "struggle-desktop-save", "actions": [')
    before = bad.read_bytes()
    doc = GameDocument(autosave=False)
    with pytest.raises(StruggleError):
        doc.open(bad)
    assert bad.read_bytes() == before and doc.session is None
