"""Learn to Play, Noble Houses: the guided first game (``assets/guides/nobles.yaml``) is played
to its end through the window at 1366x768, by the gestures each step asks for: an answer in
the Decision panel and Do it, a double-click in the Recruit and Actions panels, a click on a
jumpship, ticks in the Ship panel, a drag of the jumpship to a hex, the panels' buttons. The
program house plays its turns in between at the window's own pace (its moves are marked on
the map one after another), and every step is looked at once the program has finished: its
target must exist, be in view on the screen and not be covered by the callout, and the
callout must show its whole text. A wrong jump first gets the step's hint and is taken back
with Undo. Twice Next is pressed while the program house still plays: its moves, and its own
Done, must neither draw the hint nor end the person's step (seen failing on the runner that
counted every seat's actions). Back is tried once (after the first jump: the jump and its
loads are taken back, the person jumps again).

The story the steps tell (NH-SETUP-2: the homeworld; NH-REC-3: a purchase; NH-MOV-2 and
NH-MOV-8: a jump with cargo; NH-BAT-3 and NH-BAT-11: a battle won by the person's own strike)
is the one the seed plays: a change of the rules, the dice, the program house's play or the
window that breaks it fails here. The window runs in a child process, whose offscreen
screen's size is fixed when its application starts (``conftest.run_on_screen``).
"""

from __future__ import annotations

import pytest

from conftest import run_on_screen

PROBE = r"""
import dataclasses, json, os, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.learn.loader import available_guides, load_guide
from struggle_desktop.ui.learn.runner import GuideRunner
from struggle_desktop.ui.nobles.panels import ACTION_ROLE
from struggle_desktop.ui.screens import window_class

app = make_application()
problems, walked, story = [], [], []
continued = 0                               # Continue pressed for a program step on show
LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
SHOTS = os.environ.get("GUIDE_SHOTS")       # a folder: a picture of every step (to look at)
path = os.environ.get("GUIDE_FILE")         # another guide file (to see this test fail)
guide = load_guide(path) if path else next(g for g in available_guides()
                                           if g.id == "nobles-first-game")
#: What the reading steps ask the person to do before Next: click a ship, tick its cargo.
CLICK_SHIP = {"pick-ship": "A-JS1", "reload": "A-JS1"}
TICK = {"cargo": ["A-AB1", "A-AB2", "A-N3"], "reload": ["A-AB1", "A-AB2", "A-N3"]}
#: Reading steps whose Next is pressed while the program house still plays (as an impatient
#: person does): its moves, and its own Done, must neither end the next step nor draw a hint.
HURRY = ("watch", "marx")
#: At this step another move is made first (a jump elsewhere), then taken back.
WRONG_FIRST, WRONG_FIRST_TO = "jump", [3, 1]
#: After this step the guide's Back is tried once.
BACK_AFTER = "jump"
went_back = False


def settle():
    for _ in range(10):
        app.processEvents()


def wait_for_person(window, limit=120.0):
    # The program house plays at the speed chosen under the map (Fast: each of its moves
    # marked for a moment; Step: each waits for Continue, which the person presses; Instant):
    # wait until it is the person's turn again. The limit only keeps a broken game from
    # hanging the test.
    global continued
    end = time.monotonic() + limit
    while time.monotonic() < end:
        app.processEvents()
        program = window.program
        if window.holding:
            continued += 1
            click(window.watch_bar.continue_button)
            continue
        if program.to_move() is None and not program.scheduled and not program.busy:
            break
        time.sleep(0.01)
    settle()


def click(widget, at=None):
    QTest.mouseClick(widget, LEFT, NONE, at if at is not None else widget.rect().center())
    settle()


def token_point(window, uid):
    token = window.scene.tokens[uid]
    return window.view.mapFromScene(token.sceneBoundingRect().center())


def hex_point(window, x, y):
    return window.view.mapFromScene(window.scene.centre((x, y)))


def click_ship(window, uid):
    click(window.view.viewport(), token_point(window, uid))


def tick(window, uids):
    # A click on each unit's box in the Ship panel.
    window._bring(window.cargo_dock)
    settle()
    units = window.cargo_dock.units
    for uid in uids:
        item = next((units.item(i) for i in range(units.count())
                     if units.item(i).data(Qt.ItemDataRole.UserRole) == uid), None)
        if item is None:
            problems.append(f"{uid} is not in the Ship panel of {window.cargo_dock.ship}")
            continue
        if item.checkState() == Qt.CheckState.Checked:
            continue
        units.scrollToItem(item)
        rect = units.visualItemRect(item)
        box = QPoint(rect.left() + rect.height() // 2, rect.center().y())
        click(units.viewport(), box)
        item = next(units.item(i) for i in range(units.count())
                    if units.item(i).data(Qt.ItemDataRole.UserRole) == uid)
        if item.checkState() != Qt.CheckState.Checked:
            problems.append(f"a click on {uid}'s box in the Ship panel did not tick it")


def double_click_row(view, rect):
    at = rect.center()
    QTest.mouseClick(view.viewport(), LEFT, NONE, at)
    QTest.mouseDClick(view.viewport(), LEFT, NONE, at)
    settle()


def perform(window, runner, step):
    # The normal means of the action the step waits for.
    wanted = step.wanted
    verb = wanted["verb"]
    target = runner.find_widget(step.target.get("widget", "")) if "widget" in step.target else None
    if isinstance(target, QPushButton):                  # the button the step points at
        click(target)
    elif verb == "jump":                                 # a drag of the ship to the hex
        view = window.view
        start, end = token_point(window, wanted["ship"]), hex_point(window, *wanted["to"])
        QTest.mousePress(view.viewport(), LEFT, NONE, start)
        QTest.mouseMove(view.viewport(), start + QPoint(8, 8))
        QTest.mouseMove(view.viewport(), (start + end) / 2)
        QTest.mouseMove(view.viewport(), end)
        QTest.mouseRelease(view.viewport(), LEFT, NONE, end)
        settle()
    elif verb == "buy":                                  # a double-click in the Recruit list
        listing = window.recruit_dock.list
        item = next((listing.item(i) for i in range(listing.count())
                     if all((listing.item(i).data(ACTION_ROLE) or {}).get(k) == v
                            for k, v in wanted.items())), None)
        if item is None:
            problems.append(f"{step.id}: {wanted} is not offered in the Recruit panel")
            return
        listing.scrollToItem(item)
        double_click_row(listing, listing.visualItemRect(item))
    elif verb == "act":                                  # a double-click in the Actions tree
        tree = window.actions_dock.tree
        leaves = []
        def walk(item):
            leaves.append(item)
            for k in range(item.childCount()):
                walk(item.child(k))
        for k in range(tree.topLevelItemCount()):
            walk(tree.topLevelItem(k))
        item = next((i for i in leaves if all(
            (i.data(0, Qt.ItemDataRole.UserRole) or {}).get(k) == v for k, v in wanted.items())),
            None)
        if item is None:
            problems.append(f"{step.id}: {wanted} is not offered in the Actions panel")
            return
        parent = item.parent()
        if parent is not None and not parent.isExpanded():   # its group opened as a person does
            tree.scrollToItem(parent)
            double_click_row(tree, tree.visualItemRect(parent))
        tree.scrollToItem(item)
        double_click_row(tree, tree.visualItemRect(item))
    else:                                                # the Decision panel's line, Do it
        dock = window.decision_dock
        dock.raise_()
        settle()
        items = [dock.choices.item(i) for i in range(dock.choices.count())]
        item = next((i for i in items if all(
            (i.data(Qt.ItemDataRole.UserRole) or {}).get(k) == v for k, v in wanted.items())),
            None)
        if item is None:
            offered = [i.data(Qt.ItemDataRole.UserRole) for i in items]
            problems.append(f"{step.id}: {wanted} is not offered in the Decision panel: {offered}")
            return
        dock.choices.setCurrentItem(item)
        click(dock.do_button)


def shoot(window, name):
    if not SHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    window.grab().save(os.path.join(SHOTS, f"{name}.png"))
    if os.environ.get("DISPLAY"):
        import subprocess
        subprocess.run(["import", "-window", "root", os.path.join(SHOTS, f"{name}-screen.png")])


settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
settings.setValue("watch/speed", os.environ.get("GUIDE_SPEED", "fast"))
window = window_class(guide.game)(settings=settings)
window.show()
settle()
runner = GuideRunner(window, guide)
assert runner.start()
screen = window.screen().availableGeometry()
for k, step in enumerate(guide.steps):
    if step.id not in HURRY:
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
        body = runner.callout.body            # the whole text, its rule links last
        if body.height() < body.heightForWidth(body.width()):
            problems.append(f"{where}: the callout cuts its text off ({body.height()} px of "
                            f"{body.heightForWidth(body.width())})")
        if not window.rect().contains(box):
            problems.append(f"{where}: the callout {box.getRect()} leaves the window")
    shoot(window, f"{k + 1:02d}-{step.id}")
    before = len(window.document.session.actions)
    if step.wanted is None:
        if step.id in CLICK_SHIP:
            click_ship(window, CLICK_SHIP[step.id])
            if window.cargo_dock.ship != CLICK_SHIP[step.id]:
                problems.append(f"{where}: a click on {CLICK_SHIP[step.id]} did not show it "
                                "in the Ship panel")
        if step.id in TICK:
            tick(window, TICK[step.id])
        click(runner.callout.next)
    else:
        if runner.callout.next.isVisible():
            problems.append(f"{where}: Next is offered before the move is made")
        if step.id == WRONG_FIRST:
            # Another move than the step's (a jump to another lit hex) is taken as usual and
            # gets the step's hint; Undo (the menu's, as Ctrl+Z) takes it and its loads back.
            wrong = dict(step.wanted, to=WRONG_FIRST_TO)
            perform(window, runner, dataclasses.replace(step, until={"action": wrong}))
            hint = runner.callout.hint
            if runner.index != k or not hint.isVisible() or step.hint.strip() not in hint.text():
                problems.append(f"{where}: a jump to {WRONG_FIRST_TO} left the guide at step "
                                f"{runner.index + 1}, hint {hint.isVisible()}: {hint.text()!r}")
            while len(window.document.session.actions) > before:
                window.act_undo.trigger()
                settle()
            tick(window, TICK["cargo"])
        perform(window, runner, step)
        mine = [a for a in window.document.session.actions[before:] if a["role"] == "A"]
        if not mine:
            problems.append(f"{where}: {step.wanted} was not performed")
            break
    walked.append(step.id)
    if step.id == BACK_AFTER and not went_back:
        # Back from the next step takes the jump back (the game's Undo, the loads with it);
        # the person ticks the cargo and drags again, and the guide goes on.
        went_back = True
        wait_for_person(window)
        click(runner.callout.back)
        ship = window.document.board["units"][step.wanted["ship"]]
        if runner.index != k or ship["hex"] != [1, 1] or ship["cargo"]:
            problems.append(f"{where}: Back left the guide at step {runner.index + 1} and "
                            f"{step.wanted['ship']} at {ship['hex']} carrying {ship['cargo']}")
            break
        tick(window, TICK["cargo"])
        perform(window, runner, step)
        if runner.index != k + 1:
            problems.append(f"{where}: after Back and the jump again the guide is at step "
                            f"{runner.index + 1}")
            break
wait_for_person(window)
# Names the window does not know point at nothing (the runner then puts its callout aside).
for name in ("hex:1111", "hex:0000", "hex:7-4", "unit:B-JS99", "region:north"):
    if window.guide_target_rect(name) is not None:
        problems.append(f"the board target {name!r} was found on the map")
log = window.document.game.log_entries(window.document.state, 0, role="public")
story = [e["text"] for e in log]
if runner.active:
    problems.append("the guide did not finish after its last step")
window.document.dirty = False
window.close()
print(json.dumps({"problems": problems, "walked": walked, "story": story,
                  "continued": continued}))
"""


#: The facts the guide's steps state, as the game's log words them (in the order they happen).
STORY = [
    "A takes Gurati as its homeworld", "B draws Lortran as its homeworld",
    "initiative order: A, B",                                   # turn-one
    "A buys A-HT4 (House Troops) on Gurati for 2",              # recruit
    "A-JS1 jumps from 1,1 to 5,1 (Marx) carrying A-AB1, A-AB2, A-N3",       # jump
    "B-JS4 jumps from 10,10 to 9,9 (Zenceti)",                  # watch: four ships out
    "A-N1 governs Gurati: its income is now 6",                 # govern
    "Diplomacy succeeds: B now controls Kadesh",                # marx
    "B takes control of Mercurium", "B takes control of Yoravar",
    "B takes control of Zenceti", "B takes control of Bazarium",
    "A takes control of Marx",
    "initiative order: B, A", "A gains the Noble A-N4 on Gurati",   # recruit-two
    "B-JS3 jumps from 8,6 to 7,4 (Hellish) carrying B-MC1",    # enemy
    "B-JS1 jumps from 10,7 to 7,4 (Hellish) carrying B-ID1",
    "A-JS1 jumps from 5,1 to 7,4 (Hellish) carrying A-AB1, A-AB2, A-N3",    # attack
    "House Lortran defends",                                    # attack: you attack
    "A-N3 commands A-AB1",                                      # command
    "A-AB1 first-strike volley, 5 AD (2 base, +2 attacking, +1 command (A-N3)): 4, 1, 1, 6, 6",
    "Round 1 first-strike volley: House Gurati scores 2 hit(s), House Lortran scores 0",
    "House Lortran has no army left here and loses B-JS1, B-JS3",           # hellish
    "House Gurati wins the battle at 7,4",
    "Diplomacy succeeds: B now controls Nitrix",                # play-on
    "Diplomacy succeeds: B now controls Mox", "the Noble A-N1 is assassinated",
]


@pytest.mark.parametrize("speed", ["fast", "step", "instant"])
def test_the_noble_houses_guide_plays_to_its_end_at_1366x768(tmp_path, monkeypatch, speed):
    """NH-SETUP-2, NH-REC-3, NH-MOV-8, NH-BAT-11: the guide's homeworld, purchase, jump with
    cargo and battle happen as its steps say, each by the person's own gesture, whichever
    way the program house's turns are watched (Step: the person presses Continue)."""
    monkeypatch.setenv("GUIDE_SPEED", speed)
    report = run_on_screen(PROBE, tmp_path)
    assert report["problems"] == [], "\n".join(report["problems"])
    from struggle_desktop.ui.learn.loader import available_guides
    guide = next(g for g in available_guides() if g.id == "nobles-first-game")
    assert report["walked"] == [s.id for s in guide.steps]
    # What the steps say happened is in the log of the game played: the guide's facts.
    told = "\n".join(report["story"])
    for fact in STORY:
        assert fact in told, fact
    assert (report["continued"] > 0) == (speed == "step")


def test_every_rule_the_noble_houses_guide_cites_is_a_rule_of_the_game():
    """A step's rule IDs link to the rules reference and the house-rules page: each must be a
    rule of Noble Houses (assets/rules/nobles-rules.yaml), every step names at least one, and
    the guide's scenario and options set up a game of one person against one program house."""
    import yaml

    from struggle_desktop.engine.paths import assets_dir
    from struggle_desktop.games import get_game
    from struggle_desktop.ui.learn.loader import available_guides

    guide = next(g for g in available_guides() if g.id == "nobles-first-game")
    rules = yaml.safe_load((assets_dir() / "rules" / "nobles-rules.yaml").read_text())
    known = {r["id"] for r in rules["rules"]}
    for step in guide.steps:
        assert step.rules, step.id
        assert set(step.rules) <= known, (step.id, set(step.rules) - known)
    game = get_game(guide.game)
    state = game.setup(guide.scenario, guide.seed, dict(guide.options))     # no BadOption
    assert game.players(state) == {"A": "human", "B": "ai"}
