"""Small helpers shared by the window tests."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from struggle_desktop.ui.map.view import MapView


def shown_view(qtbot, scene, width: int, height: int) -> MapView:
    """A map view on ``scene``, shown at the default (whole-map) zoom."""
    view = MapView(scene)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    view.zoom_reset()
    qtbot.addWidget(view)
    return view


def drag(qtbot, view, item, target_scene_point):
    """Press on ``item``, move in steps and release over ``target_scene_point`` (scene
    coordinates), as a mouse would on the view's viewport."""
    viewport = view.viewport()
    start_point = view.mapFromScene(item.sceneBoundingRect().center())
    end_point = view.mapFromScene(target_scene_point)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start_point)
    QTest.mouseMove(viewport, start_point + QPoint(6, 6))
    QTest.mouseMove(viewport, (start_point + end_point) / 2)
    QTest.mouseMove(viewport, end_point)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end_point)
    qtbot.wait(20)


def window_maker(qtbot, window_class, size=(1600, 1000), before_close=None):
    """The body of a ``make_window`` fixture (``yield from window_maker(qtbot, Cls)``):
    ``make()`` opens a shown window of ``size``; at the end of the test every window made
    closes without asking to save. Not ``qtbot.addWidget``: it would close the window before
    ``dirty`` is cleared, and the "save first?" question would wait for a click."""
    made = []

    def make():
        win = window_class()
        made.append(win)
        win.resize(*size)
        win.show()
        qtbot.waitExposed(win)
        return win
    yield make
    for win in made:
        if before_close is not None:
            before_close(win)
        win.document.dirty = False
        win.close()
        win.deleteLater()


#: A small Noble Houses map with a little of every terrain (the window tests' default).
NOBLES_TERRAIN = {"obstacles": 3, "jump_stations": 1, "empty_systems": 1, "stargate_pairs": 1}


def save_before_two_people_declare(path, seed=6):
    """A two-person game played headless (as ``human_move`` would) until both people are
    asked to declare in one fight (seed 6: a nuclear exchange in turn 11), saved at that
    fight's first declaration."""
    from struggle_desktop.engine.rng import Rng
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    game = get_game("nobles")
    options = {"houses": 2, **NOBLES_TERRAIN, "obstacles": 0, "stargate_pairs": 0,
               "seat1": "human", "seat2": "human"}
    session = Session.new(game, "standard", seed, options)
    asked: dict[tuple, tuple[int, set]] = {}
    for _ in range(3000):
        pending = session.state["pending"]
        if pending["kind"] in ("launch", "sacrifice"):
            key = (session.state["turn"], pending["kind"], tuple(pending["hex"]))
            first, roles = asked.setdefault(key, (len(session.actions), set()))
            roles.add(pending["role"])
            if len(roles) == 2:
                break
        rng = Rng.from_seed(len(session.actions), 3)
        legal = game.legal_actions(session.state, pending["role"])
        busy = [a for a in legal if a["verb"] != "done"]
        action = busy[rng.below(len(busy))] if busy and rng.below(3) else \
            legal[rng.below(len(legal))]
        session.perform(pending["role"], action)
    else:
        raise AssertionError("the two people never declared in one fight")
    replay = Session.new(game, "standard", seed, options)
    for entry in session.actions[:first]:
        replay.perform(entry["role"], entry["action"])
    replay.save(path)
    return replay


def struggle_window(qtbot, size=None):
    """The body of a ``window`` fixture (``yield from struggle_window(qtbot)``): a shown
    Struggle window that plays the Chaos side instantly, closed at the end of the test
    without asking to save."""
    from struggle_desktop.ui.main_window import MainWindow

    win = MainWindow()
    if size is not None:
        win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    win.set_speed("instant")
    yield win
    win.document.dirty = False
    win.close()
    win.deleteLater()
