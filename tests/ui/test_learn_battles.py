"""Learn to Play, Battles: the guided first game (``assets/guides/battles.yaml``) is played to
its end through the window at 1366x768, by the gestures each step asks for: an answer in the
Decision panel and Do it, the Turn panel's Done buttons, a drag of a counter from the display
onto a region, a double-click on a chit in the Hand panel, a click on a region, a drag of a
firer onto an enemy counter on the battle map and a click on a fleet there. The program plays
Red in between at the window's own pace, and every step is looked at once it has finished: its
target must exist, be in view on the screen and not be covered by the callout.

The story the steps tell is checked where it is told (BFG-SCN-4: the opening build; BFG-DEP-1:
the revealed deployments; BFG-ACT-1: the initiative; BFG-CHIT-12, BFG-CHIT-18: Tactical and
Repression; BFG-CMB-9: the dice of the fight; BFG-GAR-2: the garrison): a change of the rules,
the dice, the program's play or the window that breaks it fails here. The window runs in a
child process, whose offscreen screen's size is fixed when its application starts
(``conftest.run_on_screen``). ``GUIDE_FILE`` plays another guide file (to see the test fail on
a broken one); ``GUIDE_SHOTS`` names a folder for a picture of every step.
"""

from __future__ import annotations

import pytest
from conftest import run_on_screen

PROBE = r"""
import json, os, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QPoint, QPointF, QRect, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.learn.loader import available_guides, load_guide
from struggle_desktop.ui.learn.runner import GuideRunner
from struggle_desktop.ui.screens import window_class

app = make_application()
problems, walked = [], []
LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
SHOTS = os.environ.get("GUIDE_SHOTS")       # a folder: a picture of every step (to look at)
path = os.environ.get("GUIDE_FILE")         # another guide file (to see this test fail)
guide = load_guide(path) if path else next(g for g in available_guides()
                                           if g.id == "battles-first-game")


def settle():
    for _ in range(10):
        app.processEvents()


def wait_for_person(window, limit=120.0):
    # The program plays Red at the window's pace (an action per event-loop turn after a
    # short pause): wait until it is the person's turn again. The limit only keeps a broken
    # game from hanging the test.
    end = time.monotonic() + limit
    while time.monotonic() < end:
        app.processEvents()
        program = window.program
        if program.to_move() is None and not program.scheduled and not program.busy:
            break
        time.sleep(0.01)
    settle()


def click(widget, at=None):
    QTest.mouseClick(widget, LEFT, NONE, at if at is not None else widget.rect().center())
    settle()


def on_view(window, scene_point):
    return window.view.mapFromScene(scene_point)


def drag_on_table(window, fleet, scene_point):
    # Press on the counter, move in steps, release over the place (the viewport's events).
    port = window.view.viewport()
    start = on_view(window, window.scene.counters[fleet].sceneBoundingRect().center())
    end = on_view(window, scene_point)
    QTest.mousePress(port, LEFT, NONE, start)
    QTest.mouseMove(port, start + QPoint(8, 8))
    QTest.mouseMove(port, (start + end) / 2)
    QTest.mouseMove(port, end)
    QTest.mouseRelease(port, LEFT, NONE, end)
    settle()


def double_click_chit(window, chit):
    listing = window.hand_dock.chits
    item = next((listing.item(i) for i in range(listing.count())
                 if listing.item(i).data(Qt.ItemDataRole.UserRole) == chit), None)
    if item is None:
        problems.append(f"{chit} is not in the Hand panel")
        return
    listing.scrollToItem(item)
    at = listing.visualItemRect(item).center()
    QTest.mouseClick(listing.viewport(), LEFT, NONE, at)
    QTest.mouseDClick(listing.viewport(), LEFT, NONE, at)
    settle()


def decide(window, step, wanted):
    # The answer's line in the Decision panel (exactly this answer: a World Ship's target
    # with and without its single shot are two lines), then Do it.
    dock = window.decision_dock
    dock.raise_()
    settle()
    items = [dock.choices.item(i) for i in range(dock.choices.count())]
    item = next((i for i in items if not i.isHidden()
                 and i.data(Qt.ItemDataRole.UserRole) == wanted), None)
    if item is None:
        offered = [i.data(Qt.ItemDataRole.UserRole) for i in items if not i.isHidden()]
        problems.append(f"{step.id}: {wanted} is not offered in the Decision panel: {offered}")
        return
    dock.choices.setCurrentItem(item)
    click(dock.do_button)


def perform(window, runner, step):
    # The normal means of the action the step waits for.
    wanted = step.wanted
    verb = wanted["verb"]
    target = runner.find_widget(step.target.get("widget", "")) if "widget" in step.target else None
    scene = window.scene
    if isinstance(target, QPushButton):                  # a Done button of the Turn panel
        click(target)
    elif verb == "assign":                               # display -> region
        drag_on_table(window, wanted["fleet"], scene.region_rects[wanted["region"]].center())
    elif verb == "target":                               # firer -> enemy, on the battle map
        drag_on_table(window, wanted["firer"],
                      scene.counters[wanted["target"]].sceneBoundingRect().center())
    elif verb == "resolve":                              # a click on the region, off its counters
        rect = scene.region_rects[wanted["region"]]
        click(window.view.viewport(),
              on_view(window, QPointF(rect.left() + rect.width() / 3, rect.top() + 44)))
    elif verb == "garrison_add":                         # a click on the fleet
        click(window.view.viewport(),
              on_view(window, scene.counters[wanted["fleet"]].sceneBoundingRect().center()))
    elif verb == "repress":                              # a double-click on the chit
        double_click_chit(window, wanted["chit"])
    elif verb == "play":                                 # the chit, then its way in the list
        double_click_chit(window, wanted["chit"])
        decide(window, step, wanted)
    else:
        decide(window, step, wanted)


# What the steps' words say has happened, checked when the step is shown.
def board(window):
    return window.document.board


def fleets_in(window, region, side):
    entry = next(r for r in board(window)["regions"] if r["number"] == region)
    return sorted(entry["deployed"][side] + entry["garrison"][side])


def logged(window, text):
    entries = window.document.game.log_entries(window.document.state, 0, role="blue")
    return any(text in e["text"] for e in entries)


def red_built(w):
    fleets = board(w)["fleets"]
    kinds = sorted(fleets[f]["type"] for f in board(w)["players"]["red"]["display"])
    return kinds == sorted(["WS"] + ["AF"] * 3 + ["SF"] * 4 + ["CG"] * 3) \
        and board(w)["players"]["red"]["rp"] == 1


STORY = {
    "red-builds": red_built,
    "hand": lambda w: [c["chit"] for c in board(w)["hand"]] == [
        "Build-1", "Tactical-1", "Tactical-2", "Illumination-1", "Repression-1"],
    "deploy-ws": lambda w: board(w)["players"]["blue"]["rp"] == 10,
    "revealed": lambda w: (fleets_in(w, 5, "red") == ["R-AF2", "R-AF3"]
                           and fleets_in(w, 2, "red") == ["R-SF1", "R-SF2", "R-SF3", "R-WS1"]
                           and len(fleets_in(w, 6, "red")) == 5
                           and not fleets_in(w, 1, "red") and not fleets_in(w, 3, "red")
                           and logged(w, "initiative (Blue, Red): 4, 1")
                           and w.document.waiting_role == "blue"),
    "repress": lambda w: (board(w)["last_chit"]["side"] == "red"
                          and board(w)["last_chit"]["chit"].startswith("Move")
                          and board(w)["last_chit"]["action"]["to"] == 1),
    "volley": lambda w: (logged(w, "B-WS1 fires at R-AF2: 4, 5, 3")
                         and logged(w, "B-AF1 fires at R-AF3: 4, 1, 6, 5")
                         and logged(w, "R-AF3 fires at B-AF1: 1, 6, 3")
                         and board(w)["fleets"]["R-AF2"]["at"] == "display"
                         and board(w)["fleets"]["R-AF3"]["at"] == "common"
                         and board(w)["fleets"]["B-AF1"]["at"] == "common"),
    "red-moves": lambda w: (next(r for r in board(w)["regions"] if r["number"] == 5)
                            ["controller"] == "blue"
                            and board(w)["prompt"]["kind"] == "react"
                            and board(w)["last_chit"]["chit"] == "Move-4"),
    "play-on": lambda w: fleets_in(w, 1, "red") == ["R-AF1"],
}


def shoot(window, name):
    if not SHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    window.grab().save(os.path.join(SHOTS, f"{name}.png"))
    if os.environ.get("DISPLAY"):
        import subprocess
        subprocess.run(["import", "-window", "root", os.path.join(SHOTS, f"{name}-screen.png")])


settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
window = window_class(guide.game)(settings=settings)
window.show()
settle()
runner = GuideRunner(window, guide)
assert runner.start()
screen = window.screen().availableGeometry()
for k, step in enumerate(guide.steps):
    wait_for_person(window)
    where = f"step {k + 1} ({step.id})"
    if runner.index != k:
        problems.append(f"{where}: the guide is at step {runner.index + 1}")
        break
    runner.place()
    settle()
    if runner.callout.hint.isVisible():       # the program's moves are not the person's
        problems.append(f"{where}: the hint is shown before the person did anything: "
                        f"{runner.callout.hint.text()}")
    target = runner.target_rect()
    if target is None:
        problems.append(f"{where}: its target {step.target} is missing or hidden")
    else:
        on_screen = QRect(window.mapToGlobal(target.topLeft()), target.size())
        if not screen.contains(on_screen.center()):
            problems.append(f"{where}: its target lies off the screen at {on_screen.getRect()}")
        box = runner.callout.geometry()
        if box.intersects(target):
            problems.append(f"{where}: the callout {box.getRect()} covers its target "
                            f"{target.getRect()}")
        if not window.rect().contains(box):
            problems.append(f"{where}: the callout {box.getRect()} leaves the window")
    told = STORY.get(step.id)
    if told is not None and not told(window):
        problems.append(f"{where}: the game is not as the step tells it")
    shoot(window, f"{k + 1:02d}-{step.id}")
    before = len(window.document.session.actions)
    if step.wanted is None:
        click(runner.callout.next)
    else:
        if runner.callout.next.isVisible():
            problems.append(f"{where}: Next is offered before the move is made")
        perform(window, runner, step)
        mine = [a["action"] for a in window.document.session.actions[before:]
                if a["role"] == "blue"]
        if not mine:
            problems.append(f"{where}: {step.wanted} was not performed")
            break
        if mine[0] != step.wanted:
            problems.append(f"{where}: the gesture performed {mine[0]}, not {step.wanted}")
    walked.append(step.id)
wait_for_person(window)
if runner.active:
    problems.append("the guide did not finish after its last step")
window.document.dirty = False
window.close()
print(json.dumps({"problems": problems, "walked": walked}))
"""


def test_the_battles_guide_plays_to_its_end_at_1366x768(tmp_path):
    """BFG-SCN-4, BFG-DEP-1, BFG-ACT-1, BFG-CHIT-12, BFG-CHIT-18, BFG-CMB-9, BFG-GAR-2: the
    guide's build, deployment, chits, fight and garrison happen as its steps say, each by the
    person's own gesture."""
    report = run_on_screen(PROBE, tmp_path)
    assert report["problems"] == [], "\n".join(report["problems"])
    from struggle_desktop.ui.learn.loader import available_guides
    guide = next(g for g in available_guides() if g.id == "battles-first-game")
    assert report["walked"] == [s.id for s in guide.steps]



@pytest.fixture
def make_window(qtbot):
    from struggle_desktop.ui.battles.window import BattlesWindow
    from tests.ui.helpers import window_maker

    yield from window_maker(qtbot, BattlesWindow)


def test_the_battles_window_finds_each_named_spot_of_its_table(make_window, qtbot):
    """A guide's board targets: a region, a counter, a display and the Chaos Index track are
    found in window coordinates inside the table's view; a fleet not on the table, a region
    that does not exist, the battle map while no fight is on and an unknown kind are None
    (the runner then marks nothing, and the guide test above fails)."""
    from PySide6.QtCore import QPoint, QRect

    window = make_window()
    assert window.new_game("battles", "civil-war", 30, {"blue_player": "human",
                                                        "red_player": "bot"})
    assert window.perform({"verb": "build", "type": "SF"})
    qtbot.wait(20)
    port = window.view.viewport()
    view_area = QRect(port.mapTo(window, QPoint(0, 0)), port.size())
    for name in ("region:1", "region:6", "fleet:B-SF1", "display:red", "track:ci"):
        found = window.guide_target_rect(name)
        assert found is not None and view_area.contains(found), name
    assert window.guide_target_rect("region:5") != window.guide_target_rect("region:6")
    for name in ("fleet:B-WS1", "region:7", "battle:map", "hex:0304", "region:x"):
        assert window.guide_target_rect(name) is None, name


def test_every_rule_the_battles_guide_cites_is_a_rule_of_the_game():
    """A step's rule IDs link to the rules reference and the house-rules page: each must be a
    rule of Battles (assets/rules/battles-rules.yaml), every step names at least one, and the
    guide's game, scenario and options are the window's own."""
    import yaml

    from struggle_desktop.engine.paths import assets_dir
    from struggle_desktop.games import get_game
    from struggle_desktop.ui.learn.loader import available_guides

    guide = next(g for g in available_guides() if g.id == "battles-first-game")
    rules = yaml.safe_load((assets_dir() / "rules" / "battles-rules.yaml").read_text())
    known = {r["id"] for r in rules["rules"]}
    for step in guide.steps:
        assert step.rules, step.id
        assert set(step.rules) <= known, (step.id, set(step.rules) - known)
    game = get_game(guide.game)
    game.setup(guide.scenario, guide.seed, dict(guide.options))       # no BadOption
    assert guide.options == {"blue_player": "human", "red_player": "bot"}
