"""Recruitment: buy units and markers with the Empire's resource points (Phase 9, SGE-SEQ-11).

``RecruitPanel`` is a plain widget, so the window may put it in a dock; ``RecruitDialog`` wraps
it for a modal or modeless window. The panel lists every unit type and marker with its price,
the RP left, a sector chooser that offers only the sectors where the game allows that purchase,
a Buy button and Done. Every purchase goes through the document's one operation path (or the
window's own ``perform``, to play back what follows Done); the panel re-reads the board after
each change and stays open for as many purchases as the player likes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QComboBox, QDialog, QHBoxLayout, QHeaderView, QLabel, QSizePolicy,
                               QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from struggle_desktop.ui.dialogs import error_label, heading, muted, sector_text, show_error
from struggle_desktop.ui.docks.turn import ElidingButton
from struggle_desktop.ui.fit import resize_to_fit

ROLE = "imperial"
RECRUITMENT = "recruitment"
DONE = {"verb": "done"}
_COST_IN_LABEL = re.compile(r"for (\d+) RP")
_MARKER_IN_LABEL = re.compile(r"Buy an? (.+?) marker")
#: The purchase list always shows at least this many rows.
LIST_ROWS_SHOWN = 4


def purchase_key(action: dict) -> tuple[str, str]:
    """What is bought, whatever the sector: ('buy_unit', 'SF'), ('buy_marker', 'nexus')."""
    return action["verb"], action.get("type") or action.get("marker") or ""


def purchase_cost(document: Any, action: dict) -> int | None:
    """The RP ``action`` would take now, as the game works it out (``purchase_cost``); the
    action's label ("for 3 RP") when the game cannot say. None if neither says."""
    cost = document.game.purchase_cost(document.state, action)
    if cost is not None:
        return cost
    match = _COST_IN_LABEL.search(document.describe(action))
    return int(match.group(1)) if match else None


def factor_text(unit: dict) -> str:
    """A unit type's factors as on its counter: military-morphogenetic-movement."""
    if unit.get("mil") is None or unit.get("morph") is None:
        return "(factors vary)"
    mil = f"({unit['mil']})" if unit.get("mil_paren") else str(unit["mil"])
    morph = f"({unit['morph']})" if unit.get("morph_paren") else str(unit["morph"])
    return f"{mil}-{morph}-{unit.get('ma', '?')}"


class Purchase:
    """One line of the list: a unit type or a marker, with the legal actions that buy it."""

    def __init__(self, key: tuple[str, str], name: str, detail: str = "", about: str = ""):
        self.key = key
        self.name = name
        self.detail = detail
        self.about = about   # a line for the information under the list
        self.actions: list[dict] = []
        self.cost: int | None = None
        self.reason = ""   # why it cannot be bought now (empty when it can)

    @property
    def available(self) -> bool:
        return bool(self.actions)

    @property
    def sectors(self) -> list[int]:
        return [a["at"] for a in self.actions if "at" in a]

    def action_at(self, sector: int | None) -> dict | None:
        for action in self.actions:
            if action.get("at") == sector:
                return action
        return None


class RecruitPanel(QWidget):
    """Buy units and markers during the recruitment prompt.

    Signals: ``performed(dict)`` after each action the panel performed (purchases and Done);
    ``finished()`` once recruitment is over (Done, or the game moved on)."""

    performed = Signal(dict)
    finished = Signal()

    def __init__(self, document: Any, parent: QWidget | None = None,
                 perform: Callable[[dict], Any] | None = None):
        super().__init__(parent)
        self.setObjectName("recruit-panel")
        self.document = document
        self._perform = perform or document.perform
        self._units_catalog: list[dict] | None = None
        self._units_game: Any = None          # the game ``_units_catalog`` was read from
        self.purchases: dict[tuple[str, str], Purchase] = {}
        self._was_recruiting = False

        layout = QVBoxLayout(self)
        # Compact: in the window it shares a column of a laptop screen with other panels.
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        top = QHBoxLayout()
        self.title_label = heading("Recruitment")
        self.rp_label = heading("", scale=1.6)
        self.rp_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.rp_label.setWordWrap(False)
        top.addWidget(self.title_label, 1)
        top.addWidget(self.rp_label)
        layout.addLayout(top)
        self.prompt_label = muted()
        layout.addWidget(self.prompt_label)

        self.tree = QTreeWidget()
        self.tree.setObjectName("recruit-list")
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["Buy", "Price", "Where"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.currentItemChanged.connect(lambda *_: self._on_selection())
        self.tree.itemActivated.connect(lambda *_: self.buy())
        # Several rows whatever room the dock is given (after Reset Layout it came back one
        # row tall), sized from the list's own font, yet small enough for a laptop screen.
        row = self.tree.fontMetrics().height() + 6
        self.tree.setMinimumHeight(self.tree.header().sizeHint().height()
                                   + LIST_ROWS_SHOWN * row + 2 * self.tree.frameWidth())
        # No preferred height of its own beyond that: the panel then fits the height its
        # dock has (Buy and Done in sight), and the list takes whatever room is left over.
        self.tree.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.list_label = QLabel("&What to buy:")
        self.list_label.setBuddy(self.tree)
        self.list_label.setWordWrap(True)
        layout.addWidget(self.list_label)
        layout.addWidget(self.tree, 1)
        where = QHBoxLayout()
        self.sector_combo = QComboBox()
        self.sector_combo.setObjectName("recruit-sector")
        self.sector_combo.setMinimumContentsLength(22)
        self.sector_combo.currentIndexChanged.connect(lambda _i: self._update_buy_button())
        sector_label = QLabel("&Sector:")
        sector_label.setBuddy(self.sector_combo)
        where.addWidget(sector_label)
        where.addWidget(self.sector_combo, 1)
        layout.addLayout(where)

        buttons = QHBoxLayout()
        # The Buy button names what it buys; a long name is shortened, never widening the
        # panel (which would move every control in it).
        self.buy_button = ElidingButton("&Buy")
        self.buy_button.setObjectName("recruit-buy")
        self.buy_button.setDefault(True)
        self.buy_button.clicked.connect(self.buy)
        self.done_button = QPushButton("&Done recruiting")
        self.done_button.setObjectName("recruit-done")
        self.done_button.setToolTip("End the recruitment phase; the RP you keep stay for later")
        self.done_button.clicked.connect(self.finish)
        buttons.addWidget(self.buy_button, 1)
        buttons.addWidget(self.done_button)
        layout.addLayout(buttons)

        # Below the buttons, at heights of their own whatever they say: the list above them
        # stretches, so a line more or less here would move the Sector box, Buy and Done
        # after a purchase. A refusal keeps its room while there is none; the information
        # on the purchase shows three lines (all of it in its tooltip).
        line = self.fontMetrics().lineSpacing()
        self.error = error_label()
        self.error.setFixedHeight(2 * line + 2)
        self.error.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        policy = self.error.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.error.setSizePolicy(policy)
        layout.addWidget(self.error)
        self.about_label = QLabel()
        self.about_label.setWordWrap(True)
        self.about_label.setFixedHeight(3 * line + 4)
        self.about_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.about_label)

        document.changed.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ reading the game
    def _units(self) -> list[dict]:
        """The unit types of the open game's catalogue, read once per game. (The panel is
        often built before any game is open: nothing may be kept from that moment, or the
        list named units by their codes as if they were markers.)"""
        game = self.document.game
        if game is None:
            return []
        if self._units_catalog is None or self._units_game is not game:
            self._units_game = game
            try:
                self._units_catalog = list(game.catalog().get("units", []))
            except Exception:   # without the catalogue the list shows only what is for sale
                self._units_catalog = []
        return self._units_catalog

    @staticmethod
    def _about_unit(unit: dict) -> str:
        if unit.get("mil") is None:
            factors = "factors that vary"
        else:
            defence_only = " (in defence only)"
            factors = (f"military {unit['mil']}{defence_only if unit.get('mil_paren') else ''}, "
                       f"morphogenetic {unit['morph']}"
                       f"{defence_only if unit.get('morph_paren') else ''}")
        text = (f"{unit['name']} ({unit['code']}): {factors}, movement {unit.get('ma', '?')}. "
                f"Upkeep {unit.get('upkeep', '?')} RP a turn.")
        if unit.get("never_converts"):
            text += " Never changes sides."
        return text

    def recruiting(self) -> bool:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        return bool(prompt) and prompt.get("kind") == RECRUITMENT and not board.get("outcome")

    def _collect(self) -> dict[tuple[str, str], Purchase]:
        board = self.document.board
        purchases: dict[tuple[str, str], Purchase] = {}
        rp = int(board.get("rp", 0)) if board else 0
        # Every unit type in the counter mix, so the player sees what is out of reach too.
        for unit in self._units():
            purchase = Purchase(("buy_unit", unit["code"]), unit["name"],
                                f"{unit['code']} {factor_text(unit)}", self._about_unit(unit))
            purchase.cost = unit.get("cost")
            purchases[purchase.key] = purchase
        if not self.recruiting():
            return purchases   # the prompt line says why nothing can be bought
        for entry in board["prompt"].get("actions", []):
            action = entry["action"]
            if action.get("verb") not in ("buy_unit", "buy_marker"):
                continue
            key = purchase_key(action)
            if key not in purchases:
                match = _MARKER_IN_LABEL.search(entry.get("label", ""))
                name = match.group(1) if match else key[1].replace("_", " ").capitalize()
                held = (board.get("available") or {}).get(key[1])
                about = ("Goes on an Imperial system sector." if "at" in action else
                         "Goes to the Markers Available box"
                         + (f" (you hold {held} now)." if held is not None else "."))
                purchases[key] = Purchase(key, f"{name} marker", "marker", about)
            purchases[key].actions.append(action)
        for purchase in purchases.values():
            if purchase.actions:
                purchase.cost = purchase_cost(self.document, purchase.actions[0])
            elif purchase.cost is not None and purchase.cost > rp:
                purchase.reason = f"costs {purchase.cost} RP, you have {rp}"
            else:
                purchase.reason = "not available now"
        return purchases

    # ------------------------------------------------------------------ showing it
    def refresh(self) -> None:
        """Re-read the board (connected to ``document.changed``)."""
        board = self.document.board
        recruiting = self.recruiting()
        selected = self.selected_key()
        chosen_sector = self.selected_sector()
        self.purchases = self._collect()
        self.rp_label.setText(f"{board.get('rp', 0)} RP" if board else "")
        self.rp_label.setToolTip("Resource points left to spend")
        # While recruiting, the list's own caption says what to do (one line, not two: the
        # panel must fit a laptop screen's column); otherwise a line says why nothing sells.
        self.prompt_label.setVisible(not recruiting)
        self.list_label.setText("&What to buy (as often as you like, then Done):" if recruiting
                                else "&What to buy:")
        if recruiting:
            self.prompt_label.setText("Choose what to buy and where; buy as often as you like, "
                                      "then press Done.")
        elif board is None:
            self.prompt_label.setText("No game is open.")
        else:
            self.prompt_label.setText("Recruitment is not open now: it comes once a turn, "
                                      "in the Imperial Recruitment phase.")

        self.tree.blockSignals(True)
        self.tree.clear()
        units = QTreeWidgetItem(self.tree, ["Units"])
        markers = QTreeWidgetItem(self.tree, ["Markers"])
        for group in (units, markers):
            font = QFont(group.font(0))
            font.setBold(True)
            group.setFont(0, font)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            group.setFirstColumnSpanned(True)
        restore = None
        for purchase in self.purchases.values():
            parent = units if purchase.key[0] == "buy_unit" else markers
            where = (f"{len(purchase.sectors)} sector{'s' if len(purchase.sectors) != 1 else ''}"
                     if purchase.sectors else ("Markers box" if purchase.available else
                                               purchase.reason))
            name = f"{purchase.name}   {purchase.detail}" if purchase.detail != "marker" \
                else purchase.name
            price = f"{purchase.cost} RP" if purchase.cost is not None else "?"
            item = QTreeWidgetItem(parent, [name, price, where])
            item.setData(0, Qt.ItemDataRole.UserRole, purchase.key)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if purchase.available:
                item.setToolTip(0, f"Buy a {purchase.name} for {price}")
            else:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                if purchase.reason:
                    item.setToolTip(0, f"{purchase.name}: {purchase.reason}")
            if purchase.key == selected and purchase.available:
                restore = item
        if markers.childCount() == 0:
            markers.setHidden(True)
        self.tree.expandAll()
        self.tree.blockSignals(False)
        if restore is None:
            restore = next((self._item(key) for key, p in self.purchases.items()
                            if p.available), None)
        self.tree.setCurrentItem(restore)
        self._on_selection(chosen_sector)
        self.done_button.setEnabled(recruiting)
        if self._was_recruiting and not recruiting:
            self.finished.emit()
        self._was_recruiting = recruiting

    def _item(self, key: tuple[str, str]) -> QTreeWidgetItem | None:
        for group in range(self.tree.topLevelItemCount()):
            parent = self.tree.topLevelItem(group)
            for row in range(parent.childCount()):
                if parent.child(row).data(0, Qt.ItemDataRole.UserRole) == key:
                    return parent.child(row)
        return None

    def _on_selection(self, keep_sector: int | None = None) -> None:
        purchase = self.selected_purchase()
        self.about_label.setText(purchase.about if purchase is not None else "")
        self.about_label.setToolTip(self.about_label.text())
        self.sector_combo.blockSignals(True)
        self.sector_combo.clear()
        board = self.document.board
        if purchase is not None and purchase.sectors:
            for n in purchase.sectors:
                self.sector_combo.addItem(sector_text(board, n), n)
            index = self.sector_combo.findData(keep_sector) if keep_sector is not None else -1
            self.sector_combo.setCurrentIndex(max(0, index))
            self.sector_combo.setEnabled(True)
        else:
            self.sector_combo.addItem("no sector: it goes to the Markers Available box"
                                      if purchase is not None and purchase.available else "—")
            self.sector_combo.setEnabled(False)
        self.sector_combo.blockSignals(False)
        show_error(self.error, "")
        self._update_buy_button()

    def _update_buy_button(self) -> None:
        action = self.chosen_action()
        purchase = self.selected_purchase()
        if action is None or purchase is None:
            self.buy_button.setText("&Buy")
            self.buy_button.setEnabled(False)
            return
        where = f" in {action['at']:02d}" if "at" in action else ""
        price = f" for {purchase.cost} RP" if purchase.cost is not None else ""
        self.buy_button.setText(f"&Buy {purchase.name}{where}{price}")
        self.buy_button.setEnabled(True)

    # ------------------------------------------------------------------ the choice
    def selected_key(self) -> tuple[str, str] | None:
        item = self.tree.currentItem()
        key = item.data(0, Qt.ItemDataRole.UserRole) if item else None
        return tuple(key) if key else None

    def selected_purchase(self) -> Purchase | None:
        key = self.selected_key()
        return self.purchases.get(key) if key else None

    def selected_sector(self) -> int | None:
        data = self.sector_combo.currentData() if self.sector_combo.isEnabled() else None
        return data if isinstance(data, int) else None

    def select(self, verb: str, what: str, sector: int | None = None) -> bool:
        """Select a purchase (and its sector) as the player would; False if not offered."""
        item = self._item((verb, what))
        purchase = self.purchases.get((verb, what))
        if item is None or purchase is None or not purchase.available:
            return False
        self.tree.setCurrentItem(item)
        if sector is not None:
            index = self.sector_combo.findData(sector)
            if index < 0:
                return False
            self.sector_combo.setCurrentIndex(index)
        return True

    def offered_sectors(self) -> list[int]:
        """The sectors the chooser offers for the selected purchase."""
        return [self.sector_combo.itemData(i) for i in range(self.sector_combo.count())
                if isinstance(self.sector_combo.itemData(i), int)]

    def chosen_action(self) -> dict | None:
        purchase = self.selected_purchase()
        if purchase is None or not purchase.available:
            return None
        if purchase.sectors:
            return purchase.action_at(self.selected_sector())
        return purchase.actions[0]

    # ------------------------------------------------------------------ acting
    def _run(self, action: dict) -> bool:
        result = self._perform(action)
        ok = getattr(result, "ok", result is not False)
        if not ok:
            show_error(self.error, f"Not possible: {getattr(result, 'reason', '')}")
            return False
        self.performed.emit(action)
        return True

    def buy(self) -> bool:
        """Buy what is selected where it is selected; True if it was bought."""
        action = self.chosen_action()
        if action is None:
            show_error(self.error, "Choose something you can buy first.")
            return False
        return self._run(action)

    def finish(self) -> bool:
        """Done: end recruitment."""
        if not self.recruiting():
            return False
        return self._run(dict(DONE))


class RecruitDialog(QDialog):
    """The recruitment panel in a window of its own; it closes (accepted) when recruitment
    is over."""

    def __init__(self, document: Any, parent: QWidget | None = None,
                 perform: Callable[[dict], Any] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Recruitment")
        self.setObjectName("recruit-dialog")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.panel = RecruitPanel(document, self, perform)
        layout.addWidget(self.panel)
        self.panel.finished.connect(self.accept)
        self.performed = self.panel.performed
        resize_to_fit(self, 560, 540)
