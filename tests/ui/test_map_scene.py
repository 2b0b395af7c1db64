"""The galaxy scene: counters in their sectors, stacks, real mouse drags, hover, clicks, the
fan-out, highlights and the Chaos-turn emphasis."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtTest import QTest

from struggle_desktop.engine.session import Session
from struggle_desktop.ui.map import counters
from struggle_desktop.ui.map.counters import CounterItem
from struggle_desktop.ui.map.scene import Z_FAN, EmphasisItem, GalaxyScene
from tests.ui.helpers import shown_view
from tests.games.struggle.helpers import bot_session


@pytest.fixture(scope="module")
def layout(game):
    return game.map_layout()


@pytest.fixture(scope="module")
def busy_board(game):
    """Scenario 4 with every option, a few turns in: stacks of ten counters in the Core."""
    return game.board(bot_session(game, "4", 3, actions=40).state, "imperial")


@pytest.fixture
def scene(qapp, layout, busy_board):
    scene = GalaxyScene(layout)
    scene.show_board(busy_board)
    return scene


@pytest.fixture
def view(qtbot, scene):
    return shown_view(qtbot, scene, 1000, 800)


def inside(scene, n: int, point: QPointF) -> bool:
    return scene.geometry[n].polygon.containsPoint(point, Qt.FillRule.OddEvenFill)


def movable(board):
    """An Imperial unit drawn as a counter of its own, and two other sectors."""
    for pid, p in board["pieces"].items():
        if p["kind"] == "unit" and p["side"] == "imp" and not p.get("force"):
            return pid, p["sector"]
    raise AssertionError("no Imperial unit on the board")


def drag(view, start: QPointF, end: QPointF, release: bool = True) -> None:
    """A real mouse drag on the view's viewport, from one scene point to another."""
    viewport = view.viewport()
    a, b = view.mapFromScene(start), view.mapFromScene(end)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    QTest.mouseMove(viewport, a + QPoint(8, 8))
    QTest.mouseMove(viewport, (a + b) / 2)
    QTest.mouseMove(viewport, b)
    if release:
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def empty_spot(scene, n: int) -> QPointF:
    """A point of sector n with no counter on it (its label: part of the map, not an item)."""
    return scene.geometry[n].label_rect.center()


# ---------------------------------------------------------------------------- the position
def test_every_piece_is_drawn_inside_its_sector(scene, busy_board):
    assert len(busy_board["pieces"]) > 100
    for pid, piece in busy_board["pieces"].items():
        item = scene.piece_item(pid)
        assert item is not None, pid
        assert pid in item.piece_ids
        assert inside(scene, piece["sector"], item.scenePos()), (pid, piece["sector"])


def test_identical_units_collapse_into_one_counter_with_a_count(scene, busy_board):
    stacks = {}
    for pid, p in busy_board["pieces"].items():
        if p["kind"] == "unit" and not p.get("leader"):
            key = (p["sector"], p["type"], p["side"], p.get("force"), p["values"])
            stacks.setdefault(key, []).append(pid)
    collapsed = [ids for ids in stacks.values() if len(ids) > 1]
    assert collapsed, "the busy position has stacks of identical units"
    for ids in collapsed:
        item = scene.piece_item(ids[0])
        assert all(scene.piece_item(pid) is item for pid in ids)
        assert item.count == len(ids)
        assert f"{len(ids)} identical counters" in item.toolTip()
    # A unit with a leader is never folded into others.
    for pid, p in busy_board["pieces"].items():
        if p.get("leader"):
            assert scene.piece_item(pid).piece_ids == [pid]


def test_show_board_replaces_the_counters(scene, game, busy_board):
    opening = game.board(Session.new(game, "2", 1).state, "imperial")
    scene.show_board(opening)
    shown = [i for i in scene.items() if isinstance(i, CounterItem)]
    assert len(shown) == len(opening["pieces"]) == len(scene.counter_items())
    assert all(scene.piece_item(pid) is None for pid in busy_board["pieces"]
               if pid not in opening["pieces"])


def test_sector_and_counter_tooltips_come_from_the_board(scene, busy_board):
    assert scene.sector_tooltip(1) == busy_board["sectors"][1]["tooltip"]
    pid = next(p for p, v in busy_board["pieces"].items() if v["kind"] == "system")
    assert scene.piece_item(pid).toolTip() == busy_board["pieces"][pid]["tooltip"]


def test_imperial_and_chaos_counters_differ_in_shape_not_only_colour(qapp):
    """Colour-blind players tell the sides apart by the silhouette: compare alpha masks."""
    def mask(side):
        image = QImage(40, 40, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(20, 20)
        counters.paint_piece(painter, {"kind": "unit", "side": side, "label": "AF",
                                       "values": "3-1-3"})
        painter.end()
        return [[image.pixelColor(x, y).alpha() > 128 for x in range(40)] for y in range(40)]
    imperial, chaos = mask("imp"), mask("chaos")
    differing = sum(a != b for ra, rb in zip(imperial, chaos) for a, b in zip(ra, rb))
    assert differing >= 12      # the clipped corners


# ---------------------------------------------------------------------------- dragging
def rules(targets_of: dict[str, dict], reason="not there"):
    return (lambda pid: targets_of.get(pid, {}),
            lambda pid, n: f"{reason}: {pid} to {n}")


def test_dragging_a_counter_onto_a_legal_sector_emits_piece_dropped(qtbot, scene, view, busy_board):
    pid, home = movable(busy_board)
    target = next(n for n in busy_board["sectors"] if n != home)
    scene.set_drag_rules(*rules({pid: {target: "move"}}))
    item = scene.piece_item(pid)
    with qtbot.waitSignal(scene.piece_dropped, timeout=2000) as dropped, \
            qtbot.assertNotEmitted(scene.drop_refused):
        drag(view, item.scenePos(), empty_spot(scene, target))
    assert dropped.args == [pid, target]


def test_dropping_on_an_illegal_sector_returns_the_counter_with_the_reason(qtbot, scene, view,
                                                                           busy_board):
    pid, home = movable(busy_board)
    legal = next(n for n in busy_board["sectors"] if n not in (home, 40))
    scene.set_drag_rules(*rules({pid: {legal: "move"}}))
    item = scene.piece_item(pid)
    start = QPointF(item.scenePos())
    with qtbot.waitSignal(scene.drop_refused, timeout=2000) as refused, \
            qtbot.assertNotEmitted(scene.piece_dropped):
        drag(view, start, empty_spot(scene, 40))
    assert refused.args == [pid, f"not there: {pid} to 40"]
    back = scene.piece_item(pid)
    assert (back.scenePos() - start).manhattanLength() < 0.5
    assert not scene.highlighted("legal")


def test_dropping_outside_the_map_is_refused(qtbot, scene, view, busy_board):
    pid, _home = movable(busy_board)
    scene.set_drag_rules(*rules({pid: {n: 1 for n in busy_board["sectors"]}}))
    outside = QPointF(-30, 500)
    assert scene.sector_at(outside) == -1
    with qtbot.waitSignal(scene.drop_refused, timeout=2000) as refused:
        drag(view, scene.piece_item(pid).scenePos(), outside)
    assert refused.args == [pid, "dropped outside the map"]


def test_picking_up_highlights_exactly_the_legal_sectors(qtbot, scene, view, busy_board):
    pid, home = movable(busy_board)
    legal = {n for n in busy_board["sectors"] if n != home}
    legal = set(sorted(legal)[:5])
    scene.set_drag_rules(*rules({pid: {n: "move" for n in legal}}))
    drag(view, scene.piece_item(pid).scenePos(), empty_spot(scene, min(legal)),
         release=False)
    assert scene.dragging
    assert scene.highlighted("legal") == legal
    end = view.mapFromScene(empty_spot(scene, min(legal)))
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier, end)
    assert not scene.dragging and scene.highlighted("legal") == set()


def test_a_counter_without_targets_stays_and_says_why_instead_of_panning(qtbot, scene, view,
                                                                        busy_board):
    pid, _home = movable(busy_board)
    scene.set_drag_rules(*rules({}), lambda piece: f"{piece} has moved this turn")
    view.zoom_in()
    view.zoom_in()
    item = scene.piece_item(pid)
    view.centerOn(item)
    start = QPointF(item.scenePos())
    scroll = (view.horizontalScrollBar().value(), view.verticalScrollBar().value())
    with qtbot.assertNotEmitted(scene.piece_dropped), \
            qtbot.waitSignal(scene.drop_refused, timeout=2000) as refused:
        drag(view, start, start + QPointF(60, 40))
    assert refused.args == [pid, f"{pid} has moved this turn"]
    assert not scene.dragging
    assert (item.scenePos() - start).manhattanLength() < 0.5
    # The drag was the counter's: the map did not move under it.
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) == scroll


def test_a_press_and_release_on_a_counter_that_cannot_move_is_a_click(qtbot, scene, view,
                                                                     busy_board):
    pid, home = movable(busy_board)
    scene.set_drag_rules(*rules({}), lambda piece: "no")
    with qtbot.waitSignal(scene.sector_clicked, timeout=2000) as clicked, \
            qtbot.assertNotEmitted(scene.drop_refused):
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier,
                         view.mapFromScene(scene.piece_item(pid).scenePos()))
    assert clicked.args == [home]


def test_dragging_a_collapsed_counter_moves_one_unit(qtbot, scene, view, busy_board):
    group = next(i for i in scene.counter_items() if i.count > 1 and i.side == "imp") \
        if any(i.count > 1 and i.side == "imp" for i in scene.counter_items()) \
        else next(i for i in scene.counter_items() if i.count > 1)
    ids = group.piece_ids
    # Only the second unit of the stack may move: the drag must pick that one.
    target = next(n for n in busy_board["sectors"] if n != group.sector)
    scene.set_drag_rules(*rules({ids[1]: {target: "move"}}))
    drag(view, group.scenePos(), empty_spot(scene, target), release=False)
    assert group.count == len(ids) - 1          # one lent to the drag
    end = view.mapFromScene(empty_spot(scene, target))
    with qtbot.waitSignal(scene.piece_dropped, timeout=2000) as dropped:
        QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier, end)
    assert dropped.args == [ids[1], target]


def test_a_refused_collapsed_counter_gets_its_unit_back(qtbot, scene, view, busy_board):
    group = next(i for i in scene.counter_items() if i.count > 1)
    count = group.count
    scene.set_drag_rules(*rules({pid: {group.sector: 1} for pid in group.piece_ids}))
    with qtbot.waitSignal(scene.drop_refused, timeout=2000):
        drag(view, group.scenePos(), QPointF(-30, 500))
    assert group.count == count
    assert [i for i in scene.items() if isinstance(i, CounterItem) and i.count == 1
            and i.piece_ids[0] in group.piece_ids] == []


def test_show_board_during_a_drag_waits_for_the_drop(qtbot, scene, view, game, busy_board):
    pid, _home = movable(busy_board)
    scene.set_drag_rules(*rules({pid: {40: 1}}))
    drag(view, scene.piece_item(pid).scenePos(), empty_spot(scene, 40), release=False)
    opening = game.board(Session.new(game, "2", 1).state, "imperial")
    scene.show_board(opening)
    assert scene.board is busy_board                  # not yet: the counter is in the hand
    end = view.mapFromScene(empty_spot(scene, 40))
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier, end)
    assert scene.board is opening


# ---------------------------------------------------------------------------- pointer
def test_hovering_a_sector_emits_its_number_and_minus_one_off_the_map(qtbot, scene, view):
    with qtbot.waitSignal(scene.sector_hovered, timeout=2000) as hovered:
        QTest.mouseMove(view.viewport(), view.mapFromScene(empty_spot(scene, 40)))
    assert hovered.args == [40]
    with qtbot.waitSignal(scene.sector_hovered, timeout=2000) as left:
        QTest.mouseMove(view.viewport(), view.mapFromScene(QPointF(-30, 500)))
    assert left.args == [-1]


def test_clicking_a_sector_selects_it(qtbot, scene, view):
    with qtbot.waitSignal(scene.sector_clicked, timeout=2000) as clicked, \
            qtbot.waitSignal(scene.selection_changed, timeout=2000) as selected:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, view.mapFromScene(empty_spot(scene, 40)))
    assert clicked.args == [40] and selected.args == [40]
    assert scene.selected_sector == 40
    with qtbot.waitSignal(scene.selection_changed) as cleared:
        scene.select_sector(-1)
    assert cleared.args == [-1] and scene.selected_sector == -1


def test_a_crowded_sector_fans_out_on_hover_and_folds_when_the_pointer_leaves(qtbot, scene, view,
                                                                              busy_board):
    crowded = next(n for n in busy_board["sectors"] if scene.is_crowded(n))
    pieces = busy_board["sectors"][crowded]["pieces"]
    QTest.mouseMove(view.viewport(), view.mapFromScene(empty_spot(scene, crowded)))
    qtbot.waitUntil(lambda: scene.fanned_sector == crowded, timeout=3000)
    fanned = scene.fan_items()
    assert sorted(i.piece_ids[0] for i in fanned) == sorted(pieces)   # every piece, one by one
    assert all(i.zValue() > Z_FAN for i in fanned)
    QTest.mouseMove(view.viewport(), view.mapFromScene(QPointF(-30, 500)))
    assert scene.fanned_sector == -1 and scene.fan_items() == []


def test_clicking_a_crowded_sector_fans_it_out_at_once(qtbot, scene, view, busy_board):
    crowded = next(n for n in busy_board["sectors"] if scene.is_crowded(n))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(empty_spot(scene, crowded)))
    assert scene.fanned_sector == crowded


# ---------------------------------------------------------------------------- marks
def test_highlights_by_kind_replace_and_clear(scene):
    scene.highlight([1, 2], "target")
    scene.highlight([3], "legal")
    assert scene.highlighted("target") == {1, 2} and scene.highlighted("legal") == {3}
    scene.highlight([5], "target")
    assert scene.highlighted("target") == {5}
    plain = scene.sectors[6].fill.color()
    assert scene.sectors[5].washes == {"target"} and scene.sectors[1].washes == set()
    scene.clear_highlight("target")
    assert scene.highlighted("target") == set() and scene.highlighted("legal") == {3}
    scene.clear_highlight()
    assert scene.highlighted("legal") == set() and not scene.sectors[3].washes
    assert scene.sectors[6].fill.color() == plain
    with pytest.raises(ValueError):
        scene.highlight([1], "sparkle")


def test_emphasis_rings_sectors_draws_an_arrow_and_is_replaced(scene):
    scene.emphasize([12, 18], arrow=(12, 18), text="Chaos force F3 moves to 18")
    first = scene.emphasis
    assert isinstance(first, EmphasisItem) and not first.arrow.isEmpty()
    assert first.boundingRect().contains(scene.sector_center(12))
    assert first.boundingRect().contains(scene.sector_center(18))
    scene.emphasize([7])
    assert scene.emphasis is not first and scene.emphasis.arrow.isEmpty()
    assert sum(isinstance(i, EmphasisItem) for i in scene.items()) == 1
    scene.clear_emphasis()
    assert scene.emphasis is None
    assert not any(isinstance(i, EmphasisItem) for i in scene.items())


def test_sector_centres_lie_inside_their_sectors(scene):
    for n in scene.geometry:
        assert inside(scene, n, scene.sector_center(n))
        assert scene.sector_at(scene.sector_center(n)) == n


def test_a_click_on_the_fan_card_reaches_the_sector_drawn_under_it(qtbot, scene, view,
                                                                    busy_board):
    """The card that fans a stack out takes no click of its own: a click on it, between its
    counters, is a click on the sector under the pointer (and closes the card if that is
    another sector)."""
    crowded = max((n for n in busy_board["sectors"] if scene.is_crowded(n)),
                  key=lambda n: len(busy_board["sectors"][n]["pieces"]))
    scene.open_fan(crowded)
    card = scene._fan_rect
    fanned = scene.fan_items()
    covered = [i.sceneBoundingRect() for i in fanned]
    spots = [QPointF(card.left() + card.width() * i / 12, card.top() + card.height() * j / 12)
             for i in range(1, 12) for j in range(1, 12)]
    spots = [p for p in spots if not any(r.contains(p) for r in covered)
             and scene.sector_at(p) not in (-1, crowded)]
    assert spots, "the card covers another sector somewhere between its counters"
    spot = spots[0]
    under = scene.sector_at(spot)
    with qtbot.waitSignal(scene.sector_clicked, timeout=2000) as clicked:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, view.mapFromScene(spot))
    assert clicked.args == [under]
    assert scene.selected_sector == under
    assert scene.fanned_sector != crowded


def test_a_click_on_the_fan_card_over_its_own_sector_selects_it_and_keeps_it_open(
        qtbot, scene, view, busy_board):
    crowded = next(n for n in busy_board["sectors"] if scene.is_crowded(n))
    scene.open_fan(crowded)
    card = scene._fan_rect
    covered = [i.sceneBoundingRect() for i in scene.fan_items()]
    spot = next(p for p in (QPointF(card.left() + card.width() * i / 12,
                                    card.top() + card.height() * j / 12)
                            for i in range(1, 12) for j in range(1, 12))
                if not any(r.contains(p) for r in covered) and scene.sector_at(p) == crowded)
    with qtbot.waitSignal(scene.sector_clicked, timeout=2000) as clicked:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, view.mapFromScene(spot))
    assert clicked.args == [crowded]
    assert scene.fanned_sector == crowded


def test_emphasis_asks_the_view_to_show_the_callout(qtbot, scene):
    with qtbot.waitSignal(scene.wants_visible, timeout=2000) as wanted:
        scene.emphasize([12, 18], arrow=(12, 18), text="Chaos force F3 moves to 18")
    rect = wanted.args[0]
    assert rect.contains(scene.emphasis.caption_rect)
    assert rect.contains(scene.emphasis.arrow.boundingRect())


def test_a_click_to_look_at_a_sector_answers_no_question_the_map_does_not_ask(qtbot):
    """Citizens Demand Reforms asks which system to leave unpaid (a list answer, not a
    placement or a move). A click on sector 17 to look at it once answered "Leave the system
    in sector 17 unpaid". The map answers a click only when the question is one it gives
    (a placement, a move, a purchase or an attack on a sector: "You can also do this on the
    map"); any other click selects the sector, and answers nothing."""
    from tests.games.struggle.helpers import begin_phase, new_game
    from tests.games.struggle.test_events import phase1_with
    from tests.ui.helpers import struggle_window

    gen = struggle_window(qtbot)
    window = next(gen)
    try:
        assert window.new_game("struggle", "1", 1, {})
        state = new_game("1", seed=1)
        begin_phase(state, 1, turn=2)
        state["rp"], state["available"]["repression"] = 1, 0
        phase1_with(state, ["REFORMS"], 1, dice=[0], fallback=True)
        assert state["pending"]["kind"] == "event_unpaid"
        document = window.document
        document.session.state = state          # the game at the Reforms question
        document._board = None
        document.changed.emit()
        prompt = document.board["prompt"]
        unpaid = [e for e in prompt["actions"] if e["action"].get("sector") == 17]
        assert unpaid and unpaid[0]["label"].startswith("Leave the system in sector 17")
        actions = len(document.session.actions)
        window.view.centre_on_sector(17)
        point = window.view.mapFromScene(window.scene.sector_center(17))
        viewport = window.view.viewport()
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         point)
        QTest.mouseMove(viewport, point + QPoint(1, 0))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                           point + QPoint(1, 0))
        qtbot.wait(20)
        assert window.scene.selected_sector == 17            # the click looked at it ...
        assert len(document.session.actions) == actions       # ... and answered nothing
        assert document.board["prompt"]["kind"] == "event_unpaid"
        assert window.sector_actions(17) == []
    finally:
        next(gen, None)
