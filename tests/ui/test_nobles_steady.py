"""The Noble Houses window stays still under the hand, keeps its commands in reach and its
board readable (the issue of a table that stays still):

* a notice of purchases gone no longer pushes the Recruit rows down under the pointer;
* when the last purchase ends the house's recruiting, the Ship panel does not take the
  Recruit panel's place while the pointer is over it (the next double-clicks ticked cargo
  boxes): it comes forward when the pointer leaves, and the status bar says so;
* on a 1366x768 screen with the default layout (and the timeline bar), the answer list, Do
  it, Hint and each panel's main controls are whole on screen without scrolling;
* the board's text at the first view at 1366x768 is at least 9 px tall on screen, and a
  jumpship's cargo badge stays inside its hex, off the hex's words;
* counts read "1 world", "2 worlds".

The screen size runs in a process of its own, as in ``test_window_fits``.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication

from conftest import run_on_screen
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import window_maker


def pause_program(win) -> None:
    win.program.paused = True


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, NoblesWindow, before_close=pause_program)


def double_click(qtbot, widget, point):
    """A real double-click as Qt delivers it: the pointer comes, press, release, double-click,
    release."""
    qtbot.mouseMove(widget, point)
    for send in (qtbot.mousePress, qtbot.mouseRelease, qtbot.mouseDClick, qtbot.mouseRelease):
        send(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def buying_on_worlds(win) -> set[str]:
    """The worlds house A (the seated house) may buy on now; empty when it is not buying."""
    doc = win.document
    prompt = doc.board["prompt"]
    if not prompt or prompt["kind"] != "recruit" or doc.waiting_role != doc.seat:
        return set()
    return {a["world"] for a in win.prompt_actions() if a["verb"] == "buy"}


def to_first_recruiting(win, qtbot, worlds: int = 1):
    """The standard game, you (house A) against a program house, seed 5: played by the hint
    until house A buys on ``worlds`` worlds or more (in turn 1 it has one, and two purchases
    end its buying)."""
    assert win.new_game("nobles", "standard", 5, {})
    qtbot.mouseMove(win.view.viewport())           # the pointer on the map, off the panels
    doc = win.document
    for _ in range(600):
        if len(buying_on_worlds(win)) >= worlds:
            break
        if win._program_to_move():
            win.program_step()
        else:
            assert win.perform(doc.hint())
        QApplication.processEvents()
    else:
        raise AssertionError("house A never recruited")
    # Brought forward by the recruit prompt, and laid out.
    qtbot.waitUntil(lambda: not win.recruit_dock.list.viewport().visibleRegion().isEmpty())


def place_in_window(win, widget, point) -> QPoint:
    return widget.mapTo(win, point)


def test_a_notice_of_purchases_gone_does_not_move_the_recruit_rows(make_window, qtbot):
    """After a purchase the panel says which purchases are gone; every row and Done buying
    stay where they were (the notice was inserted above the list and every row went 38 px
    down, so the next double-click bought nothing)."""
    win = make_window()
    to_first_recruiting(win, qtbot, worlds=2)
    dock = win.recruit_dock
    rows = dock.list
    items = [rows.item(k) for k in range(rows.count())]
    first = next(item for item in items if item.data(Qt.ItemDataRole.UserRole + 1))
    world = first.data(Qt.ItemDataRole.UserRole + 1)["world"]

    def places():
        return ([place_in_window(win, rows.viewport(), rows.visualItemRect(i).topLeft())
                 for i in items]
                + [place_in_window(win, dock.done_button, QPoint(0, 0))])

    before = places()
    spot = rows.visualItemRect(first).center()
    bought = len(win.document.session.actions)
    for count in (1, 2):
        double_click(qtbot, rows.viewport(), spot)
        assert len(win.document.session.actions) == bought + count
        QApplication.processEvents()
        assert places() == before
    assert world not in buying_on_worlds(win) and buying_on_worlds(win), "still buying"
    assert dock.note.text(), "the panel says which purchases are gone"


def test_the_ship_panel_does_not_take_the_recruit_panels_place_under_the_pointer(
        make_window, qtbot):
    """Two purchases end house A's buying; the program house buys and Movement begins. The
    Ship panel waits while the pointer is over the Recruit panel, so a third double-click on
    the same spot ticks no cargo box and buys nothing; the status bar names the waiting panel;
    when the pointer leaves, the Ship panel comes forward."""
    win = make_window()
    to_first_recruiting(win, qtbot)
    dock = win.recruit_dock
    rows = dock.list
    first = next(rows.item(k) for k in range(rows.count())
                 if rows.item(k).data(Qt.ItemDataRole.UserRole + 1))
    spot = rows.visualItemRect(first).center()
    at = place_in_window(win, rows.viewport(), spot)
    start = len(win.document.session.actions)
    double_click(qtbot, rows.viewport(), spot)
    double_click(qtbot, rows.viewport(), spot)
    assert len(win.document.session.actions) == start + 2
    doc = win.document
    qtbot.waitUntil(lambda: (doc.board["prompt"] or {}).get("kind") == "move"
                    and doc.waiting_role == doc.seat, timeout=10000)
    QApplication.processEvents()
    under = win.childAt(at)
    assert under is not None and dock.isAncestorOf(under), f"{under!r} came under the pointer"
    assert win.cargo_dock.visibleRegion().isEmpty()       # behind the Recruit panel
    assert "Ship panel" in win.status_text.text()
    actions = len(doc.session.actions)
    double_click(qtbot, rows.viewport(), spot)
    assert len(doc.session.actions) == actions
    assert not any(win.loads.values()) and not any(win.unloads.values())
    # The pointer leaves the panel: the Ship panel comes forward, its title in place of
    # Recruit's.
    QApplication.sendEvent(dock, QEvent(QEvent.Type.Leave))   # as a tooltip over it would
    QApplication.processEvents()
    assert win.cargo_dock.visibleRegion().isEmpty(), "the pointer is still over the panel"
    qtbot.mouseMove(win.view.viewport())
    QApplication.processEvents()
    assert not win.cargo_dock.visibleRegion().isEmpty() and dock.visibleRegion().isEmpty()
    assert "comes forward" not in win.status_text.text()          # no longer news


def test_a_prompt_brings_its_panel_forward_when_the_pointer_is_elsewhere(make_window, qtbot):
    """Away from the panels (the pointer on the map), Movement brings the Ship panel forward
    at once, as before."""
    win = make_window()
    to_first_recruiting(win, qtbot)
    doc = win.document
    while (doc.board["prompt"] or {}).get("kind") == "recruit" and doc.waiting_role == doc.seat:
        assert win.perform(next(a for a in win.prompt_actions() if a["verb"] == "done"))
    qtbot.waitUntil(lambda: (doc.board["prompt"] or {}).get("kind") == "move"
                    and doc.waiting_role == doc.seat, timeout=10000)
    QApplication.processEvents()
    assert not win.cargo_dock.visibleRegion().isEmpty()


def test_the_noble_actions_hold_still_after_one_is_taken(make_window, qtbot):
    """Taking a Noble action by double-click leaves every row of the Actions panel where it
    was: the one taken (and those no longer possible) greyed, saying why, so a second
    double-click on the same spot takes no other action (the tree was filled again and
    another action came under the pointer)."""
    from PySide6.QtWidgets import QTreeWidgetItemIterator

    win = make_window()
    to_first_recruiting(win, qtbot)
    doc = win.document
    for _ in range(400):
        prompt = doc.board["prompt"]
        if prompt and prompt["kind"] == "noble_action" and doc.waiting_role == doc.seat \
                and any(a["verb"] == "act" for a in win.prompt_actions()):
            break
        if win._program_to_move():
            win.program_step()
        else:
            assert win.perform(doc.hint())
        QApplication.processEvents()
    else:
        raise AssertionError("no Noble action came")
    dock = win.actions_dock
    win._bring(dock)
    tree = dock.tree
    qtbot.waitUntil(lambda: not tree.viewport().visibleRegion().isEmpty())
    tree.expandAll()                       # the player opens the groups of actions

    def leaves():
        found = []
        it = QTreeWidgetItemIterator(tree)
        while it.value():
            item = it.value()
            if item.data(0, Qt.ItemDataRole.UserRole):
                found.append(item)
            it += 1
        return found

    first = leaves()[0]
    action = first.data(0, Qt.ItemDataRole.UserRole)
    spot = tree.visualItemRect(first).center()
    places = [(leaf.data(0, Qt.ItemDataRole.UserRole), tree.visualItemRect(leaf).topLeft())
              for leaf in leaves()]
    count = len(doc.session.actions)
    double_click(qtbot, tree.viewport(), spot)
    assert len(doc.session.actions) == count + 1
    assert doc.session.actions[-1]["action"] == action
    QApplication.processEvents()
    now = tree.itemAt(spot)
    assert now.data(0, Qt.ItemDataRole.UserRole) == action
    after = [(leaf.data(0, Qt.ItemDataRole.UserRole), tree.visualItemRect(leaf).topLeft())
             for leaf in leaves()]
    assert after[:len(places)] == places
    if action not in [a for a in win.prompt_actions()]:
        assert not now.flags() & Qt.ItemFlag.ItemIsEnabled
        assert "Not possible now" in now.toolTip(0)
        if (doc.board["prompt"] or {}).get("kind") == "noble_action":
            double_click(qtbot, tree.viewport(), spot)
            assert len(doc.session.actions) == count + 1            # nothing else taken


def buttons_in_view(win) -> list[tuple[QRect, QAbstractButton]]:
    """Where every enabled button in view in the window's panels is (window coordinates)."""
    found = []
    for dock in win.docks:
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue
        for button in dock.findChildren(QAbstractButton):
            if button.isVisible() and button.isEnabled() \
                    and button.visibleRegion().contains(button.rect().center()):
                found.append((QRect(button.mapTo(win, QPoint(0, 0)), button.size()), button))
    return found


def moved_buttons(win, before) -> list[str]:
    """The buttons of ``before`` that moved, or whose middle now holds another enabled
    button; a panel brought forward in place of another (a change of title) and a button
    gone or greyed are left out."""
    moved = []
    for place, button in before:
        dock = next(d for d in win.docks if d.isAncestorOf(button))
        if dock.visibleRegion().isEmpty() or not button.isVisible():
            continue
        now = win.childAt(place.center())
        while now is not None and not isinstance(now, QAbstractButton) and now is not win:
            now = now.parentWidget()
        name = repr(button.text() or button.toolTip() or button.objectName())
        if isinstance(now, QAbstractButton) and now is not button and now.isEnabled():
            moved.append(f"{name} became {now.text()!r}")
        elif button.isEnabled() and QRect(button.mapTo(win, QPoint(0, 0)),
                                           button.size()) != place:
            moved.append(f"{name} moved from {place.getRect()}")
    return moved


ACTION = Qt.ItemDataRole.UserRole + 1          # a Recruit row's purchase


def rows_in_view(win) -> list[tuple[object, QPoint, dict]]:
    """The purchases and Noble actions in view in the Recruit and Actions panels: (view,
    the middle of the row in the window, its action)."""
    found = []
    recruit, actions = win.recruit_dock, win.actions_dock
    if recruit.widget_built and not recruit.list.viewport().visibleRegion().isEmpty():
        rows = recruit.list
        for k in range(rows.count()):
            item = rows.item(k)
            spot = rows.visualItemRect(item).center()
            if item.data(ACTION) and rows.viewport().rect().contains(spot):
                found.append((rows, rows.viewport().mapTo(win, spot), item.data(ACTION)))
    if actions.widget_built and not actions.tree.viewport().visibleRegion().isEmpty():
        tree = actions.tree
        tree.expandAll()                                    # the player opens the groups
        from PySide6.QtWidgets import QTreeWidgetItemIterator
        it = QTreeWidgetItemIterator(tree)
        while it.value():
            item = it.value()
            spot = tree.visualItemRect(item).center()
            if item.data(0, Qt.ItemDataRole.UserRole) and tree.viewport().rect().contains(spot):
                found.append((tree, tree.viewport().mapTo(win, spot),
                              item.data(0, Qt.ItemDataRole.UserRole)))
            it += 1
    return found


def changed_rows(win, before) -> list[str]:
    """The rows of ``before`` whose place in the window now holds another action that may
    be taken."""
    changed = []
    for view, place, action in before:
        if view.viewport().visibleRegion().isEmpty():
            continue                                  # another panel came forward there
        spot = view.viewport().mapFrom(win, place)
        if not view.viewport().rect().contains(spot):
            continue
        item = view.itemAt(spot)
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            continue
        now = item.data(ACTION) if hasattr(item, "listWidget") \
            else item.data(0, Qt.ItemDataRole.UserRole)
        if now and now != action:
            changed.append(f"{action} became {now}")
    return changed


def test_no_button_or_row_moves_or_becomes_another_after_an_answer(make_window, qtbot):
    """A game played by the hint, you against a program house, through recruiting,
    movement, Noble actions and the program's turns: after each answer no enabled button in
    the panels has moved or given its place to another, and no purchase or Noble action has
    given its place to another that may be taken."""
    win = make_window()
    to_first_recruiting(win, qtbot)
    doc = win.document
    problems = []
    kinds = set()
    for _ in range(150):
        if doc.board["outcome"]:
            break
        before = buttons_in_view(win)
        rows = rows_in_view(win)
        if win._program_to_move():
            win.program_step()
        else:
            action = doc.hint()
            kinds.add(doc.board["prompt"]["kind"])
            assert win.perform(action)
        QApplication.processEvents()
        problems += moved_buttons(win, before) + changed_rows(win, rows)
    assert {"recruit", "move", "noble_action"} <= kinds
    assert problems == [], "\n".join(problems[:12])


def test_counts_of_one_are_singular(make_window, qtbot):
    """'1 world', never '1 worlds', on the map's house chips and in the Houses panel."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    win = make_window()
    to_first_recruiting(win, qtbot)
    texts = [item.text() for item in win.scene.items()
             if isinstance(item, QGraphicsSimpleTextItem)]
    chips = [t for t in texts if " world" in t]
    assert chips and all("1 world" in t and "1 worlds" not in t for t in chips), chips
    win.houses_dock.show()
    win.houses_dock.raise_()
    QApplication.processEvents()
    shown = win.houses_dock.content.toPlainText()
    for slip in ("1 worlds", "1 units", "1 Nobles", "1 armies", "1 Solats", "1 slots"):
        assert slip not in shown


def test_a_jumpships_cargo_badge_stays_in_its_hex_off_the_hexs_words(make_window, qtbot):
    """The cargo count of a loaded jumpship is drawn inside its hex, clear of the world's
    name and type (the badges spilled out of their hex and over its type label)."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    win = make_window()
    assert win.new_game("nobles", "standard", 5, {"houses": 4, "seat2": "human",
                                                  "seat3": "human", "seat4": "human"})
    doc = win.document

    def loaded():
        return [t for t in win.scene.tokens.values() if t.cargo and t.isVisible()]

    for _ in range(400):
        if len(loaded()) >= 3:
            break
        action = doc.hint()
        if action is None:
            break
        win.perform(action)
    tokens = loaded()
    assert tokens, "no jumpship was loaded"
    for token in tokens:
        key = win.scene.hex_key_at(token.sceneBoundingRect().center())
        hex_shape = win.scene.hex_items[key].polygon()
        badge = token.mapRectToScene(token.badge_rect())
        for corner in (badge.topLeft(), badge.topRight(), badge.bottomLeft(),
                       badge.bottomRight()):
            assert hex_shape.containsPoint(corner, Qt.FillRule.OddEvenFill), \
                f"{token.unit_id}'s badge leaves hex {key}"
        words = [item for item in win.scene.items(hex_shape.boundingRect())
                 if isinstance(item, QGraphicsSimpleTextItem)]
        for item in words:
            assert not item.sceneBoundingRect().intersects(badge), \
                f"{token.unit_id}'s badge covers {item.text()!r}"


# ------------------------------------------------------------------ in a 1366x768 process
#: Run in a child process at 1366x768; prints one JSON object: problems and text sizes.
PROBE = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QGraphicsSimpleTextItem
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.fit import fits
from struggle_desktop.ui.nobles.scene import MoreMark, ShipToken
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.probes import settle, whole

app = make_application()
problems = []
sizes = []


def check(moment, names):
    settle()
    if not fits(window):
        problems.append(f"{moment}: the window does not fit the screen")
    for name, widget in names:
        if not whole(widget, window):
            problems.append(f"{moment}: {name} is not whole in view "
                            f"({widget.visibleRegion().boundingRect().getRect()} of "
                            f"{widget.rect().getRect()})")


def situations(moment, names):
    check(moment, names)
    window.timeline_bar.show()
    check(moment + " with the timeline bar", names)
    window.timeline_bar.hide()


def decision():
    dock = window.decision_dock
    dock.content
    return [("the answer list", dock.choices), ("Do it", dock.do_button),
            ("Hint", dock.hint_button)]


def text_sizes(moment):
    # Each text on the board: its font's pixel size times the view's scale.
    settle()
    scale = window.view.transform().m22()
    for item in window.scene.items():
        if not item.isVisible():
            continue
        if isinstance(item, QGraphicsSimpleTextItem) and item.text().strip():
            fonts = [(item.text(), item.font())]
        elif isinstance(item, (ShipToken, MoreMark)):
            fonts = list(item.texts())
        else:
            continue
        for text, font in fonts:
            px = QFontInfo(font).pixelSize() * scale * item.sceneTransform().m22()
            sizes.append([moment, text, round(px, 2)])


settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
window = NoblesWindow(settings=settings)
window.show()
window.new_game("nobles", "standard", 5, {})
situations("at set-up", decision())
doc = window.document


def play_to(kind):
    for _ in range(400):
        prompt = doc.board["prompt"]
        if prompt and prompt["kind"] == kind and doc.waiting_role == doc.seat:
            return True
        if window._program_to_move():
            window.program_step()
        else:
            window.perform(doc.hint())
        settle()
    return False


play_to("recruit")
window.view.fit()
text_sizes("the first view of the map")
recruit = window.recruit_dock
recruit.content
situations("at recruiting", decision() + [("the purchase list", recruit.list),
                                          ("Done buying", recruit.done_button)])
play_to("move")
settle()
window._bring(window.cargo_dock)
cargo = window.cargo_dock
cargo.content
situations("in movement", decision() + [("the ship box", cargo.ships),
                                        ("the cargo list", cargo.units),
                                        ("Load now", cargo.load_button)])
window._bring(window.actions_dock)
situations("in movement, the Actions panel", decision() + [
    ("the Noble actions", window.actions_dock.tree)])
window.program.paused = True
window.document.dirty = False
window.close()
print(json.dumps({"problems": problems, "sizes": sizes}))
"""


@pytest.fixture(scope="module")
def laptop(tmp_path_factory):
    """What the probe found in a window on a 1366x768 screen."""
    return run_on_screen(PROBE, tmp_path_factory.mktemp("home"))


def test_the_main_commands_are_in_reach_on_a_laptop_screen(laptop):
    assert laptop["problems"] == [], "\n".join(laptop["problems"])


def test_the_board_text_is_at_least_9_px_tall_at_the_first_view_on_a_laptop(laptop):
    sizes = laptop["sizes"]
    assert len(sizes) > 60                                 # the map's words were measured
    small = [f"{text!r}: {px} px" for _moment, text, px in sizes if px < 9]
    assert small == [], f"{len(small)} texts under 9 px: " + "; ".join(small[:15])
