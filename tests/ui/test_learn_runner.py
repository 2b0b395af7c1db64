"""The guide runner's course: it waits for the step's action and never plays for the person;
another move or a refused one gets the step's hint (the game takes or refuses it as always);
Back shows the step before, Restart begins the guide's game afresh, Leave closes the guide and
the game goes on as an ordinary one."""

from __future__ import annotations

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


def test_back_shows_the_step_before_and_restart_begins_again(window, runner):
    to_step(runner, "place-fleet")
    window.tray_dropped("AF-05", 1, [])
    runner.callout.back.click()
    assert runner.step.id == "place-fleet"
    assert runner.callout.next.isVisible()            # done already: Next goes on
    assert "Done already" in runner.callout.body.text()
    runner.callout.next.click()
    assert runner.step.id == "auto-place"
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


def test_help_learn_to_play_starts_the_guide_in_the_window(window):
    assert "Learn to Play" in window.act_learn.text().replace("&", "")
    window.act_learn.trigger()
    runner = window.learn_runner
    assert runner.active and runner.index == 0 and runner.callout.isVisible()
    assert window.document.session.seed == runner.guide.seed


def test_the_new_game_dialog_offers_the_guided_game(window, qtbot):
    from struggle_desktop.ui.dialogs.new_game import NewGameDialog
    dialog = NewGameDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.learn_button.click()
    assert dialog.choice() == {"kind": "learn"}
