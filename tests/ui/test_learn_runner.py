"""The guide runner's course: it waits for the step's action and never plays for the person;
another move or a refused one gets the step's hint (the game takes or refuses it as always);
Back goes back a step and takes back, by the game's Undo, what was done since that step began
(a roll it cannot take back is said in the callout); Restart begins the guide's game afresh,
Leave closes the guide and the game goes on as an ordinary one. A narrating step tells the
Chaos side's moves one at a time in the game's own words. With several guides installed,
Help > Learn to Play offers the one of the game on screen in a chooser, and the New Game
dialog starts the guide of the game chosen there."""

from __future__ import annotations

import html

import pytest

from struggle_desktop.ui.learn.loader import guide_for
from struggle_desktop.ui.learn.runner import GuideRunner
from tests.ui.helpers import struggle_window


@pytest.fixture
def window(qtbot):
    yield from struggle_window(qtbot, size=(1366, 740))


@pytest.fixture
def runner(window):
    runner = GuideRunner(window, guide_for("struggle"))
    assert runner.start()
    return runner


def actions(window) -> list[dict]:
    return [a["action"] for a in window.document.session.actions]


def to_step(runner, step_id: str) -> None:
    while runner.step.id != step_id:
        assert runner.step.wanted is None, f"{runner.step.id} waits for an action"
        runner.callout.next.click()


def test_the_guide_starts_its_own_game_and_waits_for_the_action(window, runner):
    guide = runner.guide
    session = window.document.session
    assert (session.scenario, session.seed) == (guide.scenario, guide.seed)
    to_step(runner, "place-fleet")
    assert runner.callout.isVisible() and runner.marker.isVisible()
    assert not runner.callout.next.isVisible()        # only the move ends this step
    assert actions(window) == []                      # the guide played nothing itself
    window.tray_dropped("AF-05", 1, [])
    assert runner.step.id == "auto-place"


def test_another_move_gets_the_hint_and_the_right_one_goes_on(window, runner):
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-03", 2, [])               # legal, but not the guide's move
    assert actions(window) == [{"verb": "place", "unit": "AF-03", "at": 2}]
    assert runner.step.id == "place-fleet"
    assert runner.callout.hint.isVisible()
    assert "AF-05" in runner.callout.hint.text() and "Undo" in runner.callout.hint.text()
    window.undo()
    window.tray_dropped("AF-05", 1, [])
    assert runner.step.id == "auto-place"


def test_a_refused_move_is_refused_as_always_and_the_hint_shown(window, runner):
    to_step(runner, "place-fleet")
    window.document.perform({"verb": "move", "unit": "AF-05", "to": 1})   # not set-up's
    assert actions(window) == []
    assert runner.step.id == "place-fleet" and runner.callout.hint.isVisible()


def test_back_takes_back_what_was_done_since_that_step_began(window, runner):
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    assert runner.step.id == "auto-place"
    runner.callout.back.click()
    assert runner.step.id == "place-fleet"
    assert actions(window) == []                      # undone, by the game's own Undo
    assert "AF-05" in [p["id"] for p in window.document.board["tray"]]   # back in Set-up
    assert not runner.callout.next.isVisible()        # the step waits for its move again
    assert not runner.callout.hint.isVisible()
    window.tray_dropped("AF-05", 1, [])
    assert runner.step.id == "auto-place"


def test_back_over_a_roll_says_it_cannot_be_taken_back(window, runner):
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    window.perform({"verb": "auto_place"})            # the Chaos side's first events: dice
    assert runner.step.id == "turn-panel"
    runner.callout.back.click()
    assert runner.step.id == "auto-place"
    assert {"verb": "auto_place"} in actions(window)  # a roll is not thrown again
    hint = runner.callout.hint
    assert hint.isVisible() and "cannot take this back" in hint.text()
    assert "chance" in hint.text() and "Restart" in hint.text()
    assert runner.callout.next.isVisible()            # done already: Next goes on
    runner.callout.next.click()
    assert runner.step.id == "turn-panel"


def test_restart_begins_again(window, runner):
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    first_session = window.document.session
    runner.callout.restart.click()
    assert runner.index == 0 and window.document.session is not first_session
    assert actions(window) == []


def test_leave_closes_the_guide_and_the_game_goes_on(window, runner):
    to_step(runner, "place-fleet")
    runner.callout.leave.click()
    assert not runner.active and not runner.callout.isVisible()
    assert not runner.marker.isVisible()
    window.tray_dropped("AF-05", 1, [])
    assert actions(window) == [{"verb": "place", "unit": "AF-05", "at": 1}]
    assert runner.step.id == "place-fleet"            # nothing follows the game any more


def test_help_learn_to_play_starts_the_only_guide_in_the_window(window, tmp_path,
                                                                 monkeypatch):
    import shutil

    from struggle_desktop.ui.learn import loader
    shutil.copy(loader.guides_dir() / "struggle.yaml", tmp_path / "struggle.yaml")
    monkeypatch.setattr(loader, "guides_dir", lambda: tmp_path)
    assert "Learn to Play" in window.act_learn.text().replace("&", "")
    window.act_learn.trigger()
    runner = window.learn_runner
    assert runner.active and runner.index == 0 and runner.callout.isVisible()
    assert window.document.session.seed == runner.guide.seed


def test_a_narrating_step_tells_each_chaos_move_in_the_games_words(window, runner):
    """SGE-OPS-3: the Chaos side's moves after the suppression roll, one per Next, each with
    its log line, the marker on where it happened; after the last the guide goes on."""
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    window.perform({"verb": "auto_place"})
    to_step(runner, "suppress")
    assert window.speed == "step"       # the next step narrates: its moves wait for Next
    window.perform({"verb": "suppress"})
    assert runner.step.id == "chaos-moves" and window.playback.active
    log = [e["text"] for e in window.document.log_entries()]
    said, total = [], len(window.playback.frames)
    assert total >= 5
    for k in range(total):
        body = runner.callout.body.text()
        assert f"Move {k + 1} of {total}:" in body
        told = runner._told
        assert told["lines"] and all(line in log for line in told["lines"])
        assert html.escape(told["lines"][-1]) in body
        assert told["sectors"], f"move {k + 1} points nowhere: {told}"
        sector = runner.rect_of({"sector": told["sectors"][-1]})
        assert runner.marker.geometry() == sector.adjusted(-4, -4, 4, 4)
        said.append(told["lines"][-1])
        if k % 2:
            window.turn_dock.continue_button.click()    # the Turn panel's Continue paces too
        else:
            runner.callout.next.click()
    assert runner.step.id == "income"   # after the last move the guide went on by itself
    assert len(set(said)) == total      # a sentence for each move
    assert window.speed == "instant"    # the player's own speed again


def test_the_new_game_dialog_offers_the_guide_of_its_game(window, qtbot):
    from struggle_desktop.ui.dialogs.new_game import NewGameDialog
    dialog = NewGameDialog(window, current="struggle")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.learn_button.click()
    assert dialog.choice() == {"kind": "learn", "game": "struggle"}


# ------------------------------------------------------------------ several guides
TINY_BATTLES = """\
id: battles-tiny
game: battles
title: "Battles: a tiny guide"
summary: Build a fleet and fight one battle.
scenario: civil-war
seed: 3
steps:
  - id: one
    target: {widget: map-view}
    text: Look at the table.
    until: next
"""


@pytest.fixture
def several_guides(tmp_path, monkeypatch):
    """A guides folder with the Struggle guide and one for another game."""
    import shutil

    from struggle_desktop.ui.learn import loader
    shutil.copy(loader.guides_dir() / "struggle.yaml", tmp_path / "struggle.yaml")
    (tmp_path / "battles.yaml").write_text(TINY_BATTLES)
    monkeypatch.setattr(loader, "guides_dir", lambda: tmp_path)
    return tmp_path


def test_help_offers_the_guide_of_the_game_on_screen_among_several(window, several_guides,
                                                                   monkeypatch):
    from PySide6.QtWidgets import QDialog

    from struggle_desktop.ui.learn.runner import GuideChooser
    seen = {}

    def look_and_start(dialog):
        seen["rows"] = dialog.entries()
        seen["current"] = dialog.entries()[dialog.list.currentRow()]
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(GuideChooser, "exec", look_and_start)
    window.act_learn.trigger()
    assert len(seen["rows"]) == 2
    assert "<b>Battles: a tiny guide</b><br>Build a fleet and fight" in " ".join(seen["rows"])
    assert seen["current"].startswith("<b>Struggle: your first turn</b><br>Set up the Empire")
    runner = window.learn_runner
    assert runner.active and runner.guide.game == "struggle"


def test_help_offers_every_shipped_guide_with_this_games_first(window, monkeypatch):
    """The guides the program ships (Struggle, Battles, Noble Houses): each one's title and
    summary in the chooser, the Struggle guide chosen in the Struggle window."""
    from PySide6.QtWidgets import QDialog

    from struggle_desktop.ui.learn.loader import available_guides
    from struggle_desktop.ui.learn.runner import GuideChooser
    shipped = available_guides()
    assert {"struggle", "battles", "nobles"} <= {g.game for g in shipped}
    seen = {}

    def look_and_cancel(dialog):
        seen["rows"] = dialog.entries()
        seen["current"] = dialog.chosen()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(GuideChooser, "exec", look_and_cancel)
    window.act_learn.trigger()
    assert len(seen["rows"]) == len(shipped)
    for guide, row in zip(shipped, seen["rows"]):
        assert row == (f"<b>{html.escape(guide.title)}</b><br>{html.escape(guide.summary)}")
    assert seen["current"].game == "struggle"


def test_the_chooser_can_be_left_without_starting_anything(window, several_guides, monkeypatch):
    from PySide6.QtWidgets import QDialog

    from struggle_desktop.ui.learn.runner import GuideChooser
    monkeypatch.setattr(GuideChooser, "exec", lambda dialog: QDialog.DialogCode.Rejected)
    window.act_learn.trigger()
    assert getattr(window, "learn_runner", None) is None
    assert window.document.session is None


def test_new_game_learn_starts_that_games_guide_without_asking(window, several_guides,
                                                               monkeypatch):
    from struggle_desktop.ui.dialogs import new_game
    from struggle_desktop.ui.learn.runner import GuideChooser

    def no_chooser(_dialog):
        raise AssertionError("the New Game dialog's game has a guide: no chooser")

    monkeypatch.setattr(GuideChooser, "exec", no_chooser)
    monkeypatch.setattr(new_game, "choose_new_game",
                        lambda *a, **k: {"kind": "learn", "game": "struggle"})
    window.new_game_dialog()
    assert window.learn_runner.active and window.learn_runner.guide.game == "struggle"


def test_new_game_learn_with_another_game_starts_its_guide_in_its_window(window, monkeypatch,
                                                                         qtbot):
    """The New Game dialog's game is Battles: its guide starts, in a Battles window."""
    from PySide6.QtWidgets import QApplication

    from struggle_desktop.ui.dialogs import new_game
    from struggle_desktop.ui.learn.runner import GuideChooser

    def no_chooser(_dialog):
        raise AssertionError("the New Game dialog's game has a guide: no chooser")

    monkeypatch.setattr(GuideChooser, "exec", no_chooser)
    monkeypatch.setattr(new_game, "choose_new_game",
                        lambda *a, **k: {"kind": "learn", "game": "battles"})
    before = set(QApplication.topLevelWidgets())     # (earlier tests' windows included)
    window.new_game_dialog()
    started = [w for w in QApplication.topLevelWidgets() if w not in before or w is window
               if getattr(w, "learn_runner", None) is not None and w.learn_runner.active]
    try:
        assert [w.game_id for w in started] == ["battles"]
        assert started[0].learn_runner.guide.game == "battles"
        assert started[0].document.session.seed == started[0].learn_runner.guide.seed
    finally:
        for other in started:
            other.document.dirty = False
            other.close()
            other.deleteLater()


@pytest.mark.parametrize("speed", ["fast", "step"])
def test_restart_in_the_middle_of_the_chaos_moves_begins_cleanly(window, speed):
    """Restart while a narrated move is on show (the player watches at ``speed``): the new
    game's set-up is shown, with no move of the old game left to step through, and the guide
    is at its first step."""
    window.set_speed(speed)
    runner = GuideRunner(window, guide_for("struggle"))
    assert runner.start()
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    window.perform({"verb": "auto_place"})
    to_step(runner, "suppress")
    window.perform({"verb": "suppress"})
    runner.callout.next.click()
    assert runner.step.id == "chaos-moves" and window.playback.active
    runner.callout.restart.click()
    assert runner.index == 0 and actions(window) == []
    assert not window.playback.active
    assert window.document.board["turn"] == 0 and not window.document.showing_step
    window.continue_game()              # nothing of the old game comes back
    assert runner.index == 0 and window.document.board["turn"] == 0


TINY_NARRATION = """\
id: tiny-narration
game: struggle
title: Narration with nothing to tell
scenario: "1"
seed: 11
steps:
  - id: place
    target: {sector: 1}
    text: Place AF-05 on the Core.
    until: {action: {verb: place, unit: AF-05, at: 1}}
  - id: told
    target: {widget: watch-step}
    narrate: true
    text: The Chaos side's moves, if any.
    until: next
  - id: last
    target: {widget: map-view}
    text: The end.
    until: next
"""


def test_a_narrating_step_with_no_move_to_show_says_so(window, tmp_path, qtbot):
    from struggle_desktop.ui.learn.loader import load_guide
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY_NARRATION)
    runner = GuideRunner(window, load_guide(path))
    assert runner.start()
    window.tray_dropped("AF-05", 1, [])              # a set-up placement: no Chaos move
    assert runner.step.id == "told"
    qtbot.waitUntil(lambda: "No move of the other side" in runner.callout.body.text())
    assert not window.playback.active and runner.callout.next.isVisible()
    assert runner.marker.isVisible()                 # at the step's own target
    runner.callout.next.click()
    assert runner.step.id == "last"


def test_a_speed_chosen_during_the_narration_is_kept(window):
    """Instant pressed while the Chaos side's moves are told: the moves end, the guide goes
    on, and the speed stays the one the player chose (not the one before the guide)."""
    window.set_speed("fast")
    runner = GuideRunner(window, guide_for("struggle"))
    assert runner.start()
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    window.perform({"verb": "auto_place"})
    to_step(runner, "suppress")
    window.perform({"verb": "suppress"})
    assert runner.step.id == "chaos-moves" and window.speed == "step"
    runner.find_widget("watch-instant").click()
    assert runner.step.id == "income" and not window.playback.active
    assert window.speed == "instant"
    runner.callout.leave.click()
    assert window.speed == "instant"
