"""Stacks on the galaxy map, the marks of the last moves, and the map's gestures in the
Struggle window: piles that keep the sides apart and stay inside their sectors, the badges
that count them, free placement of any counter the rules let adjust, and the reasons a
counter stays where it is."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath
from PySide6.QtTest import QTest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.ui.map.counters import UNIT_SIZE, CounterItem, counter_extent
from struggle_desktop.ui.map.marks import MoveMarks, turn_moves
from struggle_desktop.ui.map.scene import GalaxyScene
from struggle_desktop.ui.map.stacks import PileBadge, lay_out, side_class
from tests.ui.helpers import window_maker

#: Played positions (scenario, seed, bot actions) where counters outnumber the slots of
#: their sectors, sides share sectors, and (before piles were laid out inside the sectors)
#: a pile reached over a border.
PLAYED = [("3", 4, 25), ("4", 1, 175), ("4", 5, 150), ("2", 5, 100), ("2", 3, 200),
          ("5", 4, 50), ("3", 1, 60)]


def played_board(game, scenario: str, seed: int, actions: int) -> dict:
    """The Imperial board after the program's player took ``actions`` actions (no options)."""
    session = Session.new(game, scenario, seed, {}, record_digests=False)
    rng = Rng.from_seed(seed, 5)
    for _ in range(actions):
        if game.outcome(session.state) is not None:
            break
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot", rng))
    return game.board(session.state, "imperial")


@pytest.fixture(scope="module")
def boards(game):
    return [played_board(game, *position) for position in PLAYED]


@pytest.fixture(scope="module")
def layout(game):
    return game.map_layout()


@pytest.fixture
def scene(qapp, layout):
    return GalaxyScene(layout)


def inside(scene, n: int, point: QPointF) -> bool:
    return scene.geometry[n].polygon.containsPoint(point, Qt.FillRule.OddEvenFill)


def map_counters(scene) -> list[CounterItem]:
    return [i for i in scene.counter_items() if not i.in_fan]


# ---------------------------------------------------------------------------- placement
def test_every_counter_sits_inside_its_own_sector_in_played_games(scene, boards):
    for board in boards:
        scene.show_board(board)
        for item in map_counters(scene):
            assert inside(scene, item.sector, item.scenePos()), \
                (board["turn"], item.piece_ids, item.sector, item.scenePos())


def test_counters_of_different_sides_never_share_a_spot(scene, boards):
    """An enemy is never hidden under a friend: counters of two sides in one sector are at
    least half a counter apart, so each shows at least half of its face."""
    checked = 0
    for board in boards:
        scene.show_board(board)
        by_sector: dict[int, list[CounterItem]] = {}
        for item in map_counters(scene):
            if item.kind not in ("nexus", "stargate", "institute", "expedition"):
                by_sector.setdefault(item.sector, []).append(item)
        for n, items in by_sector.items():
            for a in items:
                for b in items:
                    if side_class(a.piece) < side_class(b.piece):
                        checked += 1
                        gap = math.dist((a.x(), a.y()), (b.x(), b.y()))
                        assert gap >= UNIT_SIZE / 2, (n, a.piece_ids, b.piece_ids, gap)
    assert checked > 20          # the positions do mix the sides


def test_every_pile_carries_a_badge_with_its_count_per_side(scene, boards):
    piles_seen = 0
    for board in boards:
        scene.show_board(board)
        badges = scene.pile_badges()
        for n in board["sectors"]:
            for pile in scene.piles(n):
                if len(pile.groups) < 2:
                    continue
                piles_seen += 1
                top = pile.positions[-1]
                mine = [b for b in badges if b.sector == n and
                        math.dist((b.x(), b.y()), (top.x() - UNIT_SIZE / 2 + 1,
                                                   top.y() - UNIT_SIZE / 2 + 3.5)) < 0.5]
                assert len(mine) == 1, (n, pile.counts())
                assert mine[0].counts == pile.counts()
                assert sum(mine[0].counts.values()) == sum(len(g) for g in pile.groups)
                assert len(pile.counts()) == 1, "a pile holds one side where there is room"
        # Every piece of a sector is in one of its piles (pins apart).
        for n, sec in board["sectors"].items():
            listed = sorted(pid for pid in sec["pieces"] if board["pieces"][pid]["kind"] not in
                            ("nexus", "stargate", "institute", "expedition"))
            piled = sorted(p["id"] for pile in scene.piles(n) for g in pile.groups for p in g)
            assert piled == listed, n
    assert piles_seen > 10


def _one_slot_sector(scene) -> int:
    return next(n for n, geo in sorted(scene.geometry.items()) if len(geo.slots) == 1
                and geo.system)


def _mixed_board(game, scene) -> tuple[dict, int]:
    """The player's case: an Imperial Order and an Alpha Fleet share a sector of one slot
    with a Rebel Star Fleet and a Chaos system unit."""
    board = game.board(Session.new(game, "3", 1).state, "imperial")
    n = _one_slot_sector(scene)
    pieces = {}
    for pid in board["sectors"][n]["pieces"]:
        pieces[pid] = board["pieces"].pop(pid)
    for sec in board["sectors"].values():
        sec["pieces"] = [p for p in sec["pieces"] if p in board["pieces"]]
    new = [
        {"id": "IO-09", "kind": "unit", "type": "IO", "side": "imp", "label": "IO",
         "values": "2-2-3", "leader": None, "force": None},
        {"id": "AF-31", "kind": "unit", "type": "AF", "side": "imp", "label": "AF",
         "values": "3-1-3", "leader": None, "force": None},
        {"id": "SF-32", "kind": "unit", "type": "SF", "side": "chaos", "label": "SF",
         "values": "2-0-2", "leader": None, "force": None},
        {"id": f"system:{n}", "kind": "system", "type": "system", "side": "chaos",
         "label": "S22", "values": "1-2", "rv": 2, "ie": None},
    ]
    for piece in new:
        piece.update(sector=n, tooltip=piece["id"])
        board["pieces"][piece["id"]] = piece
    board["sectors"][n]["pieces"] = [p["id"] for p in new]
    return board, n


def visible_share(item: CounterItem, above: list[CounterItem]) -> float:
    """The share of ``item``'s face not covered by the counters drawn over it."""
    r = counter_extent(item.piece)
    points = [QPointF(item.x() + r * (i / 5 - 1), item.y() + r * (j / 5 - 1))
              for i in range(11) for j in range(11)]
    covered = sum(any(abs(p.x() - o.x()) < counter_extent(o.piece) and
                      abs(p.y() - o.y()) < counter_extent(o.piece) for o in above)
                  for p in points)
    return 1 - covered / len(points)


def test_a_sector_of_one_slot_shows_both_sides_and_their_counts(scene, game):
    board, n = _mixed_board(game, scene)
    scene.show_board(board)
    items = [i for i in map_counters(scene) if i.sector == n]
    assert len(items) == 4
    for item in items:
        # The other side's counters leave at least half of it to be seen.
        above = [o for o in items if o.zValue() > item.zValue()
                 and side_class(o.piece) != side_class(item.piece)]
        assert visible_share(item, above) >= 0.5, item.piece_ids
        assert inside(scene, n, item.scenePos())
    counts = sorted((b.counts for b in scene.pile_badges() if b.sector == n),
                    key=lambda c: list(c))
    assert counts == [{"chaos": 2}, {"imp": 2}]
    assert all(b.text == "2" for b in scene.pile_badges() if b.sector == n)


class _NoRoom:
    """A sector with no room at all besides its one slot."""

    def __init__(self):
        self.extra_spots: dict = {}
        self.path = QPainterPath()

    def fits(self, point, clear_of_label=True):
        return False


def test_a_pile_that_cannot_be_split_says_both_counts_on_its_badge(qapp):
    def unit(pid, side):
        return [{"id": pid, "kind": "unit", "side": side, "type": "AF"}]
    groups = [unit("A", "imp"), unit("B", "imp"), unit("C", "chaos"), unit("D", "chaos"),
              unit("E", "chaos")]
    piles = lay_out(_NoRoom(), [QPointF(100, 100)], groups)
    assert len(piles) == 1 and piles[0].counts() == {"imp": 2, "chaos": 3}
    badge = PileBadge(piles[0].counts(), 12)
    assert badge.text == "2 | 3"
    assert "2 Imperial and 3 Chaos" in badge.toolTip()
    assert badge.acceptedMouseButtons() == Qt.MouseButton.NoButton


def test_a_pile_badge_can_be_read_at_the_whole_map_zoom(qapp):
    """At 0.48 pixels per map unit (the whole map at 1366x768) the badge keeps text of at
    least 8 pixels: drawn, it is over 10 pixels high."""
    badge = PileBadge({"imp": 3, "chaos": 12}, 5)
    image = QImage(200, 200, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(20, 150)
    painter.scale(0.48, 0.48)
    badge.paint(painter, None)
    painter.end()
    rows = [y for y in range(200) if any(image.pixelColor(x, y).alpha() > 128
                                         for x in range(200))]
    assert rows and rows[-1] - rows[0] + 1 >= 10


# ---------------------------------------------------------------------------- last moves
def test_turn_moves_reads_the_moves_of_the_board_turn_from_the_log():
    log = [
        {"turn": 1, "kind": "move", "refs": ["sector:06", "sector:07", "CF-01"]},
        {"turn": 2, "kind": "turn", "refs": []},
        {"turn": 2, "kind": "move", "refs": ["sector:40", "sector:61", "SF-05", "SF-14"]},
        {"turn": 2, "kind": "combat", "refs": ["sector:28"]},
        {"turn": 2, "kind": "move", "refs": ["AF-15", "sector:04", "sector:39"]},
        {"turn": 2, "kind": "adjust", "refs": ["sector:39", "sector:12", "AF-15"]},
        {"turn": 2, "kind": "move", "refs": ["sector:14"]},      # a marker, not a unit
    ]
    read = lambda start: log[start:]          # noqa: E731 - the document's log_entries
    moves = turn_moves(read, {"turn": 2, "log_size": len(log)})
    assert [(m.origin, m.to, m.pieces) for m in moves] == [
        (40, 61, ["SF-05", "SF-14"]), (4, 39, ["AF-15"]), (39, 12, ["AF-15"])]
    # A step of a playback sees only what came before it.
    assert [m.to for m in turn_moves(read, {"turn": 2, "log_size": 4})] == [61]
    assert turn_moves(read, {"turn": 3, "log_size": len(log)}) == []


@pytest.fixture
def make_window(qtbot):
    from struggle_desktop.ui.main_window import MainWindow
    yield from window_maker(qtbot, MainWindow)


@pytest.fixture
def window(make_window):
    win = make_window()
    win.set_speed("instant")
    assert win.new_game("struggle", "3", 1, {})
    win.perform({"verb": "auto_place"})
    win.view.zoom_reset()
    return win


def play_until(window, accept, limit=400) -> bool:
    """Take the program's hint until ``accept(board)``."""
    doc = window.document
    for _ in range(limit):
        if accept(doc.board):
            return True
        if doc.board["outcome"]:
            return False
        action = doc.hint()
        if action["verb"] == "attack":
            doc.perform(action)       # no odds dialog in a test
        else:
            window.perform(action)
    return False


def moves_in_log(window) -> set[tuple[int, int, str]]:
    """(from, to, unit) of every move and adjustment of the current turn, read from the log
    by the test itself."""
    turn = window.document.board["turn"]
    out = set()
    for entry in window.document.log_entries(0):
        if entry["turn"] != turn or entry["kind"] not in ("move", "adjust"):
            continue
        sectors = [int(r.split(":")[1]) for r in entry["refs"] if r.startswith("sector:")]
        units = [r for r in entry["refs"] if not r.startswith("sector:")]
        if len(sectors) >= 2:
            out.update((sectors[0], sectors[1], u) for u in units)
    return out


def marked(window) -> set[tuple[int, int, str]]:
    return {(m.origin, m.to, u) for m in window.scene.last_moves for u in m.pieces}


def test_last_moves_are_marked_until_the_next_turn_begins(window):
    moving = lambda b: b["prompt"] and any(e.get("drop") for e in b["prompt"]["actions"]) \
        and b["prompt"]["kind"] == "movement"                      # noqa: E731
    assert play_until(window, moving)
    board = window.document.board
    turn = board["turn"]
    # The Chaos side's moves of this turn are marked already, before the player moves.
    assert marked(window) == moves_in_log(window)
    entry = next(e for e in board["prompt"]["actions"] if e.get("drop"))
    pid, to = entry["drop"]["piece"], entry["drop"]["sector"]
    origin = board["pieces"][pid]["sector"]
    assert window.perform(entry["action"])
    assert (origin, to, pid) in marked(window)
    assert marked(window) == moves_in_log(window)
    marks = window.scene.move_marks
    assert isinstance(marks, MoveMarks)
    assert marks.acceptedMouseButtons() == Qt.MouseButton.NoButton     # clicks go through
    # The marks stay through the rest of the turn, and are gone when the next one begins.
    assert play_until(window, lambda b: b["turn"] > turn or b["outcome"])
    assert window.document.board["turn"] == turn + 1
    assert (origin, to, pid) not in marked(window)
    assert marked(window) == moves_in_log(window)


# ---------------------------------------------------------------------------- gestures
def press_drag(window, item, to: QPointF) -> None:
    """A real mouse drag on the map from ``item`` to the scene point ``to``."""
    view = window.view
    viewport = view.viewport()
    a, b = view.mapFromScene(item.scenePos()), view.mapFromScene(to)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    QTest.mouseMove(viewport, a + QPoint(8, 8))
    QTest.mouseMove(viewport, (a + b) / 2)
    QTest.mouseMove(viewport, b)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def top_counter_of(window, accept) -> CounterItem:
    """A counter on top of its spot whose piece passes ``accept``."""
    for item in window.scene.counter_items():
        if not item.buried and not item.in_fan and accept(item.piece):
            return item
    raise AssertionError("no such counter on the map")


def test_free_placement_shows_a_banner_and_moves_any_counter_the_rules_allow(window, qtbot):
    banner = window.view.banner
    assert not banner.isVisible()
    window.act_free.trigger()
    assert banner.isVisible()
    key = window.act_free.shortcut().toString()
    assert "Free placement" in banner.text() and key in banner.text()
    assert banner.geometry().top() < 40 and banner.geometry().left() < 40   # a corner
    board = window.document.board
    # A Rebel unit (Chaos, in no force) may be adjusted like an Imperial one.
    rebel = top_counter_of(window, lambda p: p["kind"] == "unit" and p["side"] == "chaos"
                           and not p.get("force"))
    pid = rebel.piece_ids[0]
    far = max(board["sectors"], key=lambda n: (window.scene.sector_center(n)
                                               - rebel.scenePos()).manhattanLength())
    press_drag(window, rebel, window.scene.sector_center(far))
    assert window.document.board["pieces"][pid]["sector"] == far
    assert window.document.session.actions[-1]["action"] == {"verb": "adjust", "unit": pid,
                                                             "to": far}
    window.act_free.trigger()
    assert not banner.isVisible()


def test_free_placement_refuses_a_force_unit_with_the_rules_reason(window, qtbot):
    window.act_free.trigger()
    unit = top_counter_of(window, lambda p: p["kind"] == "unit" and p.get("force"))
    actions = len(window.document.session.actions)
    target = next(n for n in window.document.board["sectors"] if n != unit.sector)
    press_drag(window, unit, window.scene.sector_center(target))
    assert len(window.document.session.actions) == actions
    status = window.status_text.text()
    assert status.startswith("Not possible: ") and "moves as one force" in status


def test_dragging_a_counter_when_no_move_is_asked_says_why(window, qtbot):
    board = window.document.board
    prompt = board["prompt"]
    assert prompt and not any(e.get("drop") for e in prompt["actions"])
    item = top_counter_of(window, lambda p: p["kind"] == "unit" and p["side"] == "imp")
    window.show_message("")
    press_drag(window, item, item.scenePos() + QPointF(70, 50))
    status = window.status_text.text()
    assert status.startswith("Not possible: no counter moves now"), status
    assert prompt["text"] in status
    assert window.scene.piece_item(item.piece_ids[0]).scenePos() == item.scenePos()
