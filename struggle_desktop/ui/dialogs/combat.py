"""The combat dialog: the odds of an Imperial attack, shown before the die is rolled.

It shows what ``document.preview(action)`` computes (SGE-CMB-15): attack strength against
defence, the differential and the column of the results table it selects, each modifier to the
die, and every possible result with its exact chance and the units it would strike. The player
then rolls or cancels; the window performs the attack (the dialog never changes the game).

A result ``Dn`` strikes every defending unit (and system) whose relevant factor is n or less,
``An`` the same among the attacker's units; military results destroy, morphogenetic results
turn the units to the other side (SGE-CMB-9, see the house rules). ``-`` has no effect.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFrame, QGridLayout, QHBoxLayout,
                               QLabel, QMessageBox, QVBoxLayout, QWidget)

from struggle_desktop.ui.dialogs import (BAD, GOOD, NEUTRAL, heading, muted, piece_text,
                                         sector_text)

KIND_WORDS = {"mil": "military", "morph": "morphogenetic"}
#: Log entry kinds that belong to the story of one combat.
COMBAT_LOG_KINDS = {"combat", "roll", "eliminate", "convert", "ci"}


# ------------------------------------------------------------------------------ words
def percent(probability: float) -> str:
    """0.3 -> '30 %'; a share that is not a whole percent keeps one decimal."""
    value = probability * 100
    return f"{value:.0f} %" if abs(value - round(value)) < 0.05 else f"{value:.1f} %"


def result_order(code: str) -> tuple[int, int]:
    """Best for the attacker first: D3, D2, D1, no effect, A1, A2, A3."""
    if code == "-":
        return (1, 0)
    return (0, -int(code[1:])) if code[0] == "D" else (2, int(code[1:]))


def result_words(code: str, kind: str, attacker_is_player: bool = True) -> str:
    """A result in words: who is hit, how weak a unit must be to be hit, and what happens."""
    if code == "-":
        return "No effect: nobody is hit"
    size = int(code[1:])
    factor = KIND_WORDS.get(kind, kind)
    defender = code[0] == "D"
    if attacker_is_player:
        whose = "their" if defender else "your"
        turned = "go over to the Empire" if defender else "go over to Chaos"
    else:
        whose = "the defender's" if defender else "the attacker's"
        turned = "change sides"
    fate = "are destroyed" if kind == "mil" else turned
    return f"{'Defender' if defender else 'Attacker'} hit: {whose} units of {factor} {size} " \
           f"or less {fate}"


def struck_words(units: list[str], board: dict | None, defender: bool) -> str:
    if not units:
        return ("Strikes nothing here: none of their units is that weak" if defender
                else "Strikes nothing here: none of your units is that weak")
    return "Strikes: " + ", ".join(piece_text(board, u) for u in units)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ------------------------------------------------------------------------------ widgets
class ProbabilityBar(QWidget):
    """A horizontal bar filled to ``probability`` in the colour of the result."""

    def __init__(self, probability: float, colour: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.probability = max(0.0, min(1.0, probability))
        self.colour = QColor(colour)
        self.setMinimumSize(QSize(160, 18))

    def sizeHint(self) -> QSize:   # noqa: N802 (Qt's name)
        return QSize(240, 20)

    def paintEvent(self, _event) -> None:   # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        frame = QRectF(self.rect()).adjusted(0.5, 2.5, -0.5, -2.5)
        track = self.palette().color(QPalette.ColorRole.Mid)
        track.setAlpha(70)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(track)
        painter.drawRoundedRect(frame, 4, 4)
        if self.probability > 0:
            filled = QRectF(frame)
            filled.setWidth(max(6.0, frame.width() * self.probability))
            painter.setBrush(self.colour)
            painter.drawRoundedRect(filled, 4, 4)


def _chip(code: str, colour: str) -> QLabel:
    label = QLabel("–" if code == "-" else code)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setMinimumWidth(42)
    label.setStyleSheet(f"QLabel {{ background: {colour}; color: white; font-weight: bold; "
                        "border-radius: 4px; padding: 2px 6px; }")
    return label


def _number_box(caption: str, value: str) -> QFrame:
    box = QFrame()
    box.setFrameShape(QFrame.Shape.StyledPanel)
    column = QVBoxLayout(box)
    column.setContentsMargins(14, 6, 14, 6)
    column.setSpacing(0)
    number = heading(value, scale=1.8)
    number.setAlignment(Qt.AlignmentFlag.AlignCenter)
    text = muted(caption)
    text.setAlignment(Qt.AlignmentFlag.AlignCenter)
    column.addWidget(number)
    column.addWidget(text)
    box.number_label = number   # for tests and the window
    return box


class ResultRow:
    """The widgets of one possible result (kept so tests and callers can read them)."""

    def __init__(self, code: str, probability: float, words: str, struck: str, colour: str):
        self.code = code
        self.probability = probability
        self.chip = _chip(code, colour)
        self.bar = ProbabilityBar(probability, colour)
        self.percent_label = QLabel(percent(probability))
        self.percent_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        font = self.percent_label.font()
        font.setBold(True)
        self.percent_label.setFont(font)
        faces = round(probability * 10, 3)
        self.faces_label = muted(f"{faces:g} of 10 faces" if faces == int(faces) else "")
        self.words_label = QLabel(words)
        self.words_label.setWordWrap(True)
        self.struck_label = muted(struck) if struck else None
        for widget in (self.chip, self.bar, self.percent_label):
            widget.setToolTip(f"{words}\n{struck}".strip())


# ------------------------------------------------------------------------------ the dialog
class CombatDialog(QDialog):
    """The odds of one attack. ``exec()`` returns Accepted when the player chose to roll.

    ``board`` (the document's board) names the units; ``column_bands`` (the results table's
    column headings) names the column; both are optional."""

    def __init__(self, preview: dict, parent: QWidget | None = None, board: dict | None = None,
                 column_bands: list[str] | None = None):
        super().__init__(parent)
        self.preview = preview
        self.board = board
        self.setObjectName("combat-dialog")
        self.setWindowTitle("Attack?")
        kind = preview.get("kind", "mil")
        player = preview.get("attacker", "imp") == "imp"
        sector = preview.get("sector")
        layout = QVBoxLayout(self)
        layout.setSpacing(10)

        self.title_label = heading(preview.get("title") or "Attack", scale=1.5)
        layout.addWidget(self.title_label)
        if sector is not None:
            layout.addWidget(muted(f"Sector {sector_text(board, sector)} · "
                                   f"{KIND_WORDS.get(kind, kind)} combat: "
                                   + ("military factors fight, losses are destroyed"
                                      if kind == "mil" else
                                      "morphogenetic factors fight, losses change sides")))
            forces = self._forces_text(board, sector)
            if forces:
                layout.addWidget(QLabel(forces))

        # Strengths and differential, side by side.
        numbers = QHBoxLayout()
        self.attack_box = _number_box("your attack" if player else "attack",
                                      str(preview.get("attack", "?")))
        self.defence_box = _number_box("their defence" if player else "defence",
                                       str(preview.get("defence", "?")))
        diff = int(preview.get("differential", 0))
        self.differential_box = _number_box("differential",
                                            f"{diff:+d}".replace("-", "−") if diff else "0")
        vs = QLabel("against")
        vs.setAlignment(Qt.AlignmentFlag.AlignCenter)
        numbers.addWidget(self.attack_box)
        numbers.addWidget(vs)
        numbers.addWidget(self.defence_box)
        numbers.addSpacing(12)
        numbers.addWidget(self.differential_box)
        numbers.addStretch(1)
        layout.addLayout(numbers)

        column = int(preview.get("column", 0))
        band = (f" (differential {column_bands[column]})"
                if column_bands and 0 <= column < len(column_bands) else "")
        self.column_label = QLabel(f"<b>Results table:</b> {ordinal(column + 1)} column{band}")
        layout.addWidget(self.column_label)
        modifiers = [(str(name), int(value)) for name, value in preview.get("modifiers", [])]
        total = sum(v for _n, v in modifiers)
        if modifiers:
            parts = ", ".join(f"{name} {value:+d}" for name, value in modifiers)
            text = f"<b>Die modifiers:</b> {parts}" + (f" (total {total:+d})"
                                                       if len(modifiers) > 1 else "")
        else:
            text = "<b>Die modifiers:</b> none"
        self.modifiers_label = QLabel(text)
        self.modifiers_label.setWordWrap(True)
        layout.addWidget(self.modifiers_label)

        # Every possible result, best for the attacker first.
        layout.addWidget(heading("What the die can bring", scale=1.1))
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(2)
        grid.setColumnStretch(3, 1)
        self.rows: dict[str, ResultRow] = {}
        results = preview.get("results", {})
        affected = preview.get("affected", {})
        line = 0
        for code in sorted(results, key=result_order):
            probability = float(results[code])
            colour = NEUTRAL if code == "-" else (GOOD if (code[0] == "D") == player else BAD)
            struck = "" if code == "-" else struck_words(affected.get(code, []), board,
                                                        code[0] == "D")
            row = ResultRow(code, probability, result_words(code, kind, player), struck, colour)
            self.rows[code] = row
            grid.addWidget(row.chip, line, 0)
            grid.addWidget(row.percent_label, line, 1)
            grid.addWidget(row.faces_label, line, 2)
            grid.addWidget(row.bar, line, 3)
            grid.addWidget(row.words_label, line + 1, 1, 1, 3)
            if row.struck_label is not None:
                grid.addWidget(row.struck_label, line + 2, 1, 1, 3)
            grid.setRowMinimumHeight(line + 3, 8)
            line += 4
        layout.addLayout(grid)

        self.summary_label = QLabel(self._summary(results, affected, player))
        self.summary_label.setWordWrap(True)
        layout.addWidget(self.summary_label)

        self.buttons = QDialogButtonBox()
        self.roll_button = self.buttons.addButton("&Roll the die",
                                                  QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)
        layout.addWidget(self.buttons)
        self.roll_button.setFocus()
        self.setMinimumWidth(620)

    @staticmethod
    def _forces_text(board: dict | None, sector: int) -> str:
        if not board or sector not in board.get("sectors", {}):
            return ""
        pieces = board.get("pieces", {})
        mine, theirs = [], []
        for pid in board["sectors"][sector].get("pieces", []):
            piece = pieces.get(pid, {})
            if piece.get("kind") not in ("unit", "system"):
                continue
            name = pid if piece["kind"] == "unit" else "system"
            text = f"{name} {piece.get('values', '')}"
            (mine if piece.get("side") == "imp" else theirs).append(text.strip())
        if not mine and not theirs:
            return ""
        return (f"<b>Yours:</b> {', '.join(mine) or 'none'} &nbsp;·&nbsp; "
                f"<b>Theirs:</b> {', '.join(theirs) or 'none'}")

    @staticmethod
    def _summary(results: dict, affected: dict, player: bool) -> str:
        """The chance that each side actually loses something (results that strike nobody
        here change nothing)."""
        hit_them = sum(p for c, p in results.items() if c[0] == "D" and affected.get(c))
        hit_us = sum(p for c, p in results.items() if c[0] == "A" and affected.get(c))
        nothing = max(0.0, 1.0 - hit_them - hit_us)
        them, us = ("they", "you") if player else ("the defender", "the attacker")
        return (f"<b>In short:</b> {them} lose something {percent(hit_them)} of the time, "
                f"{us} lose something {percent(hit_us)}, nothing changes {percent(nothing)}.")

    def probabilities(self) -> dict[str, float]:
        """The chance shown for each result code."""
        return {code: row.probability for code, row in self.rows.items()}


def ask_attack(parent: QWidget | None, document: Any, action: dict) -> bool:
    """Show the odds of ``action`` (an attack) and return True if the player wants to roll.
    The caller performs the action. Actions without a preview are confirmed at once."""
    preview = document.preview(action)
    if preview is None:
        return document.check(action) is None
    from struggle_desktop.ui.dialogs.house_rules import combat_columns
    dialog = CombatDialog(preview, parent, board=document.board,
                          column_bands=combat_columns(document.game))
    try:
        return dialog.exec() == QDialog.DialogCode.Accepted
    finally:
        dialog.deleteLater()


# ------------------------------------------------------------------------------ after the roll
def combat_summary(entries: list[dict]) -> str:
    """The story of one resolved attack from its log entries, one line each (dice included)."""
    lines = []
    for entry in entries:
        if entry.get("kind") not in COMBAT_LOG_KINDS:
            continue
        text = entry.get("text", "")
        if entry.get("kind") == "roll" and entry.get("dice"):
            die = entry["dice"][0]
            mods = die.get("modifiers") or []
            if mods:
                extra = ", ".join(f"{name} {value:+d}" for name, value in mods)
                text = f"{text} ({extra}: {die.get('result')})"
        rule = entry.get("rule")
        lines.append(f"{text}  [{rule}]" if rule else text)
    return "\n".join(lines)


def show_result(parent: QWidget | None, entries: list[dict]) -> QMessageBox | None:
    """Open (without blocking) a short report of the attack just resolved; returns the box,
    or None when the entries hold no combat."""
    text = combat_summary(entries)
    if not text:
        return None
    box = QMessageBox(parent)
    box.setWindowTitle("Combat result")
    box.setIcon(QMessageBox.Icon.Information)
    result = next((e["text"] for e in entries if e.get("kind") == "combat"
                   and "result" in e.get("text", "")), "")
    box.setText(result or "The attack is resolved.")
    box.setInformativeText(text)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setStyleSheet("QLabel { min-width: 460px; }")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
