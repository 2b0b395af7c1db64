"""The Forecast and History panels: a forecast of the position on show runs in worker
processes while the window goes on handling events, gives figures that add up, says what they
rest on, compares two answers, and stops at once on Cancel; the History chart draws the
charted tracks turn by turn from the log, ends at the moment on show, and saves as a PNG."""

from __future__ import annotations

import multiprocessing

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage

from struggle_desktop.ui.freedom.window import FreedomWindow
from struggle_desktop.ui.main_window import MainWindow
from tests.ui.helpers import window_maker
from tests.ui.test_timeline import play


@pytest.fixture
def struggle(qtbot):
    maker = window_maker(qtbot, MainWindow)
    make = next(maker)
    win = make()
    win.set_speed("instant")
    assert win.new_game("struggle", "1", 3, {})
    play(win, 60)
    yield win
    next(maker, None)


def test_a_forecast_runs_beside_the_window_and_says_what_it_rests_on(struggle):
    dock = struggle.forecast_dock
    struggle.show_panel(dock)
    dock.games.setValue(40)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(5)
    dock.start()
    assert dock.running and not dock.run_button.isEnabled() and dock.cancel_button.isEnabled()
    assert dock.wait(120)
    timer.stop()
    (summary,) = dock.summaries
    assert summary["games"] == summary["completed"] == sum(summary["outcomes"].values()) == 40
    assert summary["from_action"] == struggle.document.history_length
    assert len(ticks) >= 3            # the window's own timer kept running meanwhile
    note = dock.note.text()
    assert "40 games" in note and "if you played like the program's player" in note
    assert dock.progress.value() == 40 and dock.run_button.isEnabled()
    assert [c for c in dock.fan_charts if c.isVisible()]
    assert multiprocessing.active_children() == []
    # The game moves on: the figures are said to be for an earlier moment.
    n = struggle.document.history_length
    play(struggle, 1)
    assert f"for action {n}; the moment on show is action {n + 1}" in dock.note.text()


def long_forecast_under_way(window):
    """A 3000-game forecast started in ``window``, once its first figures are in."""
    dock = window.forecast_dock
    window.show_panel(dock)
    dock.games.setValue(3000)
    dock.start()
    while not dock.summaries or not dock.summaries[0]:
        dock.wait(0.05)
    return dock


def test_cancel_stops_the_workers_at_once(struggle):
    dock = long_forecast_under_way(struggle)
    dock.cancel_button.click()
    assert dock.wait(60)
    (summary,) = dock.summaries
    assert summary["cancelled"] and 0 < summary["games"] < 3000
    assert "stopped" in dock.note.text()
    assert multiprocessing.active_children() == []


def test_two_answers_side_by_side(struggle):
    dock = struggle.forecast_dock
    struggle.show_panel(dock)
    doc = struggle.document
    answers = doc.legal_actions()
    assert len(answers) >= 2
    dock.games.setValue(20)
    dock.compare.setChecked(True)
    dock.answers[0].setCurrentIndex(0)
    dock.answers[1].setCurrentIndex(1)
    dock.start()
    assert dock.wait(120)
    first, second = dock.summaries
    assert first["games"] == second["games"] == 20
    assert first["digest"] != second["digest"]
    assert dock.labels == [doc.describe(answers[0]), doc.describe(answers[1])]


def test_the_history_chart_follows_the_log_and_the_moment_on_show(struggle, tmp_path):
    dock = struggle.history_dock
    struggle.show_panel(dock)
    doc = struggle.document
    turns = [e for e in doc.log_entries(0) if e.get("kind") == "turn"]
    assert len(turns) >= 2
    assert set(dock.lines) == {"ci", "vp", "rp"}
    xs, ys = dock.lines["ci"].getData()
    assert list(xs[:-1]) == [e["turn"] for e in turns]
    assert list(ys[:-1]) == [e["tracks"]["ci"] for e in turns]
    assert ys[-1] == doc.game.tracks(doc.state)["ci"]
    picture = tmp_path / "history.png"
    assert dock.export(picture) and not QImage(str(picture)).isNull()
    # Looking back to the first turn's start, the chart ends there.
    struggle.look_at(doc.turn_starts()[1])
    xs, _ = dock.lines["ci"].getData()
    assert max(xs) < len(turns)


def test_a_game_without_turn_tracks_says_so(qtbot):
    maker = window_maker(qtbot, FreedomWindow)
    make = next(maker)
    win = make()
    assert win.new_game("freedom", "a1", 1, {})
    win.show_panel(win.history_dock)
    assert "no tracks" in win.history_dock.note.text()
    assert not win.history_dock.export_button.isEnabled()
    next(maker, None)


def test_closing_the_window_stops_its_forecast(struggle):
    dock = long_forecast_under_way(struggle)
    struggle.document.dirty = False
    struggle.close()
    assert dock.wait(60)
    assert dock.summaries[0]["cancelled"] and dock.summaries[0]["games"] < 3000
    assert multiprocessing.active_children() == []
