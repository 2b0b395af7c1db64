"""GameDocument: the one operation path of the window (check, perform, undo, autosave)."""

import json

import pytest

from struggle_desktop.ui.document import GameDocument, autosave_path, autosave_paths, load_file


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


def test_the_last_three_autosaves_are_kept_newest_first(doc):
    """Each autosave moves the kept ones one place older; the oldest falls off."""
    assert [p.name for p in autosave_paths()] == ["autosave.sgsave", "autosave-1.sgsave",
                                                  "autosave-2.sgsave"]
    assert autosave_paths()[0] == autosave_path()
    for _ in range(3):
        doc.perform(doc.hint())
    counts = [len(json.loads(p.read_text())["actions"]) for p in autosave_paths()]
    assert counts == [3, 2, 1]
    assert not any(p.name.startswith("autosave-3") for p in autosave_path().parent.iterdir())


def test_an_autosave_that_cannot_rotate_does_not_stop_the_newest(doc):
    autosave_paths()[2].mkdir()          # the oldest place is taken by a folder
    doc.perform(doc.hint())
    doc.perform(doc.hint())
    assert len(json.loads(autosave_path().read_text())["actions"]) == 2


def test_loading_changes_nothing_until_the_game_is_installed(doc, tmp_path):
    doc.perform({"verb": "auto_place"})
    target = doc.save(tmp_path / "game.sgsave")
    other = GameDocument(autosave=False)
    loaded = load_file(target)
    assert other.session is None and loaded.session.state is not doc.state
    assert loaded.game.digest(loaded.session.state) == doc.game.digest(doc.state)
    assert other.install_loaded(loaded).startswith("Opened game.sgsave: 1 actions replayed")
    assert other.session is loaded.session and other.path == target and not other.dirty


def test_an_unexpected_error_in_a_replay_is_a_short_save_error(tmp_path, qapp, monkeypatch):
    from struggle_desktop.engine.errors import SaveError
    from struggle_desktop.engine.session import Session

    doc = GameDocument(autosave=False)
    doc.new_game("struggle", "3", 1, {})
    target = doc.save(tmp_path / "game.sgsave")

    def explode(*args, **kwargs):
        raise RecursionError("a very long story " * 100)
    monkeypatch.setattr(Session, "from_document", explode)
    with pytest.raises(SaveError) as refused:
        load_file(target)
    assert str(refused.value) == \
        "cannot open game.sgsave: the file could not be replayed (RecursionError)"


def play_to(doc, kind, limit=200):
    for _ in range(limit):
        if doc.board["prompt"] and doc.board["prompt"]["kind"] == kind:
            return
        doc.perform(doc.hint())
    raise AssertionError(f"no {kind} prompt reached")


def test_the_players_own_action_makes_no_frame_to_watch(doc):
    """Step mode stopped after each of the player's own moves ("Next step (1 of 1)"): the
    step that carries out the player's answer is no frame; the Chaos side's steps are."""
    result = doc.perform({"verb": "auto_place"})
    own = [e for e in result.new_entries if e["turn"] == 0 and e["kind"] == "place"]
    assert own, "the placement is logged"
    assert result.frames and all(f.entry not in own for f in result.frames)
    play_to(doc, "movement")
    move = next(a for a in doc.legal_actions() if a["verb"] in ("move", "move_stack"))
    result = doc.perform(move)
    assert result.ok and any(e["kind"] == "move" for e in result.new_entries)
    assert result.frames == []


def test_where_play_stops_is_worked_out_on_a_copy(doc):
    doc.perform({"verb": "auto_place"})
    play_to(doc, "combat")
    done = {"verb": "done"}
    before = doc.game.digest(doc.state)
    log_size = len(doc.log_entries())
    stop = doc.where_play_stops(done)
    assert doc.game.digest(doc.state) == before and len(doc.log_entries()) == log_size
    assert doc.where_play_stops({"verb": "bogus"}) is None
    doc.perform(done)
    assert (stop["turn"], stop["phase"]) == (doc.board["turn"], doc.board["phase"])
    assert stop["over"] is False and doc.board["prompt"] is not None


def test_undo_keeps_no_position_it_could_never_restore(qapp):
    """Undo stops at an action that involved chance, so the positions before it can never come
    back: the document drops them instead of holding a whole position per action (thousands
    in a long game, which made the collector stall the window for seconds)."""
    document = GameDocument(autosave=False)
    document.new_game("nobles", "standard", 3, {"houses": 2, "seat1": "human", "seat2": "ai"})
    for _ in range(300):
        role = document.waiting_role
        assert document.perform(document.program_action("bot"), role).ok
    kept = document._undo
    assert len(kept) < 300
    assert not any(record.chance for record in kept[1:])
    assert kept[0].chance, "the oldest position kept is the one undo stops at"
