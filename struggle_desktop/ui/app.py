"""Starting the desktop program: ``struggle-desktop``, ``play``, ``open`` and ``render``.

``cli.py`` checks the arguments (bad input exits 2 before any window opens) and then calls
``main(args)``. ``render`` draws the map scene offscreen into a PNG without opening a window.

At start the window first removes what interrupted saves left behind (``shell.clean_leftovers``)
and, if the last run did not end cleanly, offers to resume its autosave. A file that cannot be
opened (``open FILE``, a resume) gives one warning, never a traceback. User folders that cannot
be written (a read-only home) do not stop it: the settings live in memory for the run, and one
message says which folders are not kept and what is lost (``settings.unwritable_folders``).
Started from the desktop (no terminal), a window command's refusal is a dialog as well as the
``error:`` line (``tell_refusal``, called by the command line).

For demonstrations, screenshots and the end-to-end test, the environment variable
``STRUGGLE_DESKTOP_AUTOPILOT`` can drive a started window, e.g.
``steps=5;shot=/tmp/window.png;save=/tmp/game.sgsave;quit``: take the program's hint five
times, save a screenshot and the game, then quit. For a test that drives the real window
from outside (keys sent by ``xdotool``) there are also ``handover=N`` (take at least one
step, and at most N, until a hand-over screen covers the window), ``mark=FILE`` (write the last action, in words,
for the test to look for), ``await=FILE`` (keep handling events until FILE exists, at most a
minute) and ``texts=FILE`` (write every text the screen shows: title, status bar, hand-over
screen, each menu's commands, any open pop-up, the timeline's place and the forecast's note).
``forecast=N`` runs a forecast of N games in the Forecast panel and waits for it; ``back=K``
looks back K steps of the timeline (actions, or moments every seat may see where several
people share the game). ``serve=DIR`` hands the window to such a
test for as long as it likes: it writes ``DIR/screen.json`` (where the things a person would
click or drag are on the screen, see ``screen_places``) and waits for ``DIR/next``; "look"
writes the file again, "save PATH" saves, "shot PATH" takes a screenshot, "done" ends the
serving.
"""

from __future__ import annotations

import html
import json
import os
import random
import sys
import time
from pathlib import Path

AUTOPILOT_VARIABLE = "STRUGGLE_DESKTOP_AUTOPILOT"
#: The name of the program's menu entry and icon (packaging/linux): the desktop ties the window
#: to them by it (Wayland's app id).
DESKTOP_ID = "io.github.struggledesktop.StruggleDesktop"
DEFAULT_RENDER_SIZE = (1600, 1000)
#: The program's name as people see it (the menu entry's Name, the end of every title).
PROGRAM_NAME = "Struggle Desktop"


def make_application():
    """The one QApplication, with the bundled fonts, the program's names and its icon."""
    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from struggle_desktop.engine.paths import assets_dir
    from struggle_desktop.ui.map.render import ensure_fonts

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("struggle_desktop")      # the menu entry's StartupWMClass
    # Qt appends the display name to every window's title ("… — Battles for the Galactic
    # Empire — Struggle Desktop"): the program's name, not one of its games'.
    app.setApplicationDisplayName(PROGRAM_NAME)
    app.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(QIcon(str(assets_dir() / "icons" / "struggle-desktop.svg")))
    ensure_fonts()
    app.setFont(QFont("DejaVu Sans", 10))
    return app


#: Qt platforms on which nobody sees a window (tests, ``render``): a refusal stays on stderr.
UNSEEN_PLATFORMS = {"offscreen", "minimal"}
#: The title of the dialog a refusal gives when the program was started from the desktop.
REFUSED_TITLE = "Cannot start"


def started_from_desktop() -> bool:
    """Whether nobody reads this program's stderr: neither stdin nor stderr is a terminal, as
    when the desktop starts it (its menu entry, a double-clicked save, ``gio open``)."""
    def terminal(stream) -> bool:
        try:
            return stream is not None and stream.isatty()
        except (AttributeError, ValueError, OSError):    # closed or not a real stream
            return False
    return not terminal(sys.stdin) and not terminal(sys.stderr)


def display_available() -> bool:
    """Whether a window can be shown at all (without one, Qt would abort the process)."""
    if sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def tell_refusal(message: str) -> None:
    """A refusal of a window command (``open`` of a damaged save, a bad option, exit 2) when
    the program was started from the desktop: the ``error:`` line on stderr reaches nobody
    there, so it is shown in a dialog too. From a terminal, or for a script (the autopilot),
    the error line is enough."""
    if (not started_from_desktop() or os.environ.get(AUTOPILOT_VARIABLE)
            or not display_available()):
        return
    app = make_application()
    if app.platformName() in UNSEEN_PLATFORMS:
        return
    from PySide6.QtWidgets import QMessageBox
    QMessageBox.critical(None, REFUSED_TITLE, message)


def main(args) -> int:
    from struggle_desktop.ui.screens import require_screen

    require_screen(getattr(args, "game_id", None))     # before any window opens
    if getattr(args, "command", None) == "render":
        return render_command(args)
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from struggle_desktop.ui.screens import window_class
    from struggle_desktop.ui.settings import app_settings, unwritable_folders
    from struggle_desktop.ui.shell import clean_leftovers, crashed_game_waiting, mark_running

    ours = QApplication.instance() is None       # this run is the program, not a test's call
    app = make_application()
    settings = app_settings()
    unkept = unwritable_folders()   # a read-only home still plays: said once, below
    clean_leftovers(settings)       # before anything is saved in this run
    crashed = crashed_game_waiting(settings)
    # The screen of the game asked for (play, open), else Struggle's; the new-game dialog
    # and Open switch screens when the player picks another game.
    window = window_class(getattr(args, "game_id", None) or "struggle")(settings=settings)
    mark_running(settings)
    if sys.platform == "darwin":
        # Only macOS hands files over as FileOpen events; elsewhere the filter would only
        # see every event of the program go by.
        listen_for_opened_files(app)
    window.show()
    command = getattr(args, "command", None)
    first = None                    # what the player is asked first, once the window is up
    if command == "play":
        seed = args.seed if args.seed is not None else random.randrange(1, 10**6)
        window.new_game(args.game, args.scenario, seed, getattr(args, "options", {}) or {})
    elif command == "open":
        open_checked(window, args)
    elif crashed is not None:
        first = lambda: offer_resume(window, crashed)      # noqa: E731
    elif not os.environ.get(AUTOPILOT_VARIABLE):
        first = window.new_game_dialog
    if unkept:
        (front_window() or window).show_message(unkept_line(unkept))
        if not os.environ.get(AUTOPILOT_VARIABLE):       # a script has nobody to read it
            first = tell_unkept(unkept, then=first)
    if first is not None:
        QTimer.singleShot(0, first)
    script = os.environ.get(AUTOPILOT_VARIABLE)
    if script:
        QTimer.singleShot(300, lambda: run_autopilot(window, script))
    code = app.exec()
    if ours:
        leave_quickly()
    return code


def leave_quickly() -> None:
    """The window has closed and the program is about to end: no more garbage collection.
    The interpreter's last collections walked every object of the game, its undo records and
    its widgets, and took 0.2-0.5 s of a quit (benchmarks/bench_quit.py, docs/performance.md);
    everything was saved before (the layout and settings as the window closed, the game at
    every action), and the memory goes back with the process. The exit functions still run
    and the output is still flushed."""
    import gc

    gc.disable()
    gc.freeze()


def unkept_line(unkept: list) -> str:
    """The status bar's line when some of the user's folders cannot be written."""
    short = {"settings": "settings kept in memory only", "autosave": "no autosave",
             "cache": "no cache"}
    names = [what for what, *_ in unkept]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return (f"Cannot write the {listed} folder{'s' if len(names) > 1 else ''}: "
            + ", ".join(short[what] for what in names))


def tell_unkept(unkept: list, then=None):
    """A one-time message at start naming each folder that cannot be written, why, and what
    the player does without it; ``then`` runs after it (the new-game dialog, a resume)."""
    def tell() -> None:
        from PySide6.QtWidgets import QMessageBox

        rows = "".join(f"<li>{html.escape(what)} folder <code>{html.escape(str(folder))}"
                       f"</code> ({html.escape(why)}): {html.escape(lost)}.</li>"
                       for what, folder, why, lost in unkept)
        QMessageBox.warning(front_window(), "Some of your folders cannot be written",
                            f"The program runs, but:<ul>{rows}</ul>")
        if then is not None:
            then()
    return tell


def listen_for_opened_files(app) -> None:
    """Open the saves the system hands to the running program. On macOS a save double-clicked
    in the Finder (or dropped on the Dock icon) arrives as a FileOpen event, not on the command
    line; it opens in the window in front, as File > Open would."""
    from PySide6.QtCore import QEvent, QObject

    class FileOpenListener(QObject):
        def eventFilter(self, watched, event) -> bool:
            if event.type() != QEvent.Type.FileOpen:
                return False
            window = front_window()
            if window is not None and event.file():
                window.open_file(event.file())
            return True

    if app.findChild(QObject, "file-open-listener") is None:
        listener = FileOpenListener(app)     # the application keeps it
        listener.setObjectName("file-open-listener")
        app.installEventFilter(listener)


def front_window():
    """The game window the player is using: the active one, else any shown one."""
    from PySide6.QtWidgets import QApplication

    from struggle_desktop.ui.shell import GameWindow

    active = QApplication.activeWindow()
    if isinstance(active, GameWindow) and active.isVisible():
        return active
    shown = [w for w in QApplication.topLevelWidgets()
             if isinstance(w, GameWindow) and w.isVisible()]
    return shown[0] if shown else None


def open_checked(window, args) -> None:
    """``open FILE``: show the session the command line already replayed and checked
    (``args.loaded``), or read the file again if it did not."""
    loaded = getattr(args, "loaded", None)
    if loaded is None:
        window.open_file(args.file)
        return
    from struggle_desktop.ui.document import LoadedGame, is_autosave

    session, report = loaded
    window.show_loaded(LoadedGame(Path(args.file), session.game, session, report),
                       remember=not is_autosave(args.file))


def offer_resume(window, path: Path) -> None:
    """After a crash: resume from the newest autosave that plays (``path`` first, then the
    older ones kept). If the player declines, or none plays (one warning said why), the
    new-game dialog follows."""
    from PySide6.QtWidgets import QMessageBox

    answer = QMessageBox.question(
        window, "Resume the last game?",
        "The program did not close normally last time. Resume the game from its autosave?")
    if answer == QMessageBox.StandardButton.Yes and window.resume_autosave(path):
        return
    window.new_game_dialog()


def run_autopilot(window, script: str) -> None:
    """Follow the ``STRUGGLE_DESKTOP_AUTOPILOT`` instructions (see the module docstring). An
    instruction that fails ends the program with exit code 1 and its error on stderr, so that
    a test or a screenshot script waiting for it never hangs."""
    from PySide6.QtWidgets import QApplication

    try:
        follow_autopilot(window, script)
    except Exception as exc:  # noqa: BLE001 - reported, and the program ends
        print(f"error: the autopilot failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        window.document.dirty = False
        QApplication.exit(1)


def follow_autopilot(window, script: str) -> None:
    from PySide6.QtWidgets import QApplication

    if hasattr(window, "set_speed"):
        window.set_speed("instant")
    for part in filter(None, (p.strip() for p in script.split(";"))):
        key, _, value = part.partition("=")
        if key == "steps":
            for _ in range(int(value or 1)):
                QApplication.processEvents()
                if not window.autopilot_step():
                    break
                QApplication.processEvents()
        elif key == "handover":
            overlay = getattr(window, "overlay", None)
            for step in range(int(value or 500)):
                QApplication.processEvents()
                if step and overlay is not None and overlay.isVisible():
                    break
                if not window.autopilot_step():
                    break
        elif key == "mark":
            last = window.document.session.actions[-1]
            # Written whole and then renamed: the test waiting for the file never reads half.
            part = Path(value + ".part")
            part.write_text(json.dumps({
                "role": last["role"], "action": window.document.describe(last["action"])}))
            os.replace(part, value)
        elif key == "await":
            deadline = time.monotonic() + 60
            while not Path(value).exists() and time.monotonic() < deadline:
                QApplication.processEvents()
                time.sleep(0.02)
        elif key == "forecast":
            dock = window.forecast_dock
            window.show_panel(dock)
            dock.games.setValue(int(value or 100))
            dock.start()
            dock.wait(600)
        elif key == "back":
            window.step(-int(value or 1))
        elif key == "texts":
            QApplication.processEvents()
            Path(value).write_text(json.dumps(screen_texts(window)))
        elif key == "shot":
            QApplication.processEvents()
            window.grab().save(value)
        elif key == "save":
            window.document.save(value)
        elif key == "serve":
            serve(window, Path(value))
        elif key == "quit":
            window.document.dirty = False
            window.close()
            QApplication.quit()


def serve(window, folder: Path) -> None:
    """Let a test drive the window by the mouse (``serve=DIR``, see the module docstring)."""
    from PySide6.QtWidgets import QApplication

    command = folder / "next"
    while True:
        for _ in range(5):
            QApplication.processEvents()
        part = folder / "screen.json.part"
        part.write_text(json.dumps(screen_places(window)))
        os.replace(part, folder / "screen.json")
        deadline = time.monotonic() + 120
        while not command.exists() and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.02)
        if not command.exists():
            return
        verb, _, rest = command.read_text().strip().partition(" ")
        command.unlink()
        if verb == "save":
            window.document.save(rest)
        elif verb == "shot":
            window.grab().save(rest)
        elif verb != "look":
            return


def screen_places(window) -> dict:
    """Where a person finds things on the screen now, in screen pixels: the centre of each
    counter in the set-up tray, of each sector of the map that is in view, of the Continue
    button; and what the game waits for."""
    from PySide6.QtCore import Qt

    from struggle_desktop.ui.docks.tray import PieceRole

    def centre(widget, point=None) -> list[int]:
        at = widget.mapToGlobal(point if point is not None else widget.rect().center())
        return [at.x(), at.y()]

    board = window.document.board or {}
    prompt = board.get("prompt") or {}
    places: dict = {"turn": board.get("turn"), "phase": board.get("phase"),
                    "prompt": prompt.get("kind"), "tray": [], "sectors": {},
                    "pieces": {}, "continue": None, "outcome": board.get("outcome")}
    tray = getattr(window, "tray_dock", None)
    if tray is not None and tray.widget_built and tray.isVisible():
        listing = tray.list
        for row in range(listing.count()):
            rect = listing.visualItemRect(listing.item(row))
            if listing.viewport().rect().contains(rect.center()):
                places["tray"].append({"id": listing.item(row).data(PieceRole),
                                       "at": centre(listing.viewport(), rect.center())})
    view, scene = getattr(window, "view", None), getattr(window, "scene", None)
    if view is not None and scene is not None:
        shown = view.viewport().rect()
        for n in board.get("sectors", {}):
            point = view.mapFromScene(scene.sector_center(n))
            if shown.contains(point):
                places["sectors"][str(n)] = centre(view.viewport(), point)
        for item in scene.counter_items():
            point = view.mapFromScene(item.sceneBoundingRect().center())
            if shown.contains(point):
                for pid in item.piece_ids:
                    places["pieces"][pid] = centre(view.viewport(), point)
    places["answers"] = {}
    decision = getattr(window, "decision_dock", None)
    if decision is not None and decision.widget_built and decision.isVisible():
        choices = decision.choices
        for row in range(choices.count()):
            item = choices.item(row)
            rect = choices.visualItemRect(item)
            if not item.isHidden() and choices.viewport().rect().contains(rect.center()):
                verb = item.data(Qt.ItemDataRole.UserRole)["verb"]
                places["answers"].setdefault(verb, centre(choices.viewport(), rect.center()))
    button = getattr(getattr(window, "turn_dock", None), "continue_button", None)
    if (button is not None and button.isVisible() and button.isEnabled()
            and not button.visibleRegion().isEmpty()):
        places["continue"] = centre(button)
    places["moves"] = {}
    for entry in prompt.get("actions", ()):
        drop = entry.get("drop") or {}
        if entry["action"].get("verb") == "move" and drop:
            places["moves"].setdefault(drop["piece"], []).append(drop["sector"])
    return places


def screen_texts(window) -> dict:
    """What the window shows in words (for the end-to-end test of the hand-over screen)."""
    from PySide6.QtWidgets import QApplication, QLabel, QMenu

    overlay = getattr(window, "overlay", None)
    covered = overlay is not None and overlay.isVisible()
    menus = {menu.title(): [act.text() for act in menu.actions()]
             for menu in window.menuBar().findChildren(QMenu)}
    popup = QApplication.activePopupWidget()
    return {
        "title": window.windowTitle(),
        "status": window.status_text.text(),
        "covered": covered,
        "seat": window.document.seat,
        "menu_bar_enabled": window.menuBar().isEnabled(),
        "looking_back": window.document.looking_back,
        "timeline": window.timeline_bar.where.text(),
        "forecast": (window.forecast_dock.note.text()
                     if window.forecast_dock.widget_built else ""),
        "menus": menus,
        "popup": [act.text() for act in popup.actions()] if popup is not None else None,
        # Under the hand-over screen only its own words are on show.
        "shown": ([label.text() for label in overlay.findChildren(QLabel)]
                  + [overlay.button.text()]) if covered else [],
    }


def render_command(args) -> int:
    """``render``: the window's map scene drawn offscreen into a PNG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from struggle_desktop.engine.errors import StruggleError
    from struggle_desktop.ui.document import GameDocument
    from struggle_desktop.ui.screens import renderer

    make_application()
    document = GameDocument(autosave=False)
    document.watch = False
    loaded = getattr(args, "loaded", None)
    if loaded is not None:          # render FILE --at K: the command line replayed it
        document.install_session(loaded, Path(args.file))
    elif args.file:
        document.open(args.file)
    else:
        document.new_game(args.game, args.scenario, args.seed if args.seed is not None else 1, {})
        opening_placement(document)
    # A game of several sides is drawn as every side may see it (no side's hand, plan or
    # prompt), unless --side names the side whose view to draw.
    side = getattr(args, "side", None)
    if side is not None:
        document.set_seat(side, quiet=True)
    elif len(document.game.roles) > 1:
        document.set_seat("public", quiet=True)
    size = tuple(args.size) if args.size else DEFAULT_RENDER_SIZE
    image = renderer(document.game.id)(document.layout, document.board, size)
    out = Path(args.out)
    if not image.save(str(out)):
        raise StruggleError(f"cannot write {out}")
    print(out)
    return 0


def opening_placement(document) -> None:
    """A scenario's opening as the player first sees it on the table: if the set-up waits for
    the player to place forces, let the program place them (the same as its button). In a
    game of several players the program plays every side up to the opening the screen names
    (``screens.opening_reached``: Battles' first Actions phase, Noble Houses' first turn), and
    the board is shown as every player may see it."""
    from struggle_desktop.ui.screens import opening_reached

    if len(document.game.roles) > 1:
        document.set_seat("public", quiet=True)
        while (document.waiting_role is not None
               and not opening_reached(document.game.id, document.state)):
            document.perform(document.program_action("bot"), document.waiting_role)
        return
    for action in document.legal_actions():
        if action.get("verb") == "auto_place":
            document.perform(action)
            return
