"""The window's dialogs: new game, combat odds, recruitment, house rules and About.

The dialog classes are imported on first use (``from struggle_desktop.ui.dialogs import
CombatDialog`` works, but importing this package alone builds nothing), so start-up does not
pay for dialogs the player never opens. The small helpers below are shared by the dialogs.
"""

from __future__ import annotations

import importlib
from typing import Any

from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QLabel, QWidget

#: public name -> module that defines it
_EXPORTS = {
    "NewGameDialog": "new_game", "choose_new_game": "new_game",
    "CombatDialog": "combat", "ask_attack": "combat", "show_result": "combat",
    "combat_summary": "combat",
    "RecruitPanel": "recruit", "RecruitDialog": "recruit",
    "HouseRulesDialog": "house_rules", "house_rules_html": "house_rules",
    "AboutDialog": "about",
}

__all__ = ["AboutDialog", "CombatDialog", "HouseRulesDialog", "NewGameDialog", "RecruitDialog",
           "RecruitPanel", "ask_attack", "choose_new_game", "combat_summary",
           "house_rules_html", "show_result"]

#: Colours that read on light and dark window themes and stay apart for colour-blind eyes
#: (blue for the Empire / good for the player, orange-red for losses, grey for nothing).
GOOD = "#2f6fbf"
BAD = "#c8553d"
NEUTRAL = "#8a8f98"
ERROR = "#b3261e"


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def heading(text: str = "", scale: float = 1.35, parent: QWidget | None = None) -> QLabel:
    """A bold, larger label for the title of a dialog or a section."""
    label = QLabel(text, parent)
    font = QFont(label.font())
    font.setBold(True)
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * scale)
    label.setFont(font)
    label.setWordWrap(True)
    return label


def muted(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A secondary line (file paths, rule IDs) in the theme's placeholder colour."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText,
                     palette.color(QPalette.ColorRole.PlaceholderText))
    label.setPalette(palette)
    return label


def error_label(parent: QWidget | None = None) -> QLabel:
    """Where a dialog says what is wrong with the input; hidden while there is nothing."""
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setObjectName("dialog-error")
    label.setStyleSheet(f"QLabel#dialog-error {{ color: {ERROR}; font-weight: bold; }}")
    label.setVisible(False)
    return label


def show_error(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


def sector_text(board: dict | None, number: int | None) -> str:
    """'17 Name' when the board knows the sector, else the number alone."""
    if number is None:
        return ""
    sector = (board or {}).get("sectors", {}).get(number) if board else None
    name = sector.get("name") if sector else None
    return f"{number:02d} {name}" if name else f"{number:02d}"


def piece_text(board: dict | None, piece_id: str) -> str:
    """A piece in words, from the first line of its tooltip ('Star Fleet SF-03 (Imperial)')."""
    piece = (board or {}).get("pieces", {}).get(piece_id) if board else None
    if piece and piece.get("tooltip"):
        return piece["tooltip"].split("\n")[0]
    if piece_id.startswith("system:"):
        return f"the system unit in {piece_id.split(':', 1)[1]}"
    return piece_id
