"""The refused gestures the steady-table walk tries (``steadiness``): for the question on
show, a drop or a click the window must refuse, made with the mouse as a player makes it.
Each sample is ``(check, words, gesture, greyed)``: ``check`` is ``why``, or ``why-pickup`` for
a counter that may not move now at all, ``greyed`` the refused control whose tooltip may be
the reason (else None); the walk makes the gesture and then looks for the reason
on screen (the status bar, or the greyed control's tooltip) and checks that nothing was played.

* Struggle: a counter dragged to a sector none of its pieces may go to now (one the question
  moves when it moves any, else any counter on the map: it has nowhere to go);
* Battles: a fleet dragged to a region it may not be deployed to (or, when no fleet moves
  now, any fleet of the seat dragged onto a region);
* Noble Houses: a jumpship dragged out of its range (or, when no ship may jump now, the seat's
  first ship dragged to another hex);
* Battles, ``why-click``: while a region to resolve is asked, a click on a region with no
  fight (nothing else happens: no selection, no view; a click on a Struggle sector or a Noble
  Houses hex that answers nothing is not a refusal but a look, it selects what was clicked);
* every window: a click on each greyed push button in view (Freedom has no board: its refused
  clicks are its greyed buttons); the reason is the button's tooltip.

The Struggle tray's counters are dragged with Qt's drag and drop (a nested event loop a
synthetic mouse cannot drive), so the walk drops only counters on the map; the tray's own
refusal is checked in ``test_tray``.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton


def click(view, at: QPointF) -> None:
    """A click at the scene point ``at`` on the view's viewport."""
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(at))


def drag(view, start: QPointF, end: QPointF) -> None:
    """Press at ``start``, move in steps and release at ``end`` (scene points) on the view's
    viewport, as a mouse does."""
    viewport = view.viewport()
    a, b = view.mapFromScene(start), view.mapFromScene(end)
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(viewport, left, none, a)
    QTest.mouseMove(viewport, a + QPoint(8, 8))
    QTest.mouseMove(viewport, (a + b) / 2)
    QTest.mouseMove(viewport, b)
    QTest.mouseRelease(viewport, left, none, b)


def samples(window) -> list[tuple]:
    """The refused gestures to try in ``window`` now (see the module's docstring)."""
    board = window.document.board
    if not board or board.get("outcome"):
        return []
    found = list(greyed_buttons(window))
    made = [maker(window, board) for maker in BY_GAME.get(window.document.game.id, ())]
    return [sample for sample in made if sample] + found


def greyed_buttons(window):
    """Each greyed push button in view: a click on it, its tooltip the reason."""
    for button in window.findChildren(QPushButton):
        if button.isVisible() and not button.isEnabled() and button.window() is window \
                and not button.visibleRegion().isEmpty():
            yield ("why", f"a click on the greyed button {button.text()!r}",
                   lambda b=button: QTest.mouseClick(b, Qt.MouseButton.LeftButton), button)


def _away_from(places, taken) -> list:
    return [p for p in places if p not in taken]


def _to_drag(movable: list, others: list) -> tuple:
    """The counter to drag and the check it serves: the first that may move now (dropped
    where it may not go: ``why``), else the first of the others (it may not move at all:
    ``why-pickup``); (None, None) when there is none."""
    if movable:
        return movable[0], "why"
    return (others[0], "why-pickup") if others else (None, None)


# ------------------------------------------------------------------ one window each
def struggle_drop(window, board):
    scene = window.scene
    if scene is None or window.playback.active:
        return None
    prompt = board.get("prompt") or {"actions": []}
    piece, check = _to_drag(
        [e["drop"]["piece"] for e in prompt["actions"]
         if (e.get("drop") or {}).get("piece") and scene.piece_item(e["drop"]["piece"])],
        [pid for pid, p in sorted(board["pieces"].items())
         if p.get("sector") is not None and scene.piece_item(pid) is not None])
    if piece is None:
        return None
    item = scene.piece_item(piece)
    # The scene drags the first piece of the counter that may move: none may go there.
    legal = set().union(*(window.drag_targets(p) for p in item.piece_ids))
    wrong = _away_from(sorted(board["sectors"]), legal | {item.sector})
    return wrong and (check, f"counter {piece} dragged to sector {wrong[0]:02d}",
                      lambda: drag(window.view, item.sceneBoundingRect().center(),
                                   scene.sector_center(wrong[0])), None)


def battles_drop(window, board):
    scene = window.scene
    if scene is None or scene.battle_rect is not None:
        return None
    fleet, check = _to_drag(
        [f for f in sorted(scene.counters) if window.draggable(f)],
        [f for f in sorted(scene.counters)
         if board["fleets"].get(f, {}).get("owner") == board["seat"]])
    if fleet is None:
        return None
    legal = {int(t[7:]) for t in window.drop_targets(fleet) if t.startswith("region:")}
    # Not onto a region a click resolves: the scene takes any release there for a click
    # (a defect of its own, reported; a drag must not play it here).
    clicked = {a["region"] for a in window.prompt_actions() if a["verb"] == "resolve"}
    wrong = _away_from(sorted(scene.region_rects), legal | clicked)
    item = scene.counters[fleet]
    return wrong and (check, f"fleet {fleet} dragged to region {wrong[0]}",
                      lambda: drag(window.view, item.sceneBoundingRect().center(),
                                   scene.region_rects[wrong[0]].center()), None)


def nobles_drop(window, board):
    scene = window.scene
    if scene is None or not board.get("map"):
        return None
    ships = sorted(u for u in scene.tokens if board["units"].get(u, {}).get("is_ship"))
    ship, check = _to_drag([s for s in ships if window.draggable(s)],
                           [s for s in ships if board["units"][s]["owner"] == board["seat"]])
    if ship is None:
        return None
    here = tuple(board["units"][ship]["hex"])
    legal = {tuple(int(v) for v in k.split(",")) for k in window.drop_targets(ship)}
    far = _away_from(sorted((tuple(h["hex"]) for h in board["map"]["hexes"]),
                            key=lambda h: -abs(h[0] - here[0]) - abs(h[1] - here[1])),
                     legal | {here})
    token = scene.tokens[ship]
    return far and (check, f"jumpship {ship} dragged to hex {far[0]}",
                    lambda: drag(window.view, token.sceneBoundingRect().center(),
                                 scene.centre(far[0])), None)


# ------------------------------------------------------------------ refused clicks
def clear_point(scene, places, kinds) -> tuple:
    """The first of ``places`` (name, scene point) where no item of ``kinds`` lies (a click
    there is on the board, not on a counter)."""
    return next(((name, at) for name, at in places
                 if not any(isinstance(i, kinds) for i in scene.items(at))), (None, None))


def battles_click(window, board):
    """A region with no fight to resolve clicked, while a region to resolve is asked."""
    from struggle_desktop.ui.battles.scene import CounterItem

    scene = window.scene
    resolvable = {a["region"] for a in window.prompt_actions() if a["verb"] == "resolve"}
    if scene is None or scene.battle_rect is not None or not resolvable:
        return None
    n, at = clear_point(scene, [(n, QPointF(rect.left() + dx, rect.top() + dy))
                                for n, rect in sorted(scene.region_rects.items())
                                if n not in resolvable
                                for dx, dy in ((rect.width() / 2, rect.height() / 2), (8, 8))],
                        CounterItem)
    return n is not None and ("why-click", f"a click on region {n}, which has no fight to "
                              "resolve", lambda: click(window.view, at), None)


#: The refused drops and clicks each board is tried with.
BY_GAME = {"struggle": (struggle_drop,), "battles": (battles_drop, battles_click),
           "nobles": (nobles_drop,)}
#: The checks of refusals on a board each window has (the others do not apply to it).
BOARD_CHECKS = {"struggle": ("why-pickup",), "battles": ("why-pickup", "why-click"),
                "nobles": ("why-pickup",)}
