"""The New Environs form of Freedom in the Galaxy: the players' own environs for a Part A
Mission Phase (the environs context of rules-freedom.md section 2.1), filled in with widgets
instead of YAML.

    form = EnvironsForm(GAME, parent)
    if form.exec():
        session = Session.new(GAME, "custom", seed, {"context": form.context()})

``context()`` returns the document the option ``context`` of scenario ``custom`` takes (written
like the ``context`` of ``scenarios/freedom/a1.yaml``); ``set_context(ctx)`` fills the form from
one. The form is a thin client: every check is the engine's (FIG-CTX-13). After each edit it
asks ``GAME.normalize_options`` and ``GAME.setup`` about the document; while they refuse it the
OK button stays disabled and the engine's message, which names the field, is shown. Each mission
group shows at once why it would be refused, in the words of the game's ``judge_group``
(FIG-MIS-4), worked out on a throw-away set-up of the same environs without its groups; the
target and spaceship choices of a group are the engine's too (the game's ``target_options``
and ``ship_options``). The form asks the game object only, never a rules module.

The tabs follow the context: the environs and its planet (FIG-CTX-1, FIG-CTX-2, FIG-CTX-3,
FIG-CTX-5), forces and locals (units, sovereigns, creature, races, cells, atrocity units:
FIG-CTX-4, FIG-CTX-6, FIG-CTX-7, FIG-CTX-8, FIG-CTX-11, FIG-CTX-12), characters with their
flags, ratings and possessions, picked from the bonus charts (FIG-CTX-9, FIG-CTX-10, FIG-BDR),
the mission groups, built by dragging characters into them (or with the buttons beside the
lists), and the pools (FIG-CTX-10, FIG-CTX-12). Fields left at the engine's default are left
out of the document, so it stays as short as one written by hand.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QScrollArea, QSpinBox,
                               QSplitter, QTabWidget, QVBoxLayout, QWidget)

from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.ui.dialogs import ERROR, GOOD, error_label, heading, muted, show_error
from struggle_desktop.ui.fit import resize_to_fit
from struggle_desktop.ui.freedom.pickers import (NAME_ROLE, ChartPicker, Column, NameList,
                                                 PoolList, RecordTable, cell_text, fill_combo,
                                                 optional_spin, set_combo_value, set_spin,
                                                 spin_value)

SCENARIO = "custom"
#: The seed of the throw-away set-ups that check the document (set-up rolls nothing).
PROBE_SEED = 0
#: Character flags the form edits (FIG-CTX-9); ``npc_sovereign`` is set by "Add sovereign".
FLAGS = (("detected", "Detected", "The enemy knows where this character is"),
         ("resting", "Resting", "Recovering from wounds: cannot go on a mission"),
         ("captured", "Captured", "Held captive here by the other side"),
         ("home_planet_here", "Home planet here", "This planet is the character's home"),
         ("royalty_here", "Royalty here", "The character is royalty on this planet"),
         ("variant", "Variant", "Use the character's variant row of the bonus chart"))
RATING_TIPS = {"intelligence": "Intelligence, from the character's card",
               "diplomacy": "Diplomacy, from the character's card",
               "leadership": "Leadership, from the character's card",
               "navigation": "Navigation, from the character's card (pilots)",
               "ef": "Endurance (EF), from the character's card"}
#: How the creature kinds of the chart read in the combo (the form's own short words).
CREATURE_KINDS = {"stat": "fights", "mob": "a mob", "auto": "no fight",
                  "special": "special", "auto_mob": "no fight, or a mob",
                  "auto_or_special": "no fight, or special"}
SIDE_LABELS = {"rebel": "Rebel", "imperial": "Imperial"}


def _schema_enums(game) -> dict[str, list]:
    """The enumerations of the context schema (the engine's), so the form offers exactly the
    values the engine knows."""
    schema = game.environs_schema()
    props, defs = schema["properties"], schema["$defs"]
    return {
        "location": props["location"]["enum"], "type": props["type"]["enum"],
        "special_kind": props["special_kind"]["enum"],
        "planet_state": props["planet_state"]["enum"], "loyalty": props["loyalty"]["enum"],
        "controller": props["controller"]["enum"],
        "unit_kind": defs["unit"]["properties"]["kind"]["enum"],
        "alignment": props["sovereigns"]["items"]["properties"]["alignment"]["enum"],
        "cell_kind": props["cells"]["items"]["properties"]["kind"]["enum"],
        "atrocity_kind": props["atrocity_units"]["items"]["properties"]["kind"]["enum"],
        "missions": defs["group"]["properties"]["mission"]["enum"],
    }


def label(value: str) -> str:
    """A schema value in words: ``in_rebellion`` -> ``In rebellion``."""
    text = str(value).replace("_", " ")
    return text[:1].upper() + text[1:]


def _choices(values, blank: str | None = None) -> list[tuple[str, str]]:
    out = [("", blank)] if blank is not None else []
    return out + [(v, label(v)) for v in values]


def _combo(items: list[tuple[str, str]], tip: str = "") -> QComboBox:
    combo = QComboBox()
    for value, text in items:
        combo.addItem(text, value)
    combo.setToolTip(tip)
    return combo


def _spin(low: int, high: int, value: int, tip: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


def scrolled(page: QWidget) -> QScrollArea:
    """``page`` in a frameless scroll area that follows its size: the page keeps its own
    minimum size, and the area scrolls where the dialog is smaller."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(page)
    return area


# ====================================================================================== groups
class GroupBox(QGroupBox):
    """One mission group: mission, who performs it (characters or a cell/camp), members (a
    drop target), leader, target, spaceship and torture where they apply, and the engine's
    verdict on it."""

    def __init__(self, form: "EnvironsForm", number: int):
        super().__init__(f"Group {number}")
        self.form = form
        self.origin = f"group-{number}"
        self.members: list[str] = []
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.mission = QComboBox()
        for letter in form.enums["missions"]:
            self.mission.addItem(f"{letter} — {form.data.mission(letter).name}", letter)
        self.mission.setToolTip("The mission this group tries")
        top.addWidget(self.mission, 1)
        self.remove_button = QPushButton("Remove group")
        self.remove_button.setToolTip("Remove this group; its members go back to the list")
        top.addWidget(self.remove_button)
        layout.addLayout(top)

        form_rows = QFormLayout()
        self.performer = QComboBox()
        self.performer.setToolTip("Characters, or one of the Rebel cells and camps entered "
                                  "under Forces (they go alone)")
        form_rows.addRow("Performed by:", self.performer)
        layout.addLayout(form_rows)

        self.member_list = NameList(self.origin)
        self.member_list.setToolTip("Drop characters here; drag one out (or select it and press "
                                    "Take out / Delete) to remove it")
        self.member_list.setMinimumHeight(72)
        self.member_list.setMaximumHeight(120)
        layout.addWidget(QLabel("Members (drop characters here):"))
        layout.addWidget(self.member_list)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add selected")
        self.add_button.setToolTip("Put the character selected in the list on the left into "
                                   "this group")
        self.take_button = QPushButton("Take out")
        self.take_button.setToolTip("Send the selected member back to the list on the left")
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.take_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

        details = QFormLayout()
        self.leader = QComboBox()
        self.leader.setToolTip("The member who leads the mission")
        details.addRow("Leader:", self.leader)
        self.target = QComboBox()
        self.target.setToolTip("What the mission aims at; the choices are those the game "
                               "allows here")
        self.target_label = QLabel("Target:")
        details.addRow(self.target_label, self.target)
        self.ship = QComboBox()
        self.ship.setToolTip("The spaceship of a Spaceship Quest")
        self.ship_label = QLabel("Spaceship:")
        details.addRow(self.ship_label, self.ship)
        self.torture = QCheckBox("Torture the prisoner")
        self.torture.setToolTip("Only the Imperial player may choose it")
        details.addRow("", self.torture)
        layout.addLayout(details)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("group-status")
        layout.addWidget(self.status)

        self.mission.currentIndexChanged.connect(lambda _i: self._mission_changed())
        for combo in (self.performer, self.leader, self.target, self.ship):
            combo.currentIndexChanged.connect(lambda _i: form.edited())
        self.torture.toggled.connect(lambda _b: form.edited())
        self.member_list.dropped.connect(lambda name, _o: form.move_character(name, self))
        self.member_list.delete_pressed.connect(self.take_out)
        self.add_button.clicked.connect(lambda: form.add_selected_to(self))
        self.take_button.clicked.connect(self.take_out)
        self.remove_button.clicked.connect(lambda: form.remove_group(self))
        self._mission_changed(quiet=True)

    # state ----------------------------------------------------------------------------
    @property
    def letter(self) -> str:
        return self.mission.currentData()

    def take_out(self) -> None:
        name = self.member_list.current_name()
        if name is not None:
            self.form.move_character(name, None)

    def is_empty(self) -> bool:
        return not self.members and not self.performer.currentData()

    def _mission_changed(self, quiet: bool = False) -> None:
        letter = self.letter
        self.ship.setVisible(letter == "J")
        self.ship_label.setVisible(letter == "J")
        self.torture.setVisible(letter == "Q")
        if not quiet:
            self.form.edited()

    def set_members(self, names: list[str]) -> None:
        self.members = list(names)
        leader = self.leader.currentData()
        self.member_list.set_names((n, self.form.character_label(n), "") for n in self.members)
        fill_combo(self.leader, [(n, self.form.data.display_name(n)) for n in self.members]
                   or [("", "(no member yet)")])
        if leader in self.members:
            self.leader.setCurrentIndex(self.leader.findData(leader))

    def record(self) -> dict | None:
        """The group as an ``assignment`` entry (see a1.yaml), or None while it is empty."""
        if self.is_empty():
            return None
        group: dict[str, Any] = {"mission": self.letter}
        performer = self.performer.currentData()
        if performer:
            group["performer"] = performer
        if self.members:
            leader = self.leader.currentData() or self.members[0]
            group["leader"] = leader
            others = [m for m in self.members if m != leader]
            if others:
                group["members"] = others
        if ((self.letter in self.form.game.targeted_missions or self.letter == "J")
                and self.target.currentData()):
            group["target"] = self.target.currentData()
        if self.letter == "J" and self.ship.currentData():
            group["ship"] = self.ship.currentData()
        if self.letter == "Q":
            group["torture"] = self.torture.isChecked()
        return group

    def load(self, group: dict) -> None:
        """Fill the box from an ``assignment`` entry (names already canonical)."""
        set_combo_value(self.mission, group.get("mission", "D"))
        self._mission_changed(quiet=True)
        fill_combo(self.performer, [("", "Characters")])
        if group.get("performer"):
            set_combo_value(self.performer, group["performer"])
        leader = group.get("leader")
        members = ([leader] if leader else []) + [m for m in group.get("members", [])
                                                   if m != leader]
        self.set_members(members)
        if leader:
            set_combo_value(self.leader, leader)
        for combo, key in ((self.target, "target"), (self.ship, "ship")):
            fill_combo(combo, [("", "(none)")])
            if group.get(key):
                set_combo_value(combo, group[key])
        self.torture.setChecked(bool(group.get("torture")))

    def show_verdict(self, text: str, good: bool | None) -> None:
        colour = {True: GOOD, False: ERROR, None: "palette(placeholder-text)"}[good]
        self.status.setStyleSheet(f"QLabel#group-status {{ color: {colour}; }}")
        self.status.setText(text)


# ======================================================================================= form
class EnvironsForm(QDialog):
    """The players' own environs, entered field by field. After ``exec()`` accepted,
    :meth:`context` is the document for scenario ``custom``."""

    def __init__(self, game, parent: QWidget | None = None):
        super().__init__(parent)
        self.game = game
        self.data = game.data
        self.enums = _schema_enums(game)
        self.setWindowTitle("New environs")
        self.setObjectName("freedom-environs-form")
        self._characters: list[dict] = []     # the character records, in entry order
        self._groups: list[GroupBox] = []
        self._group_counter = 0
        self._loading = 0
        self._checking = False
        self._message: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.check)

        layout = QVBoxLayout(self)
        layout.addWidget(heading("New environs"))
        layout.addWidget(muted("Enter the environs where the Mission phase is played. Fields "
                               "left alone keep the game's defaults; the game checks "
                               "everything as you type."))
        self.tabs = QTabWidget()
        # Each page scrolls where it is taller (or wider) than the screen leaves room for, so
        # its tables keep their rows and Start and Cancel stay on the screen below.
        self.tabs.addTab(scrolled(self._build_environs()), "&Environs")
        self.tabs.addTab(scrolled(self._build_forces()), "&Forces and locals")
        self.tabs.addTab(scrolled(self._build_characters()), "&Characters")
        self.tabs.addTab(scrolled(self._build_groups()), "&Mission groups")
        self.tabs.addTab(scrolled(self._build_pools()), "&Pools")
        layout.addWidget(self.tabs, 1)
        self.error = error_label()
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("&Start")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        resize_to_fit(self, 1200, 900)       # smaller on a laptop screen: the pages scroll
        self._sync_enabled()
        self._refresh_sovereign_choice()
        self._refresh_characters()
        self.add_group()
        self.check()

    # ============================================================================ building
    def _build_environs(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        e = self.enums

        where = QGroupBox("Location and sides")
        rows = QFormLayout(where)
        self.location = _combo([("environs", "Environs"), ("orbit", "Orbit box")],
                               "An environs of a planet, or its orbit box (only Spaceship Quest "
                               "and Question Prisoner happen there)")
        self.size = _spin(0, 99, 3, "Environs size, 1 to 9")
        self.env_type = _combo(_choices(e["type"]), "The environs type")
        self.special_kind = _combo(_choices(e["special_kind"]), "For a special environs only")
        self.phasing = _combo([(s, SIDE_LABELS[s]) for s in ("rebel", "imperial")],
                              "The side whose Mission phase this is")
        rows.addRow("&Location:", self.location)
        rows.addRow("Si&ze:", self.size)
        rows.addRow("&Type:", self.env_type)
        rows.addRow("Special &kind:", self.special_kind)
        rows.addRow("P&hasing side:", self.phasing)
        grid.addWidget(where, 0, 0)

        planet = QGroupBox("Planet")
        rows = QFormLayout(planet)
        self.planet_state = _combo(_choices(e["planet_state"], "(not given)"),
                                   "The planet's state; an orbit box may leave it out")
        self.planet_state.setCurrentIndex(1)
        self.loyalty = _combo(_choices(e["loyalty"]), "The loyalty space of the planet")
        self.loyalty.setCurrentIndex(self.loyalty.findData("neutral"))
        self.occupied = QCheckBox("Under occupation")
        self.occupied.setToolTip("A Rebel-controlled planet occupied by Imperial forces")
        self.controller = _combo(_choices(e["controller"], "By planet state (default)"),
                                 "Who controls the planet; the default follows its state")
        self.capital = QCheckBox("Capital or throne planet")
        self.taxed = QCheckBox("Province taxed next turn")
        self.secret_base = QCheckBox("Rebel secret base here")
        self.in_rebellion = _spin(0, 99, 0, "Planets in rebellion in the whole Empire")
        self.pdb = _spin(0, 99, 0, "Planetary defence base level (0: none)")
        self.pdb_down = QCheckBox("PDB down")
        self.enemy_resources = optional_spin(999, "The enemy's resource track (for stealing "
                                                  "resources); a dash: not entered")
        rows.addRow("Planet &state:", self.planet_state)
        rows.addRow("Lo&yalty:", self.loyalty)
        rows.addRow("", self.occupied)
        rows.addRow("Co&ntroller:", self.controller)
        rows.addRow("", self.capital)
        rows.addRow("", self.taxed)
        rows.addRow("", self.secret_base)
        rows.addRow("Planets in rebellion:", self.in_rebellion)
        rows.addRow("P&DB:", self.pdb)
        rows.addRow("", self.pdb_down)
        rows.addRow("Enemy resources:", self.enemy_resources)
        grid.addWidget(planet, 0, 1, 2, 1)

        coup = QGroupBox("Coup")
        rows = QFormLayout(coup)
        self.coup_rating = _spin(0, 99, 0, "The environs' coup rating (0: none)")
        self.last_coup = _combo([("", "Nobody"), ("rebel", "Rebel"), ("imperial", "Imperial")],
                                "Who holds the last-coup marker here")
        rows.addRow("Coup &rating:", self.coup_rating)
        rows.addRow("&Last coup by:", self.last_coup)
        grid.addWidget(coup, 1, 0)
        grid.setRowStretch(2, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)

        for combo in (self.location, self.env_type, self.special_kind, self.planet_state,
                      self.loyalty, self.controller, self.last_coup):
            combo.currentIndexChanged.connect(lambda _i: self.edited())
        self.phasing.currentIndexChanged.connect(lambda _i: self._phasing_changed())
        for spin in (self.size, self.in_rebellion, self.pdb, self.enemy_resources,
                     self.coup_rating):
            spin.valueChanged.connect(lambda _v: self.edited())
        for box in (self.occupied, self.capital, self.taxed, self.secret_base, self.pdb_down):
            box.toggled.connect(lambda _b: self.edited())
        return page

    def _build_forces(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        e = self.enums
        sides = [(s, SIDE_LABELS[s]) for s in ("rebel", "imperial")]

        units = QGroupBox("Military units in the environs")
        box = QVBoxLayout(units)
        self.units = RecordTable([
            Column("id", "Id", omit="", tip="A short name; left empty the game numbers them"),
            Column("side", "Side", "choice", sides),
            Column("kind", "Kind", "choice", _choices(e["unit_kind"])),
            Column("af", "AF", "int", default=1, tip="Attack factor"),
            Column("elite", "Elite", "bool", omit=False),
            Column("leader", "Leader", "optional", maximum=99, omit=None,
                   tip="The leadership of a leader with the unit; a dash: none"),
            Column("damaged", "Damaged", "bool", omit=False)],
            "unit", widths={"id": 70, "side": 95, "kind": 130, "af": 60, "leader": 60},
            defaults=lambda n: {"id": f"U{n + 1}", "side": self.game.other_side(self.phasing.currentData()),
                               "kind": "2nd_line" if self.phasing.currentData() == "rebel"
                               else "irregular", "af": 1})
        box.addWidget(self.units)
        grid.addWidget(units, 0, 0)

        sovereigns = QGroupBox("Sovereigns")
        box = QVBoxLayout(sovereigns)
        self.sovereigns = RecordTable([
            Column("name", "Name"),
            Column("alignment", "Alignment", "choice", _choices(e["alignment"])),
            Column("summoned", "Summoned", "choice", [("", "Nobody")] + sides, omit=None,
                   tip="The side that summoned the sovereign, if any"),
            Column("assassinated", "Killed", "bool", omit=False,
                   tip="The sovereign has been assassinated"),
            Column("resource_rating", "Resources", "int", maximum=99, omit=0,
                   tip="Resource rating, for the troops a summoned sovereign brings"),
            Column("resource_star", "Star", "bool", omit=False,
                   tip="The resource rating has a star")],
            "sovereign", widths={"name": 110, "alignment": 100, "summoned": 90},
            defaults=lambda n: {"name": f"Sovereign {n + 1}", "alignment": "neutral"})
        box.addWidget(self.sovereigns)
        grid.addWidget(sovereigns, 0, 1)

        locals_box = QGroupBox("Creature and races")
        outer = QVBoxLayout(locals_box)
        rows = QFormLayout()
        outer.addLayout(rows)
        outer.addStretch(1)
        self.creature = QComboBox()
        self.creature.addItem("(none)", "")
        for c in self.data.creatures.values():
            strength = (f", AF {c.af} EF {c.ef}" if c.af is not None and c.ef is not None
                        else "")
            mob = f" {c.mob_size}" if c.mob_size else ""
            self.creature.addItem(f"{c.name} — {CREATURE_KINDS.get(c.kind, c.kind)}{mob}"
                                  f"{strength}", c.name)
        self.creature.setToolTip("The creature of this environs, if any (AF and EF: for a mob, "
                                 "of each member)")
        self.creature.setMaxVisibleItems(20)
        rows.addRow("C&reature:", self.creature)
        self.zops_used = QCheckBox("Zops already used in this game")
        self.vrialta_gone = QCheckBox("Vrialta already gone")
        self.virus_immune = QLineEdit()
        self.virus_immune.setPlaceholderText("names, separated by commas")
        self.virus_immune.setToolTip("Characters already immune to the virus in this game")
        rows.addRow("", self.zops_used)
        rows.addRow("", self.vrialta_gone)
        rows.addRow("Virus immune:", self.virus_immune)
        race_row = QHBoxLayout()
        self.race_combo = QComboBox()
        for r in self.data.races.values():
            alt = (f"; {r.alt_environs} AF {r.alt[0]} EF {r.alt[1]}" if r.alt is not None
                   else "")
            self.race_combo.addItem(f"{r.name} — AF {r.af} EF {r.ef}{alt}", r.name)
        self.race_combo.setMaxVisibleItems(20)
        self.race_add = QPushButton("Add race")
        self.race_remove = QPushButton("Remove")
        race_row.addWidget(self.race_combo, 1)
        race_row.addWidget(self.race_add)
        race_row.addWidget(self.race_remove)
        rows.addRow("Races:", race_row)
        self.races = QListWidget()
        self.races.setMaximumHeight(60)
        self.races.setToolTip("The races of this environs, in the order entered (two at most)")
        rows.addRow("", self.races)
        grid.addWidget(locals_box, 1, 0)

        others = QGroupBox("Rebel cells and camps, atrocity units")
        box = QVBoxLayout(others)
        self.cells = RecordTable([Column("id", "Id"),
                                  Column("kind", "Kind", "choice", _choices(e["cell_kind"]))],
                                 "cell", lambda n: {"id": f"Cell {n + 1}", "kind": "cell"},
                                 widths={"id": 160})
        self.atrocities = RecordTable(
            [Column("id", "Id"), Column("kind", "Kind", "choice", _choices(e["atrocity_kind"]))],
            "atrocity unit", lambda n: {"id": f"Atrocity {n + 1}", "kind": "dreadnought"},
            widths={"id": 160})
        self.atrocities.setToolTip("Imperial atrocity units in the orbit box")
        box.addWidget(self.cells)
        box.addWidget(muted("Atrocity units in the orbit box:"))
        box.addWidget(self.atrocities)
        grid.addWidget(others, 1, 1)
        grid.setRowStretch(0, 3)
        grid.setRowStretch(1, 2)

        for table in (self.units, self.sovereigns, self.cells, self.atrocities):
            table.changed.connect(self.edited)
        self.sovereigns.changed.connect(self._refresh_sovereign_choice)
        self.cells.changed.connect(self._refresh_performers)
        self.creature.currentIndexChanged.connect(lambda _i: self.edited())
        for box_ in (self.zops_used, self.vrialta_gone):
            box_.toggled.connect(lambda _b: self.edited())
        self.virus_immune.textChanged.connect(lambda _t: self.edited())
        self.race_add.clicked.connect(self._add_race)
        self.race_remove.clicked.connect(self._remove_race)
        return page

    def _build_characters(self) -> QWidget:
        page = QSplitter(Qt.Orientation.Horizontal)
        page.setChildrenCollapsible(False)

        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(heading("Bonus charts", 1.1))
        row.addStretch(1)
        self.chart_side = _combo([(s, SIDE_LABELS[s]) for s in ("rebel", "imperial")],
                                 "Whose charts to show")
        side_label = QLabel("Si&de:")
        side_label.setBuddy(self.chart_side)
        row.addWidget(side_label)
        row.addWidget(self.chart_side)
        column.addLayout(row)
        column.addWidget(muted("One column per mission: what the character adds to its bonus "
                               "count as leader (in brackets: going along). A dash: cannot "
                               "lead it."))
        self.character_picker = ChartPicker(self.data, "character")
        self.character_picker.setObjectName("character-picker")
        column.addWidget(self.character_picker, 3)
        self.pick_button = QPushButton("Add &character to the environs")
        column.addWidget(self.pick_button)
        column.addWidget(QLabel("<b>Possessions</b> (Rebel chart)"))
        self.possession_picker = ChartPicker(self.data, "possession")
        self.possession_picker.setObjectName("possession-picker")
        column.addWidget(self.possession_picker, 2)
        self.give_button = QPushButton("&Give to the selected character")
        column.addWidget(self.give_button)
        column.addWidget(QLabel("<b>Spaceships</b>"))
        self.ship_picker = ChartPicker(self.data, "spaceship")
        self.ship_picker.setObjectName("ship-picker")
        self.ship_picker.setMaximumHeight(170)
        column.addWidget(self.ship_picker, 1)
        self.ship_button = QPushButton("Add spaces&hip")
        column.addWidget(self.ship_button)
        page.addWidget(left)

        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(heading("In this environs", 1.1))
        # A drop target for the chart's rows (dragging out of it is not offered: the groups
        # tab has its own list of the phasing side's characters).
        self.character_list = NameList("environs")
        self.character_list.setDragEnabled(False)
        self.character_list.setToolTip("Drag a character here from the bonus chart, or "
                                       "double-click its row there")
        self.character_list.setObjectName("characters-here")
        column.addWidget(self.character_list, 2)
        self.drop_note = muted("")
        self.drop_note.setObjectName("characters-drop-note")
        self.drop_note.setStyleSheet(f"color: {ERROR};")
        self.drop_note.hide()
        column.addWidget(self.drop_note)
        row = QHBoxLayout()
        self.remove_character_button = QPushButton("Remove character")
        row.addWidget(self.remove_character_button)
        row.addStretch(1)
        self.sovereign_choice = QComboBox()
        self.sovereign_choice.setToolTip("A sovereign entered under Forces that goes on "
                                         "missions with the phasing side's characters")
        self.add_sovereign_button = QPushButton("Add sovereign")
        row.addWidget(self.sovereign_choice)
        row.addWidget(self.add_sovereign_button)
        column.addLayout(row)

        self.detail = QGroupBox("Selected character")
        detail = QVBoxLayout(self.detail)
        flags = QGridLayout()
        self.flag_boxes: dict[str, QCheckBox] = {}
        for k, (key, text, tip) in enumerate(FLAGS):
            box = QCheckBox(text)
            box.setToolTip(tip)
            box.toggled.connect(lambda checked, key=key: self._set_character_field(key, checked))
            flags.addWidget(box, k // 3, k % 3)
            self.flag_boxes[key] = box
        detail.addLayout(flags)
        ratings = QGridLayout()
        self.rating_spins: dict[str, QSpinBox] = {}
        for k, key in enumerate(("hits",) + tuple(self.game.ratings)):
            spin = (_spin(0, 99, 0, "Hits already taken") if key == "hits"
                    else optional_spin(20, RATING_TIPS[key] + "; a dash: not entered (the game "
                                                              "asks when it needs it)"))
            spin.valueChanged.connect(
                lambda _v, key=key, spin=spin: self._set_character_field(
                    key, spin_value(spin) if key != "hits" else spin.value()))
            name = {"ef": "EF", "hits": "Hits"}.get(key, key.capitalize())
            ratings.addWidget(QLabel(name + ":"), k // 3, 2 * (k % 3))
            ratings.addWidget(spin, k // 3, 2 * (k % 3) + 1)
            self.rating_spins[key] = spin
        detail.addLayout(ratings)
        detail.addWidget(QLabel("Possessions carried:"))
        self.carried = QListWidget()
        self.carried.setMaximumHeight(64)
        detail.addWidget(self.carried)
        row = QHBoxLayout()
        self.take_possession_button = QPushButton("Take the possession away")
        row.addWidget(self.take_possession_button)
        row.addStretch(1)
        detail.addLayout(row)
        detail.addStretch(1)
        column.addWidget(self.detail, 3)

        column.addWidget(QLabel("<b>Spaceships here</b>"))
        ship_names = [(n, self.data.display_name(n)) for side in ("rebel", "imperial")
                      for n in self.data.bonus_chart(side, "spaceship")]
        self.ships = RecordTable([
            Column("name", "Spaceship", "choice", ship_names),
            Column("side", "Side", "choice", [(s, SIDE_LABELS[s]) for s in ("rebel", "imperial")]),
            Column("detected", "Detected", "bool", omit=False),
            Column("damaged", "Damaged", "bool", omit=False)], "spaceship",
            widths={"name": 170, "side": 95, "detected": 75})
        self.ships.add_button.hide()      # ships are added from the chart on the left
        column.addWidget(self.ships, 1)
        page.addWidget(right)
        page.setSizes([640, 520])

        self.chart_side.currentIndexChanged.connect(lambda _i: self._chart_side_changed())
        self.character_picker.picked.connect(self.add_character)
        self.pick_button.clicked.connect(
            lambda: self.add_character(self.character_picker.current_name()))
        self.possession_picker.picked.connect(self.give_possession)
        self.give_button.clicked.connect(
            lambda: self.give_possession(self.possession_picker.current_name()))
        self.ship_picker.picked.connect(self.add_ship)
        self.ship_button.clicked.connect(lambda: self.add_ship(self.ship_picker.current_name()))
        self.character_list.currentRowChanged.connect(lambda _r: self._show_character())
        self.character_list.dropped.connect(self._character_dropped)
        self.remove_character_button.clicked.connect(self._remove_selected_character)
        self.add_sovereign_button.clicked.connect(self._add_sovereign)
        self.take_possession_button.clicked.connect(self._take_possession)
        self.ships.changed.connect(self.edited)
        self.ships.changed.connect(self._refresh_taken)
        return page

    def _build_groups(self) -> QWidget:
        page = QSplitter(Qt.Orientation.Horizontal)
        page.setChildrenCollapsible(False)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(heading("Phasing side's characters", 1.1))
        column.addWidget(muted("Drag a character into a group, or select it and press Add "
                               "selected in the group. Drag a member back here to take it out. "
                               "Groups left empty are formed at the game's prompt instead."))
        self.free_list = NameList("free")
        self.free_list.setObjectName("free-characters")
        self.free_list.setToolTip("Characters of the phasing side not yet in a group")
        column.addWidget(self.free_list, 1)
        page.addWidget(left)

        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(heading("Mission groups", 1.1))
        row.addStretch(1)
        self.add_group_button = QPushButton("&Add group")
        row.addWidget(self.add_group_button)
        column.addLayout(row)
        self.group_note = muted("")
        self.group_note.setObjectName("group-add-note")
        self.group_note.setWordWrap(True)
        self.group_note.hide()
        column.addWidget(self.group_note)
        self.group_area = QScrollArea()
        self.group_area.setWidgetResizable(True)
        holder = QWidget()
        stack = QVBoxLayout(holder)
        self.group_grid = QGridLayout()
        self.group_grid.setColumnStretch(0, 1)
        self.group_grid.setColumnStretch(1, 1)
        stack.addLayout(self.group_grid)
        stack.addStretch(1)          # groups keep their own height, at the top
        self.group_area.setWidget(holder)
        column.addWidget(self.group_area, 1)
        page.addWidget(right)
        page.setSizes([300, 860])

        self.free_list.dropped.connect(lambda name, _o: self.move_character(name, None))
        self.add_group_button.clicked.connect(self._add_group_clicked)
        return page

    def _build_pools(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        self.pools = {}
        for k, side in enumerate(("rebel", "imperial")):
            pool = PoolList(f"{SIDE_LABELS[side]} characters not yet recruited",
                            f"Default: every {SIDE_LABELS[side]} character not entered here")
            pool.setToolTip("The characters a recruitment roll may bring in")
            pool.changed.connect(self.edited)
            grid.addWidget(pool, 0, k)
            self.pools[side] = pool
        self.possession_pool = PoolList("Possessions out of play",
                                        "Default: every chart possession not carried here")
        self.possession_pool.setToolTip("What scavenging may find")
        self.possession_pool.changed.connect(self.edited)
        grid.addWidget(self.possession_pool, 0, 2)
        extra = QFormLayout()
        self.extra_possessions = QLineEdit()
        self.extra_possessions.setPlaceholderText("names, separated by commas")
        self.extra_possessions.setToolTip("Possessions of your own that have no chart values")
        self.extra_possessions.textChanged.connect(lambda _t: self._extras_changed())
        extra.addRow("Own possessions:", self.extra_possessions)
        self.mulligans = {}
        for side in ("rebel", "imperial"):
            spin = _spin(0, 99, 0, f"Mulligans the {SIDE_LABELS[side]} player holds")
            spin.valueChanged.connect(lambda _v: self.edited())
            extra.addRow(f"{SIDE_LABELS[side]} mulligans:", spin)
            self.mulligans[side] = spin
        grid.addLayout(extra, 1, 0, 1, 3)
        self.pools["rebel"].set_universe(self.data.recruitable("rebel"), self.data.display_name)
        self.pools["imperial"].set_universe(self.data.recruitable("imperial"),
                                            self.data.display_name)
        self.possession_pool.set_universe(self.data.possession_deck, self.data.display_name)
        return page

    # ============================================================================ editing
    def edited(self, *_args) -> None:
        """Something changed: check the document once the current event is handled."""
        if self._loading or self._checking:
            return
        self._sync_enabled()
        self._timer.start()

    def _sync_enabled(self) -> None:
        """Fields that do not apply are greyed out and left out of the document."""
        environs_here = self.location.currentData() == "environs"
        self.size.setEnabled(environs_here)
        self.env_type.setEnabled(environs_here)
        self.special_kind.setEnabled(environs_here and self.env_type.currentData() == "special")
        state = self.planet_state.currentData()
        self.loyalty.setEnabled(state == "loyalty")
        self.occupied.setEnabled(state == "rebel_controlled" or self.occupied.isChecked())
        self.pdb_down.setEnabled(self.pdb.value() > 0 or self.pdb_down.isChecked())

    def _phasing_changed(self) -> None:
        side = self.phasing.currentData()
        for c in self._characters:
            if c.get("npc_sovereign"):
                c["side"] = side      # a sovereign goes along with the phasing side only
        if not self._loading:
            set_combo_value(self.chart_side, side)
        self._refresh_characters()
        self.edited()

    def _chart_side_changed(self) -> None:
        side = self.chart_side.currentData()
        self.character_picker.set_side(side)
        self.ship_picker.set_side(side)
        self.possession_picker.set_side("rebel")    # only the Rebel chart has possessions
        self._refresh_taken()

    def _extras_changed(self) -> None:
        extras = self._extras()
        self.possession_picker.set_extras(extras)
        universe = list(self.data.possession_deck) + [x for x in extras
                                                      if x not in self.data.possession_deck]
        self.possession_pool.set_universe(universe, self.data.display_name)
        self._refresh_taken()
        self.edited()

    def _extras(self) -> list[str]:
        return [x.strip() for x in self.extra_possessions.text().split(",") if x.strip()]

    # races ------------------------------------------------------------------------------
    def _add_race(self) -> None:
        self._append_race(self.race_combo.currentData())
        self.edited()

    def _append_race(self, name: str) -> None:
        item = QListWidgetItem(self.race_combo.itemText(max(0, self.race_combo.findData(name)))
                               if self.race_combo.findData(name) >= 0 else name)
        item.setData(NAME_ROLE, name)
        self.races.addItem(item)

    def _remove_race(self) -> None:
        row = self.races.currentRow() if self.races.currentRow() >= 0 else self.races.count() - 1
        if row >= 0:
            self.races.takeItem(row)
            self.edited()

    # characters -------------------------------------------------------------------------
    def character(self, name: str) -> dict | None:
        return next((c for c in self._characters if c["name"] == name), None)

    def character_label(self, name: str) -> str:
        c = self.character(name)
        shown = self.data.display_name(name)
        if c is None:
            return f"{shown} (not entered)"
        marks = [text.lower() for key, text, _tip in FLAGS if c.get(key)
                 and key in ("resting", "captured", "variant")]
        if c.get("npc_sovereign"):
            marks.insert(0, "sovereign")
        side = SIDE_LABELS.get(c.get("side"), c.get("side"))
        extra = f", {', '.join(marks)}" if marks else ""
        return f"{shown} — {side}{extra}"

    def add_character(self, name: str | None) -> None:
        """Enter a chart character (a side's row) in the environs."""
        if not name or self.character(name) is not None:
            return
        row = self.data.chart_row(name)
        self._characters.append({"name": row.name, "side": row.side})
        self._refresh_characters(select=row.name)
        self.edited()

    def _character_dropped(self, name: str, origin: str) -> None:
        """A row dropped from the character chart is entered; anything else is told why
        not (a drop that does nothing says so)."""
        if origin != "chart-character":
            self.drop_note.setText("Only a character's row of the bonus chart can be "
                                   "dropped here.")
        elif name not in self.character_picker.rows():
            self.drop_note.setText(f"{name} is not a row of the chart shown.")
        elif self.data.chart_row(name).variant_of is not None:
            self.drop_note.setText(f"{self.data.display_name(name)} is a variant row: drop "
                                   "the character himself (his Variant box selects it).")
        elif self.character(name) is not None:
            self.drop_note.setText(f"{self.data.display_name(name)} is already in this "
                                   "environs.")
        else:
            self.drop_note.setText("")
            self.add_character(name)
        self.drop_note.setVisible(bool(self.drop_note.text()))

    def _add_sovereign(self) -> None:
        name = self.sovereign_choice.currentData()
        if not name or self.character(name) is not None:
            return
        self._characters.append({"name": name, "side": self.phasing.currentData(),
                                 "npc_sovereign": True})
        self._refresh_characters(select=name)
        self.edited()

    def remove_character(self, name: str) -> None:
        self._characters = [c for c in self._characters if c["name"] != name]
        for g in self._groups:
            if name in g.members:
                g.set_members([m for m in g.members if m != name])
        self._refresh_characters()
        self.edited()

    def _remove_selected_character(self) -> None:
        name = self._selected_character()
        if name:
            self.remove_character(name)

    def _selected_character(self) -> str | None:
        item = self.character_list.currentItem()
        return item.data(NAME_ROLE) if item is not None else None

    def select_character(self, name: str) -> None:
        for i in range(self.character_list.count()):
            if self.character_list.item(i).data(NAME_ROLE) == name:
                self.character_list.setCurrentRow(i)
                return

    def give_possession(self, item: str | None) -> None:
        """The selected character carries ``item`` (taken from whoever had it)."""
        who = self.character(self._selected_character() or "")
        if not item or who is None:
            return
        for c in self._characters:
            if item in c.get("possessions", []):
                c["possessions"].remove(item)
        who.setdefault("possessions", []).append(item)
        self._show_character()
        self._refresh_taken()
        self.edited()

    def _take_possession(self) -> None:
        who = self.character(self._selected_character() or "")
        item = self.carried.currentItem()
        if who is None or item is None:
            return
        who["possessions"].remove(item.data(NAME_ROLE))
        self._show_character()
        self._refresh_taken()
        self.edited()

    def add_ship(self, name: str | None) -> None:
        if not name or name in [s.get("name") for s in self.ships.records()]:
            return
        self.ships.add_row({"name": name, "side": self.data.chart_row(name).side})

    def character_flag(self, name: str, key: str, value: Any) -> None:
        """Set a flag or rating of a character (the detail panel's path, also for tests)."""
        self.select_character(name)
        widget = self.flag_boxes.get(key)
        if widget is not None:
            widget.setChecked(bool(value))
        else:
            set_spin(self.rating_spins[key], value)

    def _set_character_field(self, key: str, value: Any) -> None:
        if self._loading:
            return
        c = self.character(self._selected_character() or "")
        if c is None:
            return
        c[key] = value
        item = self.character_list.currentItem()
        item.setText(self.character_label(c["name"]))
        self._refresh_group_lists()
        self.edited()

    def _show_character(self) -> None:
        """Load the selected character into the detail panel."""
        c = self.character(self._selected_character() or "")
        self._loading += 1
        self.detail.setEnabled(c is not None)
        self.detail.setTitle(f"Selected character: {self.character_label(c['name'])}"
                             if c else "Selected character")
        variants = {r.variant_of for side in ("rebel", "imperial")
                    for r in self.data.bonus_chart(side, "character").values() if r.variant_of}
        for key, box in self.flag_boxes.items():
            box.setChecked(bool(c and c.get(key)))
            if key == "variant":
                box.setEnabled(bool(c and (c["name"] in variants or c.get("variant"))))
        for key, spin in self.rating_spins.items():
            set_spin(spin, (c or {}).get(key, 0 if key == "hits" else None))
        self.carried.clear()
        for item in (c or {}).get("possessions", []):
            entry = QListWidgetItem(self.data.display_name(item))
            entry.setData(NAME_ROLE, item)
            self.carried.addItem(entry)
        self._loading -= 1

    def _refresh_characters(self, select: str | None = None) -> None:
        """Redraw every list that shows the characters."""
        current = select or self._selected_character()
        self.character_list.blockSignals(True)
        self.character_list.clear()
        for c in self._characters:
            item = QListWidgetItem(self.character_label(c["name"]))
            item.setData(NAME_ROLE, c["name"])
            self.character_list.addItem(item)
        self.character_list.blockSignals(False)
        if current and self.character(current):
            self.select_character(current)
        elif self._characters:
            self.character_list.setCurrentRow(0)
        self._show_character()
        self._refresh_taken()
        self._refresh_group_lists()

    def _refresh_taken(self) -> None:
        """Grey what is already here: picked characters, carried possessions, ships."""
        names = {c["name"] for c in self._characters}
        self.character_picker.set_taken(names)
        carried = {p for c in self._characters for p in c.get("possessions", [])}
        self.possession_picker.set_taken(carried)
        ships = {s.get("name") for s in self.ships.records()}
        self.ship_picker.set_taken(ships)
        for pool in self.pools.values():
            pool.set_excluded(names)
        self.possession_pool.set_excluded(carried | ships)

    def _refresh_sovereign_choice(self) -> None:
        names = [r.get("name") for r in self.sovereigns.records() if r.get("name")]
        fill_combo(self.sovereign_choice, [(n, n) for n in names] or [("", "(no sovereign)")])

    # groups -----------------------------------------------------------------------------
    def free_missions(self) -> list[str]:
        """The missions the phasing side may try that no group has yet (a mission is tried
        by one group only, FIG-MIS-4), those a new group starts on best first."""
        side = self.phasing.currentData()
        taken = {g.letter for g in self._groups}
        free = [x for x in self.enums["missions"] if x not in taken
                and self.data.mission(x).allowed_for(side)]
        # Diplomacy first (the commonest), then the missions that need no target named.
        return sorted(free, key=lambda x: (x != "D", x in self.game.targeted_missions))

    def _add_group_clicked(self) -> None:
        """Add group: the new group starts on the first mission not yet taken, so that it is
        legal at once; when none is left it is not added, and the form says why."""
        free = self.free_missions()
        if not free:
            self.group_note.setText("No group can be added: every mission the phasing side "
                                    "may try has a group already (each mission is tried by "
                                    "one group only).")
            self.group_note.show()
            return
        self.group_note.hide()
        self.add_group({"mission": free[0]})

    def add_group(self, record: dict | None = None) -> GroupBox:
        self._group_counter += 1
        box = GroupBox(self, self._group_counter)
        self._groups.append(box)
        box.load(record or {"mission": (self.free_missions() or ["D"])[0]})
        self._place_groups()
        self._refresh_performers()
        self._refresh_group_lists()
        self.edited()
        return box

    def remove_group(self, box: GroupBox) -> None:
        self._groups.remove(box)
        box.setParent(None)
        box.deleteLater()
        self._place_groups()
        self._refresh_group_lists()
        self.edited()

    def _place_groups(self) -> None:
        for k, box in enumerate(self._groups):
            box.setTitle(f"Group {k + 1}")
            self.group_grid.addWidget(box, k // 2, k % 2, Qt.AlignmentFlag.AlignTop)

    @property
    def groups(self) -> list[GroupBox]:
        return list(self._groups)

    def move_character(self, name: str, to: GroupBox | None) -> None:
        """Put ``name`` into group ``to`` (None: back to the free list), out of any other.
        Only a character entered in the environs moves (a chart row dropped on a group's list
        is not one yet)."""
        if self.character(name) is None:
            return
        for g in self._groups:
            if name in g.members and g is not to:
                g.set_members([m for m in g.members if m != name])
        if to is not None and name not in to.members:
            to.set_members(to.members + [name])
        self._refresh_group_lists()
        self.edited()

    def add_selected_to(self, box: GroupBox) -> None:
        name = self.free_list.current_name()
        if name is not None:
            self.move_character(name, box)

    def _refresh_group_lists(self) -> None:
        """The free list: the phasing side's characters in no group."""
        side = self.phasing.currentData()
        taken = {m for g in self._groups for m in g.members}
        self.free_list.set_names(
            (c["name"], self.character_label(c["name"]), "Drag into a group")
            for c in self._characters if c.get("side") == side and c["name"] not in taken)
        for g in self._groups:
            g.member_list.set_names((n, self.character_label(n), "") for n in g.members)

    def _refresh_performers(self) -> None:
        cells = [(r["id"], f"{r['id']} ({r.get('kind', '')})") for r in self.cells.records()
                 if r.get("id")]
        for g in self._groups:
            current = g.performer.currentData()
            fill_combo(g.performer, [("", "Characters")] + cells)
            if current:
                set_combo_value(g.performer, current)
        self.edited()

    # ============================================================================ document
    def context(self) -> dict:
        """The environs as the document of the option ``context`` (scenario ``custom``)."""
        ctx: dict[str, Any] = {"location": self.location.currentData()}
        if ctx["location"] == "environs":
            ctx["size"] = self.size.value()
            ctx["type"] = self.env_type.currentData()
            if ctx["type"] == "special":
                ctx["special_kind"] = self.special_kind.currentData()
        ctx["phasing_side"] = self.phasing.currentData()
        state = self.planet_state.currentData()
        if state:
            ctx["planet_state"] = state
            if state == "loyalty":
                ctx["loyalty"] = self.loyalty.currentData()
        if self.occupied.isChecked():
            ctx["occupied"] = True
        if self.controller.currentData():
            ctx["controller"] = self.controller.currentData()
        for key, box in (("capital_or_throne", self.capital),
                         ("province_taxed_next_turn", self.taxed),
                         ("rebel_secret_base_here", self.secret_base)):
            if box.isChecked():
                ctx[key] = True
        if self.in_rebellion.value():
            ctx["planets_in_rebellion_empire_wide"] = self.in_rebellion.value()
        if self.pdb.value():
            ctx["pdb"] = self.pdb.value()
        if self.pdb_down.isChecked():
            ctx["pdb_down"] = True
        if spin_value(self.enemy_resources) is not None:
            ctx["enemy_resources"] = spin_value(self.enemy_resources)
        if self.coup_rating.value():
            ctx["coup_rating"] = self.coup_rating.value()
        if self.last_coup.currentData():
            ctx["last_coup_by"] = self.last_coup.currentData()
        for key, table in (("units", self.units), ("sovereigns", self.sovereigns)):
            if table.records():
                ctx[key] = table.records()
        if self.creature.currentData():
            ctx["creature"] = self.creature.currentData()
        memory: dict[str, Any] = {}
        if self.zops_used.isChecked():
            memory["zops_used"] = True
        if self.vrialta_gone.isChecked():
            memory["vrialta_gone"] = True
        immune = [x.strip() for x in self.virus_immune.text().split(",") if x.strip()]
        if immune:
            memory["virus_immune"] = immune
        if memory:
            ctx["memory"] = memory
        races = [self.races.item(i).data(NAME_ROLE) for i in range(self.races.count())]
        if races:
            ctx["races"] = races
        if self._characters:
            ctx["characters"] = [self._character_record(c) for c in self._characters]
        for key, table in (("spaceships", self.ships), ("atrocity_units", self.atrocities),
                           ("cells", self.cells)):
            if table.records():
                ctx[key] = table.records()
        pools = {side: self.pools[side].value() for side in ("rebel", "imperial")
                 if self.pools[side].value() is not None}
        if pools:
            ctx["unrecruited"] = pools
        if self.possession_pool.value() is not None:
            ctx["possession_pool"] = self.possession_pool.value()
        if self._extras():
            ctx["extra_possessions"] = self._extras()
        mulligans = {side: spin.value() for side, spin in self.mulligans.items() if spin.value()}
        if mulligans:
            ctx["mulligans"] = mulligans
        assignment = [r for r in (g.record() for g in self._groups) if r is not None]
        if assignment:
            ctx["assignment"] = assignment
        return ctx

    def _character_record(self, c: dict) -> dict:
        """A character as the context writes it: flags only when set, ratings when entered."""
        record = {"name": c["name"], "side": c["side"]}
        for key in [k for k, _t, _tip in FLAGS] + ["npc_sovereign"]:
            if c.get(key):
                record[key] = True
        if c.get("hits"):
            record["hits"] = c["hits"]
        for key in self.game.ratings:
            if c.get(key) is not None:
                record[key] = c[key]
        if c.get("possessions"):
            record["possessions"] = list(c["possessions"])
        return record

    def set_context(self, ctx: dict) -> None:
        """Fill the form from a context document (a scenario's ``context``, a saved file)."""
        ctx = dict(ctx or {})
        self._loading += 1
        try:
            self._load_environs(ctx)
            self._load_forces(ctx)
            self._load_characters(ctx)
            self._load_pools(ctx)
            self._load_groups(ctx)
        finally:
            self._loading -= 1
        self._sync_enabled()
        self.check()

    def _load_environs(self, ctx: dict) -> None:
        set_combo_value(self.location, ctx.get("location", "environs"))
        set_spin(self.size, ctx.get("size", 3))
        set_combo_value(self.env_type, ctx.get("type", "urban"))
        set_combo_value(self.special_kind, ctx.get("special_kind", "subterranean"))
        set_combo_value(self.phasing, ctx.get("phasing_side", "rebel"))
        set_combo_value(self.chart_side, self.phasing.currentData())
        set_combo_value(self.planet_state, ctx.get("planet_state") or "")
        set_combo_value(self.loyalty, ctx.get("loyalty") or "neutral")
        self.occupied.setChecked(bool(ctx.get("occupied")))
        set_combo_value(self.controller, ctx.get("controller") or "")
        self.capital.setChecked(bool(ctx.get("capital_or_throne")))
        self.taxed.setChecked(bool(ctx.get("province_taxed_next_turn")))
        self.secret_base.setChecked(bool(ctx.get("rebel_secret_base_here")))
        set_spin(self.in_rebellion, ctx.get("planets_in_rebellion_empire_wide", 0))
        set_spin(self.pdb, ctx.get("pdb", 0))
        self.pdb_down.setChecked(bool(ctx.get("pdb_down")))
        set_spin(self.enemy_resources, ctx.get("enemy_resources"))
        set_spin(self.coup_rating, ctx.get("coup_rating", 0))
        set_combo_value(self.last_coup, ctx.get("last_coup_by") or "")

    def _load_forces(self, ctx: dict) -> None:
        self.units.set_records(ctx.get("units", []))
        self.sovereigns.set_records(
            [dict(s, summoned=s.get("summoned") or None) for s in ctx.get("sovereigns", [])])
        self.cells.set_records(ctx.get("cells", []))
        self.atrocities.set_records(ctx.get("atrocity_units", []))
        self.ships.set_records(
            [dict(s, name=self.data.canonical_name(s.get("name", "")))
             for s in ctx.get("spaceships", [])])
        set_combo_value(self.creature, ctx.get("creature") or "")
        memory = ctx.get("memory") or {}
        self.zops_used.setChecked(bool(memory.get("zops_used")))
        self.vrialta_gone.setChecked(bool(memory.get("vrialta_gone")))
        self.virus_immune.setText(", ".join(map(str, memory.get("virus_immune", []))))
        self.races.clear()
        for race in ctx.get("races", []):
            self._append_race(race)
        self._refresh_sovereign_choice()

    def _load_characters(self, ctx: dict) -> None:
        self._characters = []
        for c in ctx.get("characters", []):
            c = dict(c)
            if not c.get("npc_sovereign"):
                c["name"] = self.data.canonical_name(str(c.get("name", "")))
            c["possessions"] = [self.data.canonical_name(p) for p in c.get("possessions", [])]
            self._characters.append(c)
        self.extra_possessions.setText(", ".join(ctx.get("extra_possessions", [])))
        self._extras_changed()
        self._refresh_characters()

    def _load_pools(self, ctx: dict) -> None:
        pools = ctx.get("unrecruited") or {}
        for side in ("rebel", "imperial"):
            value = pools.get(side)
            value = None if value is None else [self.data.canonical_name(n) for n in value]
            self.pools[side].set_value(value, self.data.recruitable(side))
        value = ctx.get("possession_pool")
        value = None if value is None else [self.data.canonical_name(n) for n in value]
        self.possession_pool.set_value(value, self.possession_pool.universe())
        mulligans = ctx.get("mulligans") or {}
        for side, spin in self.mulligans.items():
            set_spin(spin, mulligans.get(side, 0))

    def _load_groups(self, ctx: dict) -> None:
        for box in list(self._groups):
            self._groups.remove(box)
            box.setParent(None)
            box.deleteLater()
        self._group_counter = 0
        for g in ctx.get("assignment") or []:
            g = dict(g)
            for key in ("leader", "target"):
                if g.get(key) and self.character(self.data.canonical_name(g[key])):
                    g[key] = self.data.canonical_name(g[key])
            g["members"] = [self.data.canonical_name(m) for m in g.get("members", [])]
            self.add_group(g)
        if not self._groups:
            self.add_group()
        self._refresh_performers()
        for box, g in zip(self._groups, ctx.get("assignment") or []):
            if g.get("performer"):
                set_combo_value(box.performer, g["performer"])
        self._refresh_group_lists()

    # ============================================================================ checking
    def check(self) -> str | None:
        """Ask the engine about the document now: the message that refuses it (None when it
        would be accepted). Updates the groups' verdicts, the error line and the OK button."""
        self._timer.stop()
        self._checking = True
        try:
            # The groups' choices come from a set-up without the groups, so offering them
            # first and reading the document afterwards keeps both in step.
            probe = self._probe(self.context())
            for box in self._groups:
                self._offer_choices(box, probe)
            ctx = self.context()
            message = None
            try:
                self.game.normalize_options(SCENARIO, {"context": ctx})
            except StruggleError as exc:
                message = str(exc)
            self._judge_groups(probe)
            if message is None:
                try:
                    self.game.setup(SCENARIO, PROBE_SEED, {"context": ctx})
                except StruggleError as exc:
                    message = str(exc)
        finally:
            self._checking = False
        self._message = message
        show_error(self.error, message or "")
        self.ok_button.setEnabled(message is None)
        self.ok_button.setToolTip(message or "Start the Mission phase of this environs")
        return message

    @property
    def message(self) -> str | None:
        """The engine's last word on the document (None: accepted)."""
        return self._message

    def _probe(self, ctx: dict):
        """A flow context of the same environs without its groups, to ask the engine about
        groups; None while the environs itself is refused."""
        base = {k: v for k, v in ctx.items() if k != "assignment"}
        try:
            state = self.game.setup(SCENARIO, PROBE_SEED, {"context": base})
        except StruggleError:
            return None
        return self.game.context(state, dice=False)

    def _judge_groups(self, probe) -> None:
        """Each group's verdict, as the set-up gives it: checked against the groups before it
        (FIG-MIS-4). The target and spaceship choices come from the engine too."""
        earlier: list[dict] = []
        for box in self._groups:
            record = box.record()
            if record is None:
                box.show_verdict("Empty: drop characters here, or leave it empty to form the "
                                 "groups at the game's prompt.", None)
                continue
            if probe is None:
                box.show_verdict("Waiting: the environs itself is refused (see below).", None)
                continue
            group = self.game.form_group(record)
            try:
                problem, missing = self.game.judge_group(probe, group, earlier)
            except (KeyError, ValueError, StopIteration) as exc:
                problem, missing = f"{exc} is not known here", []
            earlier.append(group)
            box.member_list.set_labels({n: self._member_text(probe, n, group)
                                        for n in box.members})
            if problem:
                box.show_verdict(f"Refused: {problem}.", False)
            elif missing:
                asked = ", ".join(f"{self.data.display_name(n)}'s {r}" for n, r in missing)
                box.show_verdict(f"Ready; the game will ask for {asked}.", True)
            else:
                box.show_verdict("Ready.", True)

    def _member_text(self, probe, name: str, group: dict) -> str:
        """A member with his chart value for the group's mission, read from the row the
        engine uses for him in this group (a variant row where it applies)."""
        letter = group["mission"]
        shown = self.data.display_name(name)
        lead = " (leads)" if name == group["leader"] else ""
        try:
            row = probe.chart_row(name, group)
        except (KeyError, ValueError):
            return f"{shown}{lead} — not a character here"
        if row is None:
            return f"{shown}{lead} — sovereign"
        if not row.has_column(letter):
            return f"{shown}{lead} — no {letter} column"
        variant = f", row {row.name}" if row.variant_of is not None else ""
        return f"{shown}{lead} — chart {letter}: {cell_text(row.cell(letter))}{variant}"

    def _offer_choices(self, box: GroupBox, probe) -> None:
        letter = box.letter
        targeted_missions = self.game.targeted_missions
        options = self.game.target_options(probe, letter) if probe is not None else [None]
        targeted = letter in targeted_missions or letter == "J"
        box.target.setVisible(targeted)
        box.target_label.setVisible(targeted)
        current = box.target.currentData()
        real = [t for t in options if t is not None]
        blank = "(none)" if letter not in targeted_missions else "(choose a target)"
        fill_combo(box.target, [("", blank)] + [(t, self._target_label(t)) for t in real])
        if current:
            set_combo_value(box.target, current)
        elif letter in targeted_missions and len(real) == 1:
            box.target.setCurrentIndex(1)       # the only possible target
        ships = self.game.ship_options(probe) if probe is not None else []
        current = box.ship.currentData()
        fill_combo(box.ship, [("", "(none)")] + [(s, self.data.display_name(s)) for s in ships])
        if current:
            set_combo_value(box.ship, current)
        elif letter == "J" and len(ships) == 1:
            box.ship.setCurrentIndex(1)         # the only spaceship of the side

    def _target_label(self, target: str) -> str:
        if target == "pdb":
            return "The PDB"
        unit = next((u for u in self.units.records() if u.get("id") == target), None)
        if unit is not None:
            return f"{target}: {label(unit.get('kind', ''))}, AF {unit.get('af')}"
        return self.data.display_name(target)

    def accept(self) -> None:
        if self.check() is None:
            super().accept()
