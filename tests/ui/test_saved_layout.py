"""The saved dock layout: versioned by the window's panels, and never restored squeezed.

A layout saved when the window had other panels is not restored (the default layout is used and
the stale value removed); one saved with the same panels is; a layout saved while panels were
squeezed below their minimum width brings them back at least at that width.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget

from struggle_desktop.ui.screens import window_class

GAMES = ["struggle", "freedom"]


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def open_window(qtbot, settings):
    made = []

    def make(game_id, with_old_panel=False):
        cls = window_class(game_id)
        if with_old_panel:
            cls = type("WithOldPanel", (cls,), {"build_docks": build_docks_and_an_old_one})
        win = cls(settings=settings)
        made.append(win)
        win.resize(1600, 1000)
        win.show()
        qtbot.waitExposed(win)
        return win
    yield make
    for win in made:
        win.document.dirty = False
        win.close()
        win.deleteLater()


def build_docks_and_an_old_one(win):
    """The window's panels and one it no longer has (as a window of an earlier release)."""
    window_class(win.game_id).build_docks(win)
    extra = QDockWidget("Old panel", win)
    extra.setObjectName("panel-since-removed")
    win.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, extra)


def docked(win):
    return [d for d in win.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]


@pytest.mark.parametrize("game_id", GAMES)
def test_layout_saved_with_other_panels_is_not_restored(open_window, settings, game_id):
    # A layout saved by a window that also had a panel this one lacks, one panel hidden.
    first = open_window(game_id, with_old_panel=True)
    default_visible = {d.objectName() for d in docked(first)} - {"panel-since-removed"}
    hidden = sorted(default_visible)[0]
    first.findChild(QDockWidget, hidden).hide()
    first.document.dirty = False
    first.close()
    key = f"{first.layout_key}/state"
    assert settings.value(key) is not None

    second = open_window(game_id)
    assert second.findChild(QDockWidget, hidden).isVisible(), \
        "a layout saved with other panels was restored"
    assert {d.objectName() for d in docked(second)} == default_visible
    assert settings.value(key) is None, "the stale layout was kept"


@pytest.mark.parametrize("game_id", GAMES)
def test_layout_with_the_same_panels_is_restored(open_window, game_id):
    first = open_window(game_id)
    hidden = sorted(d.objectName() for d in docked(first))[0]
    first.findChild(QDockWidget, hidden).hide()
    first.document.dirty = False
    first.close()
    second = open_window(game_id)
    assert not second.findChild(QDockWidget, hidden).isVisible()


@pytest.mark.parametrize("game_id", GAMES)
def test_squeezed_layout_comes_back_at_the_minimum_widths(open_window, qtbot, game_id):
    """A guard rather than a fix's witness: Qt's dock layout already raises a restored panel
    to its minimum width (this passed before the layout was versioned too); it fails if a
    panel's minimum stops being enforced on restore."""
    first = open_window(game_id)
    right = [d for d in docked(first)
             if first.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
    assert right
    needs = {d.objectName(): d.minimumSizeHint().width() for d in right}
    # Squeeze the right-hand panels below their minimum (as a panel that changed width
    # between questions left them) and save that layout.
    for dock in right:
        dock.widget().setMinimumWidth(0)
        if dock.widget().widget() is not None:
            dock.widget().widget().setMinimumWidth(0)
    first.resizeDocks(right, [40] * len(right), Qt.Orientation.Horizontal)
    first.layout().activate()
    assert any(d.width() < needs[d.objectName()] for d in right), "nothing was squeezed"
    first.document.dirty = False
    first.close()

    second = open_window(game_id)
    for dock in docked(second):
        need = dock.minimumSizeHint().width()
        assert dock.width() >= need, f"{dock.objectName()} is {dock.width()} px, needs {need}"


def test_hand_edited_layout_value_is_dropped(open_window, settings):
    """A settings file edited by hand (a layout that is text, not saved bytes) opens the
    window with the default layout and the bad value removed."""
    settings.setValue("window/state", "not a layout")
    win = open_window("struggle")
    assert win.isVisible()
    assert settings.value("window/state") is None
