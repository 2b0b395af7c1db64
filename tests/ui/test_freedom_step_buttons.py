"""The Freedom Mission phase's step buttons (Continue at a call-off, Roll and Stop rolling in
the bonus segment, Keep the roll and Spend a mulligan) each have a place of their own, under
a question of fixed height: a button that comes after a click is never where the clicked one
was, at any width of the window. On a 1920x1080 screen Roll came where Continue had been
clicked (the call-off's note took one line there, as the bonus roll's did), so a second click
rolled a bonus die. Seen failing before."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractButton

from struggle_desktop.ui.freedom.window import FreedomWindow
from tests.ui.helpers import window_maker
from tests.ui.probes import settle
from tests.ui.test_freedom_steady import LAPTOP, control_at, play, start

#: The step buttons' names.
STEP_BUTTONS = {"freedom-continue", "freedom-roll", "freedom-stop", "freedom-keep",
                "freedom-mulligan"}
#: The window on a laptop's screen, on a 1920x1080 one, and between the two.
SIZES = [LAPTOP, (1600, 900), (1900, 1010)]


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, FreedomWindow, size=LAPTOP)


def step_buttons(win) -> dict[str, tuple[int, int]]:
    """The step buttons on show: object name -> its place in the window."""
    return {b.objectName(): b.mapTo(win, b.rect().topLeft()).toTuple()
            for b in win.resolution.findChildren(QAbstractButton)
            if b.objectName() in STEP_BUTTONS and b.isVisible()}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scenario", ["a1", "a3"])
def test_each_step_button_keeps_a_place_of_its_own(make_window, qtbot, scenario, size):
    """FIG-MIS-16, FIG-MIS-19, FIG-MIS-23: each step button is at one place whenever it is
    shown, in one row at one height, no other step button is ever there, and after each
    answer no enabled control under the pointer has become another one (its panel keeping
    its title)."""
    win = make_window()
    win.resize(*size)
    settle(3)
    start(win, scenario)
    places: dict[str, set] = {}
    moved: list[str] = []

    def check(before, action):
        for name, place in step_buttons(win).items():
            places.setdefault(name, set()).add(place)
        if win.overlay.isVisible():
            return
        for point, (text, title) in before.items():
            now = control_at(win, point)
            if now is not None and now != (text, title) and now[1] == title:
                moved.append(f"after {action}: {text!r} in {title!r} became {now[0]!r}")
    assert play(qtbot, win, limit=60, each=check) >= 5
    assert moved == [], "\n".join(moved[:10])
    assert len(places) >= 2, places
    assert all(len(found) == 1 for found in places.values()), places
    taken = [next(iter(found)) for found in places.values()]
    assert len(set(taken)) == len(taken), places
    # One row for every step: neither the question's length nor the banner's above it
    # (one line or two) moves it.
    assert len({y for _x, y in taken}) == 1, places
