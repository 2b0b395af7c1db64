"""The resolution view: the Mission phase of one environs on one page (Part A).

From top to bottom:

* the step counter (step k of N, FIG-MIS-5) with the segment, and the scenario;
* the decision waited for, as a form (prompts.py), or who it waits for — or at the end the
  outcome summary (FIG-MIS-24): each change with its rule ID and what to do on the board,
  with a Copy button that puts the plain text on the clipboard. It comes first, so nothing
  above it changes its place from one question to the next;
* the environs summary (location, size, type, planet state and loyalty, enemy, creature,
  races, the phasing side's characters) beside the last random event and the last
  mission-success roll, each drawn as its two dice — the dark tens die and the light units
  die (FIG-GEN-3) — with the value, the event's row or the letters (a letter that scored for
  a group is marked);
* the groups: mission letter and name, leader, members, status, success levels, bonus
  adjustment (FIG-BDR-10), bonus dice count and rolls once in the bonus segment, and a
  Call off button per active group while the call-off prompt waits (FIG-MIS-16).

The view draws a board (games/freedom/presentation.py) and hands the player's answers to
``act(action) -> reason or None``; it never changes the game. ``render_image`` draws it
offscreen for the ``render`` command.
"""

from __future__ import annotations

import html
import json
from typing import Callable

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QGridLayout, QGroupBox, QHBoxLayout,
                               QHeaderView, QLabel, QPushButton, QScrollArea, QSizePolicy,
                               QTableWidget, QTableWidgetItem, QTextBrowser, QVBoxLayout,
                               QWidget)

from struggle_desktop.ui.docks.style import D6_PIPS, nobreak, ui_font
from struggle_desktop.ui.freedom.modes import mode_view_class
from struggle_desktop.ui.freedom.prompts import build_form, label

#: The two dice of a p2d6 look different (FIG-GEN-3): a dark tens die, a light units die.
TENS_FILL, TENS_INK = QColor("#7a2e2a"), QColor("#fbf5ea")
UNITS_FILL, UNITS_INK = QColor("#f4efe4"), QColor("#1d1a15")
DIE_EDGE = QColor("#4a4438")
SCORED = "#1f7a3a"
STATUS_COLOURS = {"active": "#1f7a3a", "waiting": "#2f6fbf", "aborted": "#b3261e",
                  "called_off": "#8a6d1f", "forming": "#5f6670"}
COLUMNS = ("Group", "Mission", "Leader", "Members", "Status", "Levels", "Bonus adj.",
           "Bonus dice", "")
#: The groups-table columns that share the width left (their words wrap), and the least
#: width each of them keeps.
STRETCHING = (1, 3, 7)
STRETCH_MIN_WIDTH = 90


class DieFace(QWidget):
    """One six-sided die, with the word under it ("tens" or "units")."""

    SIZE = 46

    def __init__(self, caption: str, dark: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.caption = caption
        self.dark = dark
        self.face: int | None = None
        self.setFixedSize(self.SIZE + 8, self.SIZE + 24)
        self.setToolTip(f"The {caption} die")

    def set_face(self, face: int | None) -> None:
        self.face = face
        self.update()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(4, 2, self.SIZE, self.SIZE)
        fill, ink = (TENS_FILL, TENS_INK) if self.dark else (UNITS_FILL, UNITS_INK)
        if self.face is None:
            fill = QColor("#dcdcdc")
        painter.setPen(DIE_EDGE)
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 8, 8)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        step = rect.width() / 4
        for col, row in D6_PIPS.get(self.face or 0, []):
            painter.drawEllipse(rect.left() + step * (col + 1) - 4,
                                rect.top() + step * (row + 1) - 4, 8, 8)
        painter.setPen(QColor("#3b3f46"))
        painter.setFont(ui_font(8))
        painter.drawText(QRectF(0, self.SIZE + 4, self.width(), 18),
                         Qt.AlignmentFlag.AlignCenter, self.caption)
        painter.end()


class RollBox(QGroupBox):
    """A p2d6 roll: the tens and units dice, the value read as tens then units, and what it
    meant (the event's row, or the letters scored)."""

    def __init__(self, title: str, object_name: str, parent: QWidget | None = None):
        super().__init__(title, parent)
        self.setObjectName(object_name)
        row = QHBoxLayout(self)
        self.tens = DieFace("tens", True)
        self.units = DieFace("units", False)
        self.value = QLabel("—")
        self.value.setObjectName(f"{object_name}-value")
        self.value.setFont(ui_font(22, bold=True))
        self.value.setMinimumWidth(56)
        self.value.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = label("Not rolled yet.")
        self.text.setObjectName(f"{object_name}-text")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(self.tens)
        row.addWidget(self.units)
        row.addWidget(self.value)
        row.addWidget(self.text, 1)

    def show_roll(self, roll: dict | None, html_text: str) -> None:
        if roll is None:
            self.tens.set_face(None)
            self.units.set_face(None)
            self.value.setText("—")
            self.text.setText(html_text or "Not rolled yet.")
            return
        self.tens.set_face(roll["tens"])
        self.units.set_face(roll["units"])
        self.value.setText(str(roll["value"]))
        self.value.setToolTip(roll["text"])
        self.text.setText(html_text)


def event_html(event: dict | None) -> str:
    if event is None:
        return "No random event rolled yet."
    parts = [f"<b>Step {event['step']} · row {html.escape(nobreak(event['row']))}</b>",
             html.escape(event["summary"])]
    outcome = event.get("outcome") or ""
    if outcome and not outcome.startswith("Event "):
        parts.append(f"<i>{html.escape(outcome)}</i>")
    return "<br>".join(parts)


def success_html(success: dict | None) -> str:
    if success is None:
        return "No mission-success roll yet."
    letters = []
    for x in success["letters"]:
        text = f"{html.escape(x['letter'])} <small>{html.escape(x['name'])}</small>"
        if x["scored"]:
            text = f"<span style='color:{SCORED}'><b>{text} ✓</b></span>"
        letters.append(text)
    head = f"<b>Step {success['step']} · letters</b> " + (" · ".join(letters) or "none")
    outcome = success.get("outcome") or ""
    scored = [x for x in success["letters"] if x["scored"]]
    tail = ("a group gains a level" if len(scored) == 1 else
            f"{len(scored)} groups gain a level" if scored else "no active mission scores")
    return f"{head}<br><i>{html.escape(tail)}</i>" + (
        f"<br><small>{html.escape(outcome)}</small>" if scored and outcome else "")


# ====================================================================== the page
class ResolutionView(QScrollArea):
    """The Mission phase of one environs. ``act(action)`` performs an answer and returns
    None, or the game's reason for refusing it; ``copy_done(text)`` is told when the
    summary was copied (the window's status bar)."""

    def __init__(self, act: Callable[[dict], "str | None"] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("freedom-resolution")
        self.act = act or (lambda _action: "this picture cannot act")
        self.copy_done: Callable[[str], None] | None = None
        self.board: dict | None = None
        self._form_key: str | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        page = QWidget()
        page.setObjectName("freedom-page")
        self.page = page
        column = QVBoxLayout(page)
        column.setContentsMargins(10, 8, 10, 8)
        column.setSpacing(8)

        # The step counter and the scenario (FIG-MIS-5).
        head = QHBoxLayout()
        self.step_label = QLabel()
        self.step_label.setObjectName("freedom-step")
        self.step_label.setFont(ui_font(17, bold=True))
        self.scenario_label = label("", muted=True, wrap=False)
        self.scenario_label.setAlignment(Qt.AlignmentFlag.AlignRight
                                         | Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.step_label)
        head.addStretch(1)
        head.addWidget(self.scenario_label)
        column.addLayout(head)

        # The decision, or the summary at the end, first under the step counter: nothing
        # above it changes height from one question to the next (the environs and the groups
        # table did, and Continue moved between steps), and it is in view without scrolling.
        self.prompt_box = QGroupBox("Decision")
        self.prompt_box.setObjectName("freedom-prompt")
        self.prompt_column = QVBoxLayout(self.prompt_box)
        self.form: QWidget | None = None
        column.addWidget(self.prompt_box)
        self.summary_box = self._build_summary()
        column.addWidget(self.summary_box)

        # The environs beside the last two rolls.
        top = QHBoxLayout()
        self.environs_box = QGroupBox("Environs")
        self.environs_box.setObjectName("freedom-environs")
        self.environs_grid = QGridLayout(self.environs_box)
        self.environs_grid.setHorizontalSpacing(12)
        self.environs_grid.setVerticalSpacing(3)
        self.environs_grid.setColumnStretch(1, 1)
        rolls = QVBoxLayout()
        self.event_box = RollBox("Last random event", "freedom-event")
        self.success_box = RollBox("Last mission-success roll", "freedom-success")
        rolls.addWidget(self.event_box)
        rolls.addWidget(self.success_box)
        rolls.addStretch(1)
        top.addWidget(self.environs_box, 11)
        top.addLayout(rolls, 10)
        column.addLayout(top)

        # The groups.
        self.groups_box = QGroupBox("Mission groups")
        groups_column = QVBoxLayout(self.groups_box)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("freedom-groups")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        for col in range(len(COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        # The long columns (mission and target, members, bonus dice) share the width left and
        # wrap their words (STRETCHING).
        for col in STRETCHING:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        # The last column holds a Call off button, which "resize to contents" does not see
        # (the cell has no text): it gets the button's whole width, as do the rows its height.
        self._button_size = QPushButton("Call off").sizeHint()
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Fixed)
        self.table.setColumnWidth(len(COLUMNS) - 1, self._button_size.width() + 8)
        self.no_groups = label("No group yet.", muted=True)
        groups_column.addWidget(self.table)
        groups_column.addWidget(self.no_groups)
        column.addWidget(self.groups_box)
        column.addStretch(1)
        self.setWidget(page)

    def _build_summary(self) -> QGroupBox:
        box = QGroupBox("Outcome: what to change on the board (FIG-MIS-24)")
        box.setObjectName("freedom-summary")
        column = QVBoxLayout(box)
        row = QHBoxLayout()
        self.result_label = QLabel()
        self.result_label.setObjectName("freedom-result")
        self.result_label.setFont(ui_font(11, bold=True))
        self.result_label.setWordWrap(True)
        self.copy_button = QPushButton("&Copy")
        self.copy_button.setObjectName("freedom-copy")
        self.copy_button.setToolTip("Put the summary on the clipboard as plain text")
        self.copy_button.clicked.connect(self.copy_summary)
        row.addWidget(self.result_label, 1)
        row.addWidget(self.copy_button)
        column.addLayout(row)
        self.summary_text = QTextBrowser()
        self.summary_text.setObjectName("freedom-summary-text")
        self.summary_text.setOpenLinks(False)
        self.summary_text.setMinimumHeight(260)
        self.summary_text.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        column.addWidget(self.summary_text)
        box.hide()
        return box

    # ------------------------------------------------------------------ drawing
    def show_board(self, board: dict | None) -> None:
        self.board = board
        if not board or board.get("kind") != "mission-phase":
            return
        self.step_label.setText(board["step"]["text"])
        self.scenario_label.setText(f"{board['title']} · seed {board['seed']}")
        self._show_environs(board["environs"])
        self.event_box.show_roll(board.get("event"), event_html(board.get("event")))
        self.success_box.show_roll(board.get("success"), success_html(board.get("success")))
        self._show_groups(board)
        self._show_prompt(board)
        self._show_summary(board.get("outcome"))

    def _show_environs(self, env: dict) -> None:
        grid = self.environs_grid
        while grid.count():
            widget = grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.environs_box.setTitle(env["title"])
        row = 0
        for name, value, tip in env["rows"]:
            key = label(f"{name}", bold=True, wrap=False)
            text = label(value)
            if tip:
                text.setToolTip(tip)
            grid.addWidget(key, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(text, row, 1)
            row += 1
        if env["characters"]:
            people = "<br>".join(f"{html.escape(c['name'])} "
                                 f"<span style='color:#5f6670'>({html.escape(c['text'])})</span>"
                                 for c in env["characters"])
            key = label("Characters", bold=True, wrap=False)
            text = label(people)
            text.setTextFormat(Qt.TextFormat.RichText)
            grid.addWidget(key, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(text, row, 1)

    def _show_groups(self, board: dict) -> None:
        rows = board["groups"]
        self.groups_box.setTitle("Mission groups being formed" if board.get("forming")
                                 else "Mission groups")
        table = self.table
        table.clearContents()
        table.setRowCount(len(rows))
        for r, g in enumerate(rows):
            members = ", ".join(g["members"]) or "—"
            if g["lost"]:
                members += f" (lost: {', '.join(g['lost'])})"
            mission = f"{g['mission']} {g['mission_name']}"
            if g.get("target"):
                mission += f" → {g['target']}"
            if g.get("ship"):
                mission += f" in {g['ship']}"
            if g.get("torture"):
                mission += " (torture)"
            bonus = g["bonus_text"]
            if g["rolls"]:
                bonus += ": " + " ".join(f"{x['value']}{'✓' if x['hit'] else ''}"
                                         for x in g["rolls"])
            if g["rolling"]:
                bonus += "  ← rolling"
            cells = [g["id"], mission, g["leader"], members, g["status_text"],
                     str(g["level"]), f"{g['bonus_adj']:+d}" if g["bonus_adj"] else "0", bonus]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 1:
                    item.setToolTip(g["summary"])
                if c == 4:
                    item.setForeground(QColor(STATUS_COLOURS.get(g["status"], "#000000")))
                if c in (0, 5):
                    item.setFont(ui_font(10, bold=True))
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                table.setItem(r, c, item)
            if g["can_call_off"]:
                button = QPushButton("Call off")
                button.setObjectName(f"freedom-call-off-{g['id']}")
                button.setToolTip(f"Call off {g['id']}: it keeps level {g['level']}, takes no "
                                  "bonus rolls and is immune from now on (FIG-MIS-16)")
                button.clicked.connect(lambda _=False, gid=g["id"]: self.act(
                    {"verb": "call_off", "group": gid}))
                table.setCellWidget(r, len(COLUMNS) - 1, button)
            else:
                table.removeCellWidget(r, len(COLUMNS) - 1)
        table.resizeRowsToContents()
        for r, g in enumerate(rows):
            if g["can_call_off"]:
                table.setRowHeight(r, max(table.rowHeight(r), self._button_size.height() + 4))
        # Never narrower than its columns need (those that stretch get a little room each):
        # in a narrow window the page scrolls sideways rather than push the Call off column
        # off the table's edge.
        header = table.horizontalHeader()
        table.setMinimumWidth(
            sum(max(table.sizeHintForColumn(c), header.sectionSizeHint(c))
                for c in range(len(COLUMNS) - 1) if c not in STRETCHING)
            + len(STRETCHING) * STRETCH_MIN_WIDTH + table.columnWidth(len(COLUMNS) - 1)
            + 2 * table.frameWidth())
        height = table.horizontalHeader().height() + sum(table.rowHeight(r)
                                                         for r in range(len(rows))) + 4
        table.setFixedHeight(height)
        table.setVisible(bool(rows))
        self.no_groups.setVisible(not rows)

    def call_off_button(self, gid: str) -> QPushButton | None:
        """The Call off button in the row of group ``gid``, if it has one now."""
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 0)
            if item is not None and item.text() == gid:
                widget = self.table.cellWidget(r, len(COLUMNS) - 1)
                return widget if isinstance(widget, QPushButton) else None
        return None

    def _show_prompt(self, board: dict) -> None:
        prompt = board.get("prompt")
        pending = board.get("pending")
        if board.get("outcome"):
            self.prompt_box.hide()
            self._set_form(None, "")
            return
        self.prompt_box.show()
        if prompt is not None:
            self.prompt_box.setTitle(f"Decision of {prompt['who']} — rule {prompt['rule']}")
            key = json.dumps([prompt["kind"], prompt["text"], prompt["actions"],
                              prompt.get("entered"), board.get("assign")], sort_keys=True,
                             default=str)
            if key != self._form_key:
                self._set_form(build_form(prompt, board, self.act), key)
        elif pending is not None:
            self.prompt_box.setTitle(f"Waiting for {pending['who']}")
            who = pending["who"][:1].upper() + pending["who"][1:]
            self._set_form(label(f"{who} decides: {pending['text']} ({pending['rule']})"),
                           f"wait:{pending['text']}")
        else:
            self.prompt_box.setTitle("Decision")
            self._set_form(label("The program is resolving…", muted=True), "busy")

    def _set_form(self, widget: QWidget | None, key: str) -> None:
        if self.form is not None:
            self.prompt_column.removeWidget(self.form)
            self.form.hide()
            self.form.deleteLater()     # not now: its button may be the one being clicked
        self.form = widget
        self._form_key = key
        if widget is not None:
            self.prompt_column.addWidget(widget)

    def _show_summary(self, outcome: dict | None) -> None:
        self.summary_box.setVisible(outcome is not None)
        if outcome is None:
            return
        self.result_label.setText(f"{outcome['text']}: {outcome['result']}")
        rows = "".join(
            f"<tr><td style='padding:3px 8px; white-space:nowrap; color:#5f6670'>{k}.</td>"
            f"<td style='padding:3px 8px; white-space:nowrap'><b>{html.escape(line['rule'])}</b>"
            f"</td><td style='padding:3px 8px'>{html.escape(line['text'])}</td>"
            f"<td style='padding:3px 8px; color:#2f5f8f'>{html.escape(line['instruction'])}"
            f"</td></tr>"
            for k, line in enumerate(outcome["lines"], start=1))
        self.summary_text.setHtml(
            "<table cellspacing='0' width='100%'><tr><th align='left'>#</th>"
            "<th align='left'>Rule</th><th align='left'>Change</th>"
            f"<th align='left'>On the board</th></tr>{rows}</table>")

    def summary_text_plain(self) -> str:
        outcome = (self.board or {}).get("outcome")
        return outcome["copy_text"] if outcome else ""

    def copy_summary(self) -> None:
        """Put the outcome summary on the clipboard as plain text."""
        text = self.summary_text_plain()
        if not text:
            return
        QGuiApplication.clipboard().setText(text)
        if self.copy_done is not None:
            self.copy_done(text)


# ====================================================================== offscreen
class _Picture:
    """The host of a mode view drawn for a picture: it cannot act."""

    document = None

    @staticmethod
    def perform(_action: dict) -> bool:
        return False


def render_image(layout: dict, board: dict | None, size=(1600, 1000)):
    """The resolution view of ``board`` as an image of ``size`` pixels (the ``render``
    command); a Part B or C board is drawn as the decision it waits for."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    from struggle_desktop.ui.map.render import ensure_fonts

    ensure_fonts()
    QApplication.setFont(QFont("DejaVu Sans", 10))
    width, height = size
    cls = mode_view_class(board.get("kind")) if board else None
    if board and board.get("kind") == "mission-phase":
        widget = ResolutionView()
        widget.show_board(board)
    elif cls is not None:
        widget = cls(_Picture())
        widget.refresh(board, list(board.get("view", {}).get("legal_actions", [])))
    else:
        pending = (board or {}).get("pending") or {}
        widget = label(f"{(board or {}).get('title', 'Freedom in the Galaxy')}\n\n"
                       f"{pending.get('who', '')}: {pending.get('text', 'nothing waits')}")
        widget.setAlignment(Qt.AlignmentFlag.AlignCenter)
        widget.setStyleSheet("background: white; font-size: 14pt;")
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.resize(QSize(width, height))
    widget.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    widget.show()
    QApplication.processEvents()
    image = widget.grab().toImage()
    widget.close()
    widget.deleteLater()
    return image


__all__ = ["ResolutionView", "render_image"]
