"""The Noble Houses panels: houses, the jumpship and its cargo, the purchases of Recruit Troops,
the fight, allies and Noble actions, and the selected hex.

Each is a ``DockPanel`` (stable ``objectName``, built on first show) that re-reads
``document.board`` (games/nobles/presentation.py) and emits what the player asks for; the
window performs it. The decision, log and dice panels are the shared ones (ui/docks).
"""

from __future__ import annotations

import html
import json

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QPushButton, QTextBrowser, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.nobles.scene import HOUSE_COLOURS

#: Unicode die faces 1-6.
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
HIT_COLOUR = "#d0342c"
KIND_NAMES = {"govern": "Govern", "diplomacy": "Diplomacy", "assassination": "Assassination",
              "intrigue": "Intrigue", "sabotage": "Sabotage",
              "strategic_planning": "Strategic Planning", "noble_action": "Noble action"}


def swatch(letter: str) -> str:
    colour = HOUSE_COLOURS.get(letter)
    name = colour.name() if colour is not None else "#888888"
    return (f"<span style='background:{name}; color:#10131a; font-weight:bold'>"
            f"&nbsp;{html.escape(letter)}&nbsp;</span>")


def rich_browser() -> QTextBrowser:
    browser = QTextBrowser()
    browser.setOpenLinks(False)
    browser.setReadOnly(True)
    return browser


def house_name(board: dict, letter: str | None) -> str:
    for house in board["houses"]:
        if house["letter"] == letter:
            return house["name"]
    return f"House {letter}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless the count is one: "1 world", "2 worlds"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def solats_word(count: int) -> str:
    return "Solat" if count == 1 else "Solats"


def fixed_lines_label(lines: int) -> QLabel:
    """A wrapped label that is always ``lines`` lines of text tall, empty or not: the widgets
    below it keep their places when its text changes (a longer text is elided by the cut,
    and the label's tooltip has it in full)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setFixedHeight(label.fontMetrics().lineSpacing() * lines + 4)
    return label


class CompactHint:
    """A scrolling widget (list, tree, text) that asks for room for a few rows only (Qt's
    default asks for 192 px): its panel then fits a laptop screen's column without
    scrolling around it, and the widget takes what room there is."""

    def __init__(self, rows: int = 6):
        super().__init__()
        self._rows = rows

    def sizeHint(self) -> QSize:      # noqa: N802 - Qt's name
        hint = super().sizeHint()
        rows = self.fontMetrics().height() * self._rows + 2 * self.frameWidth() + 4
        return QSize(hint.width(), min(hint.height(), rows))


class CompactList(CompactHint, QListWidget):
    pass


class CompactTree(CompactHint, QTreeWidget):
    pass


class CompactBrowser(CompactHint, QTextBrowser):
    pass


# ====================================================================================== houses
class HousesDock(DockPanel):
    """Every house: who plays it, treasury, income, worlds, initiative, units, upkeep, and its
    allies with their uses left this turn."""
    object_name = "dock-nobles-houses"
    title = "Houses"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        self.text = rich_browser()
        self.text.setObjectName("nobles-houses")
        return self.text

    def update_widget(self) -> None:
        board = self.document.board
        if board is None:
            self.text.setHtml("No game is open.")
            return
        self.text.setHtml(houses_html(board))


def houses_html(board: dict) -> str:
    rows = [f"<p><b>Turn {board['turn']}</b> — {html.escape(board['phase_name'])}"
            + (f"; initiative order {' '.join(board['order'])}" if board["order"] else "")
            + "</p>"]
    for h in board["houses"]:
        who = "a person" if h["player"] == "human" else "the program"
        head = f"{swatch(h['letter'])} <b>{html.escape(h['name'])}</b>, played by {who}"
        if not h["alive"]:
            rows.append(f"<p>{head} — <b>eliminated</b></p>")
            continue
        lines = [f"<b>{h['solats']}</b> {solats_word(h['solats'])} · income <b>{h['income']}"
                 f"</b> a turn · upkeep {h['upkeep']} · {plural(h['units'], 'unit')} "
                 f"({plural(h['armies'], 'army', 'armies')}, "
                 f"{plural(len(h['nobles']), 'Noble')})"]
        if h["initiative"]:
            lines.append(f"Initiative: {h['initiative']}"
                         + (f" (next turn's roll {h['planning']:+d})" if h["planning"] else ""))
        worlds = ", ".join(h["worlds"]) or "none"
        lines.append(f"Worlds ({len(h['worlds'])}): {html.escape(worlds)}")
        for ally in h["allies"]:
            uses = ", ".join(f"{KIND_NAMES.get(k, k)} {n} left" for k, n in ally["uses"].items())
            benefits = "; ".join(ally["benefits"])
            lines.append(f"&nbsp;&nbsp;Ally <b>{html.escape(ally['shown_as'])}</b>"
                         + (f": {html.escape(benefits)}" if benefits else "")
                         + (f" — this turn: {html.escape(uses)}" if uses else ""))
        rows.append(f"<p>{head}<br>" + "<br>".join(lines) + "</p>")
    if board["unassigned"]:
        rows.append("<p><i>Unassigned allies:</i> "
                    + html.escape(", ".join(a["shown_as"] for a in board["unassigned"]))
                    + "</p>")
    return "".join(rows)


# ==================================================================================== jumpship
class CargoDock(DockPanel):
    """One jumpship and the units of its hex: tick what goes aboard, then drag the ship to a
    lit hex (the ticks are loaded first) or load them now. Other houses' ships and ships
    that cannot move now are shown read-only."""
    object_name = "dock-nobles-cargo"
    title = "Ship"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    #: The player picked another ship in the list.
    ship_chosen = Signal(str)
    #: A tick changed: (ship, unit, aboard?).
    cargo_toggled = Signal(str, str, bool)
    #: "Load now": carry out the ticks without jumping.
    load_requested = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self.ship: str | None = None
        #: (ship, unit) -> wanted aboard, for the ticks the player changed (the window's plan)
        self.wanted = lambda ship, uid, aboard: aboard
        self._filling = False

    def create_widget(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        self.ships = QComboBox()
        self.ships.setObjectName("nobles-ship-choice")
        self.ships.activated.connect(lambda _i: self.ship_chosen.emit(
            self.ships.currentData() or ""))
        self.caption = fixed_lines_label(2)     # its words change: the ticks keep their places
        self.units = CompactList(rows=5)
        self.units.setObjectName("nobles-cargo")
        self.units.itemChanged.connect(self._toggled)
        self.load_button = QPushButton("&Load now")
        self.load_button.setToolTip("Load and unload the ticked units without jumping")
        self.load_button.clicked.connect(lambda: self.ship and self.load_requested.emit(self.ship))
        self.hint = QLabel("Tick what goes aboard, then drag the ship to a lit hex: the "
                           "ticked units are loaded first.")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: gray")
        layout.addWidget(self.ships)
        layout.addWidget(self.caption)
        layout.addWidget(self.units, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.load_button)
        layout.addLayout(row)
        layout.addWidget(self.hint)
        return box

    def show_ship(self, ship: str | None) -> None:
        self.ship = ship
        if self.widget_built:
            self.update_widget()

    def update_widget(self) -> None:
        board = self.document.board
        self._filling = True
        try:
            self._fill(board)
        finally:
            self._filling = False

    def _fill(self, board: dict | None) -> None:
        self.ships.clear()
        self.units.clear()
        if board is None or not board.get("map"):
            self.caption.setText("No jumpship to show.")
            self.load_button.setEnabled(False)
            return
        units = board["units"]
        seat = board["seat"]
        self.movable = movable_ships(board)
        own = [uid for uid, u in units.items() if u["owner"] == seat and u["is_ship"]]
        for uid in own:
            u = units[uid]
            where = f"{u['hex'][0]},{u['hex'][1]}"
            state = " (can move)" if uid in self.movable else (" (moved)" if u["moved"] else "")
            self.ships.addItem(f"{uid} {u['type']} at {where}{state}", uid)
        ship = self.ship if self.ship in units else None
        if ship is not None and ship not in own:
            u = units[ship]
            self.ships.addItem(f"{ship} {u['type']} ({house_name(board, u['owner'])})", ship)
        if ship is None:
            self.ships.setCurrentIndex(-1)
            self.caption.setText("Click a jumpship on the map (or pick one above) to see its "
                                 "cargo." if own else "Your house has no jumpship.")
            self.load_button.setEnabled(False)
            return
        self.ships.setCurrentIndex(self.ships.findData(ship))
        s = units[ship]
        editable = ship in self.movable and s["category"] == "jumpship"
        if s["category"] != "jumpship":
            self.caption.setText(f"{ship} ({s['type']}) moves itself and carries nothing.")
            self.load_button.setEnabled(False)
            return
        here = [uid for uid, u in units.items() if u["hex"] == s["hex"] and uid != ship
                and u["owner"] == s["owner"] and (u["ship"] in (None, ship))
                and u["category"] in ("army", "noble", "nuke") and not u["is_ship"]]
        planned = 0
        for uid in here:
            u = units[uid]
            aboard = u["ship"] == ship
            wanted = self.wanted(ship, uid, aboard)
            if wanted and u["category"] != "noble":
                planned += 1
            slot = "no slot" if u["category"] == "noble" else "1 slot"
            item = QListWidgetItem(f"{uid} {u['type']} ({slot})"
                                   + (" — aboard" if aboard else ""))
            item.setData(Qt.ItemDataRole.UserRole, uid)
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            if editable:
                flags |= Qt.ItemFlag.ItemIsUserCheckable
            item.setFlags(flags)
            item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
            item.setToolTip(u["tooltip"])
            self.units.addItem(item)
        where = f"({s['hex'][0]},{s['hex'][1]})"
        text = (f"<b>{ship}</b> at {where}: {len(s.get('cargo') or [])} aboard, "
                f"{planned} of {plural(s['slots'], 'slot')} ticked")
        if not editable:
            text += (" — it has moved this turn" if s["moved"] else
                     " — it cannot load now" if s["owner"] == board["seat"] else
                     f" — {html.escape(house_name(board, s['owner']))}'s")
        self.caption.setText(text)
        self.load_button.setEnabled(editable)
        if not here:
            item = QListWidgetItem("Nothing here can board it.")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.units.addItem(item)

    def _toggled(self, item: QListWidgetItem) -> None:
        if self._filling or self.ship is None:
            return
        uid = item.data(Qt.ItemDataRole.UserRole)
        if uid:
            self.cargo_toggled.emit(self.ship, uid, item.checkState() == Qt.CheckState.Checked)


def movable_ships(board: dict | None) -> list[str]:
    """The units the prompt lets the seat load, unload or jump now."""
    prompt = (board or {}).get("prompt") or {}
    out: list[str] = []
    for entry in prompt.get("actions", []):
        a = entry["action"]
        if a["verb"] in ("load", "unload", "jump") and a["ship"] not in out:
            out.append(a["ship"])
    return out


# ===================================================================================== recruit
#: Item data of the Recruit panel's rows.
KEY_ROLE = Qt.ItemDataRole.UserRole
ACTION_ROLE = Qt.ItemDataRole.UserRole + 1
REASON_ROLE = Qt.ItemDataRole.UserRole + 2      # why the purchase is gone; "" while it is offered
LABEL_ROLE = Qt.ItemDataRole.UserRole + 3       # the game's words for the purchase


def action_key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


class RecruitDock(DockPanel):
    """The seated house's purchases in Recruit Troops, world by world: double-click a unit to
    buy it. The list holds still while the house buys: a purchase that is no longer possible
    stays in its place, greyed, saying why (a world's purchases used up, the Solats left), so
    no row moves under the pointer and the selection stays on the row it was on. A
    double-click counts only on the row it was pressed on."""
    object_name = "dock-nobles-recruit"
    title = "Recruit"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    action_chosen = Signal(dict)

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self._step: tuple | None = None           # (turn, house) the rows belong to
        self._rows: dict[str, QListWidgetItem] = {}
        self._worlds: dict[str, QListWidgetItem] = {}
        self._pressed_key: str | None = None      # the row under the last mouse press
        self._double_click = False
        self.note_text = ""

    def create_widget(self) -> QWidget:
        box, layout = self.column()
        # The texts that change as the house buys (its Solats, why purchases are gone) have
        # places of a fixed height, the caption above the list and the note below it: a
        # notice that came and went pushed every row 38 px down under the pointer, and the
        # next double-click bought nothing.
        self.caption = fixed_lines_label(2)
        self.note = fixed_lines_label(2)
        self.note.setObjectName("nobles-recruit-note")
        self.note.setStyleSheet("color: #8a5a00")
        self.list = CompactList(rows=6)
        self.list.setObjectName("nobles-recruit")
        self.list.itemActivated.connect(self._activated)
        self.list.viewport().installEventFilter(self)
        self.done_button = QPushButton("Done buying")
        self.done_button.setObjectName("nobles-recruit-done")
        self.done_button.clicked.connect(lambda: self.action_chosen.emit({"verb": "done"}))
        layout.addWidget(self.caption)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.note)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.done_button)
        layout.addLayout(row)
        return box

    # ------------------------------------------------------------------ the rows
    def update_widget(self) -> None:
        board = self.document.board
        prompt = (board or {}).get("prompt")
        if not prompt or prompt["kind"] != "recruit":
            self._reset(None)
            self.caption.setText("Units are bought in step 5 (Recruit Troops): the house "
                                 "whose turn it is to buy sees its purchases here.")
            self.done_button.setEnabled(False)
            return
        step = (board["turn"], board["seat"])
        if step != self._step:
            self._reset(step)
        offered = {action_key(e["action"]): e for e in prompt["actions"]
                   if e["action"]["verb"] == "buy"}
        for key, entry in offered.items():
            if key not in self._rows:
                self._add_row(key, entry)
        house = next((h for h in board["houses"] if h["letter"] == board["seat"]), None)
        solats = house["solats"] if house else 0
        self.caption.setText(f"<b>{html.escape(house_name(board, board['seat']))}</b>: "
                             f"{solats} {solats_word(solats)}. Double-click a unit to buy it.")
        gone_now: list[str] = []
        for key, item in self._rows.items():
            entry = offered.get(key)
            if entry is not None:
                item.setText(entry["label"])
                item.setData(LABEL_ROLE, entry["label"])
                item.setData(REASON_ROLE, "")
                item.setForeground(self.list.palette().text())
                item.setToolTip("Double-click to buy it")
            elif not item.data(REASON_ROLE):          # gone since the last look: say why
                reason, short = self.gone_reason(item.data(ACTION_ROLE))
                item.setData(REASON_ROLE, reason)
                item.setText(f"{item.data(LABEL_ROLE)} ({short})")
                item.setForeground(QColor("#9a9a9a"))
                item.setToolTip(f"Not possible now: {reason}")
                if reason not in gone_now:
                    gone_now.append(reason)
        for world, header in self._worlds.items():
            reasons = {self._rows[k].data(REASON_ROLE) for k in self._rows
                       if self._rows[k].data(ACTION_ROLE)["world"] == world}
            # A world none of whose purchases is left says so on its heading (why: its tip).
            spent = "" not in reasons
            header.setText(f"{world} — nothing more to buy here now" if spent else world)
            header.setToolTip("; ".join(sorted(reasons)) if spent else "")
        if gone_now:
            self.note_text = "; ".join(gone_now)
            self.note.setText(self.note_text + " (greyed out above)")
            self.note.setToolTip(self.note_text)
            self.document.message.emit(self.note_text)
        done = next((e for e in prompt["actions"] if e["action"]["verb"] == "done"), None)
        self.done_button.setEnabled(done is not None)
        if done is not None:
            self.done_button.setText(done["label"])

    def _reset(self, step: tuple | None) -> None:
        """A new recruit step (or none): the rows start again, nothing selected."""
        self._step = step
        self._rows.clear()
        self._worlds.clear()
        self.list.clear()
        self.note_text = ""
        self.note.clear()
        self.note.setToolTip("")

    def _add_row(self, key: str, entry: dict) -> None:
        """A purchase's row, under its world. A row offered later than the first look (none
        is, as a rule) goes at the end, so the rows above never move."""
        world = entry["action"]["world"]
        if world not in self._worlds:
            header = QListWidgetItem(world)
            font = header.font()
            font.setBold(True)
            header.setFont(font)
            header.setFlags(Qt.ItemFlag.NoItemFlags)
            header.setForeground(self.list.palette().text())
            self.list.addItem(header)
            self._worlds[world] = header
        item = QListWidgetItem(entry["label"])
        item.setData(KEY_ROLE, key)
        item.setData(ACTION_ROLE, entry["action"])
        item.setData(REASON_ROLE, "")
        item.setData(LABEL_ROLE, entry["label"])
        self.list.addItem(item)
        self._rows[key] = item

    def gone_reason(self, action: dict) -> tuple[str, str]:
        """Why a purchase offered a moment ago is gone, in full (the game's own reason) and
        in a few words for the row."""
        reason = self.document.check(action) or "not possible now"
        short = ("purchases used up" if "the most the world allows" in reason
                 else "not enough Solats" if "Solats" in reason else "not possible now")
        return reason, short

    # ------------------------------------------------------------------ choosing
    def eventFilter(self, watched, event) -> bool:
        """Remember the row a press lands on: the double-click that follows counts only if
        it is still that row."""
        if watched is self.list.viewport():
            if event.type() == QEvent.Type.MouseButtonPress:
                item = self.list.itemAt(event.position().toPoint())
                self._pressed_key = item.data(KEY_ROLE) if item is not None else None
            elif event.type() == QEvent.Type.MouseButtonDblClick:
                self._double_click = True
        return False

    def _activated(self, item: QListWidgetItem) -> None:
        key = item.data(KEY_ROLE)
        by_mouse, self._double_click = self._double_click, False
        if key is None:
            return                                    # a world's heading
        if by_mouse and key != self._pressed_key:
            self.document.message.emit("The list changed under the pointer: nothing was "
                                       "bought (double-click again to buy)")
            return
        reason = item.data(REASON_ROLE)
        if reason:
            self.document.message.emit(f"Not possible: {reason}")
            return
        self.action_chosen.emit(item.data(ACTION_ROLE))


# ====================================================================================== fight
class BattleDock(DockPanel):
    """The fight in progress, or the last one: who fights whom where, the dice of the last
    volley per side (hits in red), the psychic results, the casualties, and every roll of
    the fight."""
    object_name = "dock-nobles-battle"
    title = "Battle"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        self.text = rich_browser()
        self.text.setObjectName("nobles-battle")
        return self.text

    def update_widget(self) -> None:
        board = self.document.board
        if board is None:
            self.text.setHtml("No game is open.")
            return
        self.text.setHtml(battle_html(board))


def dice_html(faces: list[int], hit_max: int = 1) -> str:
    out = []
    for f in faces:
        glyph = DIE_FACES[f - 1] if 1 <= f <= 6 else str(f)
        colour = HIT_COLOUR if f <= hit_max else "#333333"
        out.append(f"<span style='font-size:20px; color:{colour}'>{glyph}</span>")
    return " ".join(out)


def battle_html(board: dict) -> str:
    battle, exchange, fight = board.get("battle"), board.get("exchange"), board.get("fight")
    parts: list[str] = []
    if battle:
        h = battle["hex"]
        where = f"{battle['world']} ({h[0]},{h[1]})" if battle.get("world") else f"({h[0]},{h[1]})"
        if battle.get("attacker"):
            parts.append(f"<h3>Battle at {html.escape(where)}</h3><p>"
                         f"{swatch(battle['attacker'])} {html.escape(house_name(board, battle['attacker']))}"
                         f" attacks {swatch(battle['defender'])} "
                         f"{html.escape(house_name(board, battle['defender']))}"
                         f" — round {battle['round']}, {html.escape(str(battle['step']))}</p>")
        else:
            parts.append(f"<h3>Battle at {html.escape(where)}</h3>")
        if battle.get("commands"):
            parts.append("<p>Commands: " + ", ".join(
                f"{html.escape(n)} → {html.escape(a)}" for n, a in battle["commands"].items())
                + "</p>")
        if battle.get("psychic"):
            parts.append("<p><b>Psychic this round</b><br>" + "<br>".join(
                f"{html.escape(uid)}: {dice_html([p['roll']], 0)} {html.escape(p['result'])}, "
                f"+{p['extra']} AD" + (f" (cancelled by {html.escape(p['negated_by'])})"
                                       if p.get("negated_by") else "")
                for uid, p in battle["psychic"].items()) + "</p>")
        if battle.get("dice"):
            parts.append(f"<p><b>Last volley</b> ({html.escape(str(battle.get('volley') or ''))})"
                         "</p><table cellspacing='4'>")
            for house, rolls in battle["dice"].items():
                hits = battle.get("hits", {}).get(house, 0)
                parts.append(f"<tr><td valign='top'>{swatch(house)}</td><td>"
                             + "<br>".join(f"{html.escape(uid)} {dice_html(faces)}"
                                           for uid, faces in rolls.items())
                             + (("<br>" if rolls else "") + f"<b>{plural(hits, 'hit')}</b>")
                             + "</td></tr>")
            parts.append("</table>")
        if battle.get("casualties"):
            parts.append("<p><b>Lost so far:</b> " + html.escape(", ".join(battle["casualties"]))
                         + "</p>")
    elif exchange:
        h = exchange["hex"]
        parts.append(f"<h3>Nuclear exchange at ({h[0]},{h[1]})"
                     + (f" {html.escape(exchange['world'])}" if exchange.get("world") else "")
                     + "</h3><p>Declaring: " + " ".join(swatch(x) for x in exchange["declaring"])
                     + (" — committed: " + " ".join(swatch(x) for x in exchange["committed"])
                        if exchange.get("committed") else "") + "</p>")
        for launch in exchange.get("launches") or []:
            parts.append(f"<p>{html.escape(launch['nuke'])} → {html.escape(launch['target'])}"
                         + (f": {dice_html(launch['dice'])} {plural(launch['hits'], 'hit')}"
                            if "dice" in launch else "") + "</p>")
    if fight:
        parts.append(fight_html(fight, live=bool(battle or exchange)))
    if not parts:
        return "<p>No fight yet. Battles and nuclear exchanges show here with their dice.</p>"
    return "".join(parts)


def last_round(volleys: list[dict]) -> list[dict]:
    """The volleys of the fight's last round (its first-strike and normal volleys): their
    totals begin "Round N"."""
    if not volleys:
        return []
    head = " ".join(volleys[-1]["summary"].split()[:2])
    if not head.startswith("Round"):
        return volleys[-1:]
    return [v for v in volleys if " ".join(v["summary"].split()[:2]) == head]


def fight_html(fight: dict, live: bool) -> str:
    parts = [f"<h3>{'This fight' if live else 'Last fight'} (turn {fight['turn']})</h3>"
             f"<p>{html.escape(fight['title'])}</p>"]
    for volley in last_round(fight["volleys"]):
        sides: dict[str, list[dict]] = {}
        for roll in volley["rolls"]:
            sides.setdefault(roll["house"] or "?", []).append(roll)
        parts.append("<p><b>" + html.escape(volley["summary"] or "The launches' dice") + "</b>"
                     + ("" if sides else "<br>no dice (sure hits only)") + "</p>")
        if not sides:
            continue
        parts.append("<table cellspacing='4'>")
        for house, rolls in sides.items():
            hits = sum(r["hits"] or 0 for r in rolls)
            parts.append(f"<tr><td valign='top'>{swatch(house)}</td><td>"
                         + "<br>".join(f"{html.escape(r['unit'] or '')} {dice_html(r['dice'])}"
                                       for r in rolls)
                         + f"<br><b>{plural(hits, 'hit')} rolled</b></td></tr>")
        parts.append("</table>")
    if fight["psychic"]:
        parts.append("<p><b>Psychic, last round</b><br>" + "<br>".join(
            html.escape(t) for t in fight["psychic"]) + "</p>")
    if fight["casualties"]:
        parts.append("<p><b>Casualties</b><br>" + "<br>".join(
            html.escape(t) for t in fight["casualties"]) + "</p>")
    rolls = [e for e in fight["entries"] if e["dice"]]
    if rolls:
        parts.append("<p><b>Every roll</b><br>" + "<br>".join(
            f"{html.escape(e['text'].rsplit(':', 1)[0])}: {dice_html(e['dice'], 1 if e['hits'] is not None else 0)}"
            for e in rolls) + "</p>")
    return "".join(parts)


# ============================================================================ allies & actions
class ActionsDock(DockPanel):
    """The seated house's allies and Noble actions: what each ally gives and its uses left this
    turn, each Noble's state (may act, moved, fought, acted), the caps on attempts, and —
    during its Noble Actions — every action grouped by who does it and what; double-click
    one to take it. Like the Recruit panel, the tree holds still while the house acts: an
    action no longer possible stays in its place, greyed, saying why, and one newly possible
    goes at the end, so no row moves under the pointer; a double-click counts only on the row
    it was pressed on."""
    object_name = "dock-nobles-actions"
    title = "Actions"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    action_chosen = Signal(dict)

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self._step: tuple | None = None           # (turn, house) the rows belong to
        self._leaves: dict[str, QTreeWidgetItem] = {}
        self._pressed: QTreeWidgetItem | None = None
        self._double_click = False

    def create_widget(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        # The summary scrolls in a box of its own: a long one (many allies) must not push
        # the actions out of sight.
        self.summary = CompactBrowser(rows=5)
        self.summary.setOpenLinks(False)
        self.summary.setObjectName("nobles-actions-summary")
        self.tree = CompactTree(rows=6)
        self.tree.setObjectName("nobles-actions")
        self.tree.setHeaderHidden(True)
        self.tree.itemActivated.connect(self._activated)
        self.tree.viewport().installEventFilter(self)
        layout.addWidget(self.summary, 1)
        layout.addWidget(self.tree, 2)
        return box

    def update_widget(self) -> None:
        board = self.document.board
        if board is None:
            self._reset(None)
            self.summary.setText("No game is open.")
            return
        letter = board["seat"] if board["seat"] in {h["letter"] for h in board["houses"]} \
            else board.get("waiting_for")
        house = next((h for h in board["houses"] if h["letter"] == letter), None)
        if house is None:
            self._reset(None)
            self.summary.setText("Nobody is seated.")
            return
        self.summary.setText(actions_summary_html(board, house))
        prompt = board.get("prompt")
        if prompt is None or prompt["kind"] != "noble_action":
            self._reset(None)
            return
        step = (board["turn"], board["seat"])
        if step != self._step:
            self._reset(step)
        offered = {action_key(e["action"]): e for e in prompt["actions"]
                   if e["action"]["verb"] == "act"}
        if not offered and not self._leaves:
            if self.tree.topLevelItemCount() == 0:
                self.tree.addTopLevelItem(QTreeWidgetItem(["No action is possible: choose Done"]))
            return
        fresh = [e for key, e in offered.items() if key not in self._leaves]
        if fresh:
            if not self._leaves:
                self.tree.clear()                   # (a "no action" line shown before)
            self._add(board, fresh, at_end=bool(self._leaves))
        for key, leaf in self._leaves.items():
            entry = offered.get(key)
            if entry is not None:
                leaf.setText(0, entry["label"])
                leaf.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                leaf.setToolTip(0, "Double-click to take this action")
            elif leaf.flags() & Qt.ItemFlag.ItemIsEnabled:       # gone since the last look
                reason = self.document.check(leaf.data(0, Qt.ItemDataRole.UserRole)) \
                    or "not possible now"
                leaf.setFlags(Qt.ItemFlag.NoItemFlags)
                leaf.setToolTip(0, f"Not possible now: {reason}")

    def _reset(self, step: tuple | None) -> None:
        """A new Noble Actions step (or none): the rows start again."""
        self._step = step
        self._leaves.clear()
        self._pressed = None
        self.tree.clear()

    def _add(self, board: dict, entries: list[dict], at_end: bool) -> None:
        """Rows for ``entries``, grouped by who acts and how. Rows added after the first look
        go in groups of their own at the end (marked "now possible"), never among the rows
        already shown."""
        actors: dict[str, QTreeWidgetItem] = {}
        kinds: dict[tuple[str, str], QTreeWidgetItem] = {}
        for entry in entries:
            a = entry["action"]
            actor = a["actor"]
            if actor not in actors:
                label = actor_label(board, actor) + (" — now possible" if at_end else "")
                actors[actor] = QTreeWidgetItem([label])
                self.tree.addTopLevelItem(actors[actor])
            key = (actor, a["kind"])
            if key not in kinds:
                kinds[key] = QTreeWidgetItem([KIND_NAMES.get(a["kind"], a["kind"])])
                actors[actor].addChild(kinds[key])
            leaf = QTreeWidgetItem([entry["label"]])
            leaf.setData(0, Qt.ItemDataRole.UserRole, a)
            leaf.setToolTip(0, "Double-click to take this action")
            kinds[key].addChild(leaf)
            self._leaves[action_key(a)] = leaf
        for item in actors.values():
            item.setExpanded(True)

    def eventFilter(self, watched, event) -> bool:   # noqa: N802 - Qt's name
        """Remember the row a press lands on: the double-click that follows counts only if
        it is still that row."""
        if watched is self.tree.viewport():
            if event.type() == QEvent.Type.MouseButtonPress:
                self._pressed = self.tree.itemAt(event.position().toPoint())
            elif event.type() == QEvent.Type.MouseButtonDblClick:
                self._double_click = True
        return False

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        by_mouse, self._double_click = self._double_click, False
        action = item.data(0, Qt.ItemDataRole.UserRole)
        if not action:
            return
        if by_mouse and item is not self._pressed:
            self.document.message.emit("The list changed under the pointer: nothing was done "
                                       "(double-click again)")
            return
        if not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.document.message.emit(item.toolTip(0))
            return
        self.action_chosen.emit(action)


def actor_label(board: dict, actor: str) -> str:
    if actor == "pyreen":
        return "Pyreen (the world's Diplomacy)"
    if actor.startswith("ally:"):
        _, ally, kind = (actor.split(":") + ["", ""])[:3]
        shown = next((a["shown_as"] for h in board["houses"] for a in h["allies"]
                      if a["name"] == ally), ally)
        return f"Ally {shown} ({KIND_NAMES.get(kind, kind.replace('_', ' '))})"
    u = board["units"].get(actor)
    if u is None:
        return actor
    h = u["hex"]
    return f"Noble {actor} at ({h[0]},{h[1]})"


def actions_summary_html(board: dict, house: dict) -> str:
    rows = [f"{swatch(house['letter'])} <b>{html.escape(house['name'])}</b>"]
    for ally in house["allies"]:
        uses = ", ".join(f"{KIND_NAMES.get(k, k)} ×{n}" for k, n in ally["uses"].items())
        rows.append(f"Ally <b>{html.escape(ally['shown_as'])}</b>: "
                    + html.escape("; ".join(ally["benefits"]) or "units only")
                    + (f" — left this turn: {html.escape(uses)}" if uses else "")
                    + (f" — units: {html.escape(', '.join(ally['units']))}"
                       if ally["units"] else ""))
    nobles = []
    for uid in house["nobles"]:
        u = board["units"][uid]
        state = ("acted" if uid in house["acted"] else "moved" if u["moved"]
                 else "fought" if u["fought"] else "may act")
        nobles.append(f"{html.escape(uid)} at ({u['hex'][0]},{u['hex'][1]}): {state}")
    rows.append("Nobles: " + ("; ".join(nobles) if nobles else "none"))
    att = house["attempts"]
    rows.append(f"This turn: Assassination {att.get('assassination', 0)} of 2, Intrigue "
                f"{att.get('intrigue', 0)} of 1"
                + (f", Pyreen Diplomacy {house['pyreen']} left" if house["pyreen"] else "")
                + (f", Strategic Planning {house['planning']:+d} chosen" if house["planning"]
                   else ""))
    return "<br>".join(rows)


# ========================================================================================= hex
class HexDock(DockPanel):
    """The selected hex in full: what is there, and every unit of every house with its flags
    and cargo."""
    object_name = "dock-nobles-hex"
    title = "Hex"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def __init__(self, document, parent=None):
        super().__init__(document, parent)
        self.key: str | None = None

    def create_widget(self) -> QWidget:
        self.text = rich_browser()
        self.text.setObjectName("nobles-hex")
        return self.text

    def show_hex(self, key: str | None) -> None:
        self.key = key
        if self.widget_built:
            self.update_widget()

    def update_widget(self) -> None:
        board = self.document.board
        if board is None or not board.get("map"):
            self.text.setHtml("No map yet.")
            return
        entry = next((h for h in board["map"]["hexes"] if h["key"] == self.key), None)
        if entry is None:
            self.text.setHtml("Click a hex on the map to see everything in it.")
            return
        self.text.setHtml(hex_html(board, entry))


def hex_html(board: dict, entry: dict) -> str:
    lines = entry["tooltip"].split("\n")
    parts = [f"<h3>{html.escape(lines[0])}</h3>"]
    parts += [f"<p>{html.escape(line)}</p>" for line in lines[1:]
              if not line.startswith("House ")]
    units = board["units"]
    for stack in entry["stacks"]:
        parts.append(f"<p>{swatch(stack['owner'])} <b>"
                     f"{html.escape(house_name(board, stack['owner']))}</b><br>")
        rows = []
        for uid in stack["units"]:
            u = units[uid]
            if u["ship"]:
                continue
            flags = [f for f in ("moved", "fought") if u[f]]
            row = f"{html.escape(u['label'])}" + (f" <i>({', '.join(flags)})</i>" if flags else "")
            if u.get("cargo"):
                row += " carrying " + html.escape(", ".join(
                    f"{c} {units[c]['type']}" for c in u["cargo"]))
            rows.append(row)
        parts.append("<br>".join(rows) + "</p>")
    return "".join(parts)


__all__ = ["ActionsDock", "BattleDock", "CargoDock", "HexDock", "HousesDock", "movable_ships"]
