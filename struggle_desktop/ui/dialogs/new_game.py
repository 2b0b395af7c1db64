"""The new-game dialog: game, scenario, optional rules, seed — or a recent file to open.

Everything shown comes from the game object (``scenarios()``, ``options()``,
``normalize_options``); the choice is checked by ``normalize_options`` before the dialog
closes, so a bad seed or a bad option combination is explained in the dialog itself.

    choice = choose_new_game(window, recent=[Path("game.sgsave")])
    # {"kind": "new", "game": "struggle", "scenario": "3", "seed": 12345, "options": {...}}
    # {"kind": "open", "path": Path(...)}  or None when cancelled
"""

from __future__ import annotations

import datetime
import html
import secrets
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QListWidget, QListWidgetItem, QPushButton,
                               QScrollArea, QSpinBox, QSplitter, QVBoxLayout, QWidget)

from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.games import ALL_GAME_IDS, REGISTRY, get_game
from struggle_desktop.ui.screens import form_scenario, has_screen, no_screen_message
from struggle_desktop.ui.dialogs import BAD, GOOD, error_label, heading, muted, show_error
from struggle_desktop.ui.docks.style import nobreak
from struggle_desktop.ui.fit import resize_to_fit

DEFAULT_GAME = "struggle"
#: The short scenario: the one a newcomer should start with.
DEFAULT_SCENARIO = "3"
#: Titles of the games this build cannot play yet (there is no game object to ask).
GAME_TITLES = {
    "struggle": "Struggle for the Galactic Empire",
    "battles": "Battles for the Galactic Empire",
    "nobles": "Noble Houses",
    "freedom": "Freedom in the Galaxy missions",
}
#: Seeds are stored in saves as JSON integers and used modulo 2**64 by the dice.
SEED_MAX = 2**63 - 1
#: Victory levels in order; VP above the last band is the best level.
LEVELS = ("collapse", "decline", "survival", "expanding")
BEST_LEVEL = "galactic"
SAVE_FILTER = "Saved games (*.sgsave);;All files (*)"
#: The highest value of a whole-number option that names no maximum.
INT_OPTION_MAX = 9999


def random_seed() -> int:
    """A fresh seed short enough to read out and type back (nine digits at most)."""
    return secrets.randbelow(10**9)


def parse_seed(text: str) -> int:
    """The seed in ``text``; ValueError with a sentence for the player otherwise."""
    cleaned = text.strip().replace(" ", "").replace("_", "")
    if not cleaned:
        raise ValueError("Type a seed (a whole number) or press “New seed”.")
    try:
        seed = int(cleaned)
    except ValueError:
        raise ValueError(f"The seed must be a whole number, not “{text.strip()}”.") from None
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"The seed must be between 0 and {SEED_MAX}.")
    return seed


def option_title(help_text: str) -> tuple[str, str]:
    """Split an option's help ('Stargates (SGE-STG)') into its name and its rule IDs."""
    if help_text.endswith(")") and " (SGE" in help_text:
        name, _, rules = help_text.rpartition(" (")
        return name, rules[:-1]
    return help_text[:1].upper() + help_text[1:], ""


def option_words(help_text: str, rule: str = "") -> tuple[str, str]:
    """An optional rule's short name for its box and the rest (an explanation in brackets,
    the rule IDs) for the note beside it, which wraps: a long help text as a box's own text
    would widen the dialog past a laptop screen.

    >>> option_words("Stargates (SGE-STG)")
    ('Stargates', 'SGE-STG')
    >>> option_words("Things Get Better (one chit more each turn)", "BFG-OPT-5")
    ('Things Get Better', 'one chit more each turn · BFG-OPT-5')
    """
    name, rules = option_title(help_text)
    detail = ""
    if not rules and name.endswith(")") and " (" in name:
        name, _, detail = name.partition(" (")
        detail = detail[:-1]
    rules = rules or rule
    return name, " · ".join(part for part in (detail, rules) if part)


class DetailsScroll(QScrollArea):
    """The scenario's details, scrolling down only: never narrower than the widest row of
    its contents (the option rows of the game chosen), so that neither the splitter nor a
    small screen cuts a row off."""

    def minimumSizeHint(self):   # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        inner = self.widget()
        if inner is not None:
            hint.setWidth(max(hint.width(), inner.minimumSizeHint().width()
                              + self.verticalScrollBar().sizeHint().width()
                              + 2 * self.frameWidth()))
        return hint


class ToggleLabel(QLabel):
    """An option's note, which wraps; a click on it toggles its box, as a click on the box's
    own text would."""

    def __init__(self, text: str, box: QCheckBox):
        super().__init__(text)
        self.box = box
        self.setWordWrap(True)

    def mouseReleaseEvent(self, event) -> None:   # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton and self.box.isEnabled():
            self.box.toggle()
        super().mouseReleaseEvent(event)


#: Longer names than this go into the wrapping note beside an empty box.
BOX_NAME_LIMIT = 40


def band_ranges(bands: dict) -> list[tuple[str, str]]:
    """[(level, 'VP range')] from a scenario's upper limits: VP at or below a band's number
    is that level, above the last one the best level."""
    out, low = [], 0
    for level in LEVELS:
        if level not in bands:
            continue
        high = int(bands[level])
        out.append((level, f"{high} or less" if low == 0 else
                    (f"{low}" if low == high else f"{low}–{high}")))
        low = high + 1
    if out:
        out.append((BEST_LEVEL, f"{low} or more"))
    return out


def bands_html(bands: dict) -> str:
    """The victory bands as a small two-row table (level over VP range)."""
    ranges = band_ranges(bands)
    if not ranges:
        return ""
    colours = [BAD, BAD, "#8a8f98", GOOD, GOOD]
    head = "".join(f"<th style='padding:2px 10px; color:{colours[k % len(colours)]}'>"
                   f"{html.escape(level.capitalize())}</th>"
                   for k, (level, _) in enumerate(ranges))
    row = "".join(f"<td align='center' style='padding:2px 10px'>{html.escape(vp)}</td>"
                  for _, vp in ranges)
    return f"<table cellspacing='0'><tr>{head}</tr><tr>{row}</tr></table>"


class NewGameDialog(QDialog):
    """Choose a new game (or a recent file). After ``exec()`` accepted, ``choice()`` says what."""

    def __init__(self, parent: QWidget | None = None, recent: Iterable[Path | str] = (),
                 game_ids: Iterable[str] | None = None, current: str | None = None):
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setObjectName("new-game-dialog")
        self._choice: dict | None = None
        self._game: Any = None
        self._scenarios: dict[str, dict] = {}
        self._option_boxes: dict[str, QCheckBox] = {}
        self._option_combos: dict[str, tuple[QComboBox, dict]] = {}   # choice options
        self._option_spins: dict[str, tuple[QSpinBox, dict]] = {}     # whole-number options
        self._option_notes: dict[str, tuple[QLabel, str]] = {}
        #: The widgets of each option's row, hidden for scenarios of another kind.
        self._option_rows: dict[str, list[QWidget]] = {}
        self._option_specs: dict[str, dict] = {}
        self._bands_cache: dict[tuple[str, str], dict] = {}
        self._recent = [Path(p) for p in recent]
        self._game_ids = list(game_ids) if game_ids is not None else list(ALL_GAME_IDS)
        #: The game on screen: the dialog opens on it (another game is one choice away).
        self._current = current

        self.error = error_label()
        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addLayout(self._build_game_row())
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self._build_scenario_list())
        splitter.addWidget(self._build_details())
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([270, 560])
        layout.addWidget(splitter, 1)
        layout.addWidget(self._build_recent())
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox()
        self.start_button = self.buttons.addButton("&Start game",
                                                   QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setDefault(True)
        self.start_button.setAutoDefault(True)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.start_button.clicked.connect(self._start)
        self.cancel_button.clicked.connect(self.reject)
        # A guided first game (Help > Learn to Play) is offered here too.
        self.learn_button = self.buttons.addButton("Learn to Play…",
                                                   QDialogButtonBox.ButtonRole.ActionRole)
        self.learn_button.setToolTip("A guided first game: each step shows what to do")
        self.learn_button.clicked.connect(self._learn)
        layout.addWidget(self.buttons)

        self._load_game(self._first_playable())
        resize_to_fit(self, 940, 740)
        self.scenario_list.setFocus()

    # ------------------------------------------------------------------ building
    def _build_game_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.game_combo = QComboBox()
        model = QStandardItemModel(self.game_combo)
        self.game_combo.setModel(model)
        for game_id in self._game_ids:
            playable = has_screen(game_id)
            title = GAME_TITLES.get(game_id, game_id)
            # A game this build plays headless but cannot show (Freedom) may be chosen: the
            # dialog then says where to play it. A game not in this build is greyed out.
            headless = not playable and game_id in REGISTRY
            label = (title if playable else
                     f"{title} — command line only" if headless else f"{title} — coming later")
            self.game_combo.addItem(label, game_id)
            item = model.item(self.game_combo.count() - 1)
            item.setEnabled(playable or headless)
            if headless:
                item.setToolTip(no_screen_message(game_id, title))
            elif not playable:
                item.setToolTip("This game is planned but cannot be played in this version yet")
        self.game_combo.currentIndexChanged.connect(
            lambda _i: self._load_game(self.game_combo.currentData()))
        label = QLabel("&Game:")
        label.setBuddy(self.game_combo)
        row.addWidget(label)
        row.addWidget(self.game_combo, 1)
        return row

    def _build_scenario_list(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        label = QLabel("S&cenario:")
        self.scenario_list = QListWidget()
        self.scenario_list.setObjectName("scenario-list")
        self.scenario_list.setAlternatingRowColors(True)
        self.scenario_list.setSpacing(2)
        # A long title wraps in the list instead of running under a horizontal scroll bar.
        self.scenario_list.setWordWrap(True)
        self.scenario_list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.scenario_list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.scenario_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scenario_list.currentItemChanged.connect(lambda *_: self._show_scenario())
        label.setBuddy(self.scenario_list)
        column.addWidget(label)
        column.addWidget(self.scenario_list, 1)
        return box

    def _build_details(self) -> QWidget:
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(8, 0, 8, 0)
        self.title_label = heading()
        self.description_label = QLabel()
        self.description_label.setWordWrap(True)
        self.description_label.setTextFormat(Qt.TextFormat.PlainText)
        self.length_label = QLabel()
        self.length_label.setWordWrap(True)
        self.victory_label = QLabel()
        self.victory_label.setTextFormat(Qt.TextFormat.RichText)
        self.victory_label.setWordWrap(True)
        column.addWidget(self.title_label)
        column.addWidget(self.description_label)
        column.addWidget(self.length_label)
        column.addWidget(self.victory_label)

        # Scenario 7 is played on one of the others, with a turn limit of the player's choice.
        self.sweep_box = QGroupBox("Played on")
        sweep_form = QFormLayout(self.sweep_box)
        self.base_combo = QComboBox()
        self.base_combo.currentIndexChanged.connect(lambda _i: self._on_base_changed())
        self.max_turns_spin = QSpinBox()
        self.max_turns_spin.setRange(1, 999)
        self.max_turns_spin.setSuffix(" turns")
        sweep_form.addRow("&Base scenario:", self.base_combo)
        sweep_form.addRow("Stop after at &most:", self.max_turns_spin)
        column.addWidget(self.sweep_box)

        self.options_box = QGroupBox("Optional rules")
        self.options_grid = QGridLayout(self.options_box)
        self.options_grid.setColumnStretch(2, 1)
        self.options_grid.setHorizontalSpacing(14)
        column.addWidget(self.options_box)

        seed_row = QHBoxLayout()
        self.seed_edit = QLineEdit()
        self.seed_edit.setObjectName("seed")
        self.seed_edit.setMaximumWidth(220)
        self.seed_edit.setToolTip("The same seed, scenario and choices give the same dice: "
                                  "share it to replay a game")
        self.seed_edit.setText(str(random_seed()))
        self.seed_edit.textEdited.connect(lambda _t: show_error(self.error, ""))
        self.new_seed_button = QPushButton("&New seed")
        self.new_seed_button.setAutoDefault(False)
        self.new_seed_button.clicked.connect(self.new_seed)
        seed_label = QLabel("S&eed:")
        seed_label.setBuddy(self.seed_edit)
        seed_row.addWidget(seed_label)
        seed_row.addWidget(self.seed_edit)
        seed_row.addWidget(self.new_seed_button)
        seed_row.addStretch(1)
        column.addLayout(seed_row)
        column.addStretch(1)

        scroll = DetailsScroll()
        scroll.setObjectName("scenario-details")
        scroll.setWidget(inner)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # The details scroll down only: their texts wrap to the width, and the pane is kept at
        # least as wide as its widest row (``DetailsScroll``), so nothing is cut off.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details_scroll = scroll
        self.details_inner = inner
        return scroll

    def _build_recent(self) -> QGroupBox:
        box = QGroupBox("Continue a saved game")
        row = QHBoxLayout(box)
        self.recent_list = QListWidget()
        self.recent_list.setObjectName("recent-list")
        self.recent_list.setMaximumHeight(86)
        for path in self._recent:
            item = QListWidgetItem(self._recent_text(path))
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            item.setToolTip(str(path))
            if not path.exists():
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(f"{path}\nThis file no longer exists")
            self.recent_list.addItem(item)
        if not self._recent:
            placeholder = QListWidgetItem("No recent games yet")
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent_list.addItem(placeholder)
        self.recent_list.itemActivated.connect(lambda _item: self._open_selected())
        self.recent_list.currentItemChanged.connect(lambda *_: self._update_open_button())
        label = QLabel("&Recent:")
        label.setBuddy(self.recent_list)
        label.setAlignment(Qt.AlignmentFlag.AlignTop)
        buttons = QVBoxLayout()
        self.open_button = QPushButton("&Open")
        self.open_button.setAutoDefault(False)
        self.open_button.clicked.connect(self._open_selected)
        self.browse_button = QPushButton("Open &file…")
        self.browse_button.setAutoDefault(False)
        self.browse_button.clicked.connect(self._browse)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.browse_button)
        buttons.addStretch(1)
        row.addWidget(label)
        row.addWidget(self.recent_list, 1)
        row.addLayout(buttons)
        self._update_open_button()
        return box

    @staticmethod
    def _recent_text(path: Path) -> str:
        try:
            when = datetime.datetime.fromtimestamp(path.stat().st_mtime)
            stamp = when.strftime("saved %Y-%m-%d %H:%M")
        except OSError:
            stamp = "missing"
        return f"{path.name}    ({stamp}, in {path.parent})"

    # ------------------------------------------------------------------ game and scenario
    def _first_playable(self) -> str | None:
        """The game the dialog opens on: the one on screen, else Struggle, else the first
        this build can show."""
        ids = [g for g in self._game_ids if has_screen(g)]
        if self._current in ids:
            return self._current
        return DEFAULT_GAME if DEFAULT_GAME in ids else (ids[0] if ids else None)

    def _load_game(self, game_id: str | None) -> None:
        self.scenario_list.clear()
        self._scenarios.clear()
        show_error(self.error, "")
        if game_id is None or not has_screen(game_id):
            self._game = None
            self.start_button.setEnabled(False)
            if game_id is not None and game_id in REGISTRY:
                message = no_screen_message(game_id, GAME_TITLES.get(game_id))
                self._build_option_boxes({})
                self.title_label.setText(GAME_TITLES.get(game_id, game_id))
                self.description_label.setText(message)
                show_error(self.error, message)
            return
        index = self.game_combo.findData(game_id)
        if index >= 0 and index != self.game_combo.currentIndex():
            self.game_combo.blockSignals(True)
            self.game_combo.setCurrentIndex(index)
            self.game_combo.blockSignals(False)
        self._game = get_game(game_id)
        self.start_button.setEnabled(True)
        options = self._game.options()
        self._build_option_boxes(options)
        self.base_combo.blockSignals(True)
        self.base_combo.clear()
        for scenario in self._game.scenarios():
            self._scenarios[scenario["id"]] = scenario
            item = QListWidgetItem(self._scenario_line(scenario))
            item.setData(Qt.ItemDataRole.UserRole, scenario["id"])
            item.setToolTip(scenario.get("description", ""))
            self.scenario_list.addItem(item)
            if scenario.get("mode") != "sweep":
                self.base_combo.addItem(f"{scenario['id']}. {scenario['title']}", scenario["id"])
        self.base_combo.blockSignals(False)
        base_default = str(options.get("base", {}).get("default", "1"))
        self.base_combo.setCurrentIndex(max(0, self.base_combo.findData(base_default)))
        max_turns = options.get("max_turns", {})
        self.max_turns_spin.setRange(int(max_turns.get("min", 1)), int(max_turns.get("max", 999)))
        self.max_turns_spin.setValue(int(max_turns.get("default", 40)))
        self.select_scenario(DEFAULT_SCENARIO if DEFAULT_SCENARIO in self._scenarios
                             else next(iter(self._scenarios), ""))
        self._set_tab_order()
        self.details_scroll.updateGeometry()     # the option rows of this game set its width

    def _set_tab_order(self) -> None:
        """Top to bottom as the eye reads; the option boxes are rebuilt per game, after the
        buttons, so creation order alone would put them last."""
        chain = [self.game_combo, self.scenario_list, self.base_combo, self.max_turns_spin,
                 *(combo for combo, _ in self._option_combos.values()),
                 *(spin for spin, _ in self._option_spins.values()),
                 *self._option_boxes.values(), self.seed_edit, self.new_seed_button,
                 self.recent_list, self.open_button, self.browse_button, self.start_button,
                 self.cancel_button]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    def _scenario_line(self, scenario: dict) -> str:
        turns = scenario.get("turns")
        if not turns and not self._counts_turns():
            # A game without turns to count (Freedom's single Mission phase): the title only.
            return f"{scenario['id']}. {scenario['title']}"
        length = f"{turns} turns" if turns else "no limit"
        return f"{scenario['id']}. {scenario['title']}\n     {length}"

    def _build_option_boxes(self, options: dict) -> None:
        self._option_boxes.clear()
        self._option_combos.clear()
        self._option_spins.clear()
        self._option_notes.clear()
        self._option_rows.clear()
        self._option_specs = dict(options)
        while self.options_grid.count():
            widget = self.options_grid.takeAt(0).widget()
            if widget is not None:
                # Hidden at once: deleteLater waits for the event loop, and until then the
                # old game's rows would still be drawn under the new ones.
                widget.hide()
                widget.deleteLater()
        row = 0
        for key, spec in options.items():
            if spec.get("type") == "choice":
                combo = QComboBox()
                combo.setObjectName(f"option-{key}")
                for value in spec["choices"]:
                    combo.addItem(str(value), value)
                combo.setCurrentIndex(max(0, combo.findData(spec.get("default"))))
                combo.setToolTip(spec.get("help", key))
                label = QLabel(key.replace("_", " ").capitalize() + ":")
                label.setBuddy(combo)
                self._option_combos[key] = (combo, spec)
                self.options_grid.addWidget(label, row, 0)
                self.options_grid.addWidget(combo, row, 1)
                self._option_rows[key] = [label, combo]
                row += 1
                continue
            # Struggle's max_turns belongs to scenario 7 and has its own row ("Played on").
            if spec.get("type") == "int" and key != "max_turns":
                spin = QSpinBox()
                spin.setObjectName(f"option-{key}")
                spin.setRange(int(spec.get("min", 0)), int(spec.get("max", INT_OPTION_MAX)))
                spin.setValue(int(spec.get("default", spin.minimum())))
                spin.setToolTip(spec.get("help", key))
                spin.valueChanged.connect(lambda _v: show_error(self.error, ""))
                label = QLabel(key.replace("_", " ").capitalize() + ":")
                label.setBuddy(spin)
                self._option_spins[key] = (spin, spec)
                self.options_grid.addWidget(label, row, 0)
                self.options_grid.addWidget(spin, row, 1)
                note = muted(spec.get("help", ""))
                self.options_grid.addWidget(note, row, 2)
                self._option_rows[key] = [label, spin, note]
                row += 1
                continue
            # "all" is a command-line shortcut; the boxes themselves say the same here.
            if spec.get("type") != "bool" or key == "all":
                continue
            name, rules = option_words(spec.get("help", key), spec.get("rule", ""))
            box = QCheckBox(name if len(name) <= BOX_NAME_LIMIT else "")
            box.setAccessibleName(name)
            if not box.text():
                rules = f"{name}" + (f" · {rules}" if rules else "")
            box.setObjectName(f"option-{key}")
            box.setChecked(bool(spec.get("default", False)))
            box.toggled.connect(lambda _on: show_error(self.error, ""))
            lock = QLabel()
            lock.setTextFormat(Qt.TextFormat.RichText)
            lock.setWordWrap(True)
            self._option_boxes[key] = box
            self._option_notes[key] = (lock, rules)
            self.options_grid.addWidget(box, row, 0)
            self.options_grid.addWidget(lock, row, 1)
            # Several rule IDs (and an explanation) wrap rather than widen the pane, each
            # rule ID whole.
            rules_label = ToggleLabel(nobreak(rules), box)
            rules_label.setPalette(muted().palette())
            self.options_grid.addWidget(rules_label, row, 2)
            self._option_rows[key] = [box, lock, rules_label]
            row += 1

    def select_scenario(self, scenario_id: str) -> None:
        for row in range(self.scenario_list.count()):
            item = self.scenario_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == scenario_id:
                self.scenario_list.setCurrentRow(row)
                return

    def scenario_id(self) -> str | None:
        item = self.scenario_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def _counts_turns(self) -> bool:
        """Whether the game plays in turns with a limit to set (Struggle's max_turns, Noble
        Houses' turn_limit); Freedom's scenarios are one phase and say nothing of length."""
        return any("turn" in key for key in self._option_specs)

    def _applies(self, key: str, scenario_id: str | None) -> bool:
        """Whether option ``key`` belongs to ``scenario_id``'s kind of scenario: an option
        with a ``kind`` (Freedom's modes) applies only to scenarios of that kind."""
        kind = self._option_specs.get(key, {}).get("kind")
        scenario = self._scenarios.get(scenario_id or "")
        return kind is None or scenario is None or scenario.get("kind") in (None, kind)

    def _form_scenario(self, scenario_id: str | None) -> str | None:
        """Where the game's window asks for this scenario's set-up, if it does (Freedom's
        own environs: Game → New Environs…)."""
        return form_scenario(self._game.id, scenario_id) if self._game and scenario_id else None

    def _is_sweep(self, scenario_id: str | None) -> bool:
        return bool(scenario_id) and self._scenarios[scenario_id].get("mode") == "sweep"

    def _rules_scenario(self) -> dict | None:
        """The scenario whose set-up (and so whose required rules) is played: the base for 7."""
        sid = self.scenario_id()
        if sid is None:
            return None
        if self._is_sweep(sid):
            return self._scenarios.get(self.base_combo.currentData())
        return self._scenarios[sid]

    def _show_scenario(self) -> None:
        sid = self.scenario_id()
        if sid is None:
            return
        scenario = self._scenarios[sid]
        sweep = self._is_sweep(sid)
        self.title_label.setText(f"{scenario['id']}. {scenario['title']}")
        description = scenario.get("description", "")
        form = self._form_scenario(sid)
        if form:
            description += (f"\n\nStart game opens the form where you enter it ({form} in "
                            "the game's window).")
        self.description_label.setText(description)
        turns = scenario.get("turns")
        self.length_label.setText(f"<b>Length:</b> {turns} turns" if turns else
                                  "<b>Length:</b> no limit — play until you win, or stop at "
                                  "the turn limit set below")
        # A game without turns to count (Freedom's single Mission phase) says nothing here.
        self.length_label.setVisible(bool(turns) or self._counts_turns())
        self.sweep_box.setVisible(sweep)
        self._on_base_changed()
        show_error(self.error, "")

    def _on_base_changed(self) -> None:
        self._update_required()
        self._update_victory()

    def _update_required(self) -> None:
        sid = self.scenario_id()
        for key, widgets in self._option_rows.items():
            for widget in widgets:
                widget.setVisible(self._applies(key, sid))
        for combo, spec in self._option_combos.values():
            combo.setEnabled(not spec.get("scenarios") or sid in spec["scenarios"])
        played = self._rules_scenario()
        required = set(played.get("required_options") or []) if played else set()
        for key, box in self._option_boxes.items():
            name = box.accessibleName()
            lock, _rules = self._option_notes[key]
            if key in required:
                box.setChecked(True)
                box.setEnabled(False)
                why = (f"Always on in scenario {played['id']} ({played['title']}): "
                       f"its set-up uses {name}.")
                box.setToolTip(why)
                lock.setToolTip(why)
                lock.setText(f"<b>required by scenario {played['id']}</b>")
            else:
                lock.setText("")
                lock.setToolTip("")
                if not box.isEnabled():
                    box.setChecked(False)   # it was only on because the last scenario needed it
                box.setEnabled(True)
                box.setToolTip(f"{name}: optional in this scenario")

    def _update_victory(self) -> None:
        sid = self.scenario_id()
        if sid is None:
            return
        if self._is_sweep(sid):
            self.victory_label.setText(
                "<b>Victory:</b> only by the sweep described above; the victory levels of "
                "the base scenario do not apply. A game still unfinished at the turn limit "
                "ends without a winner.")
            return
        bands = self.victory_bands(sid)
        if not bands:
            self.victory_label.setText("")
            return
        self.victory_label.setText(
            "<b>Victory</b> at the end of the last turn, by victory points (VP: one for each "
            "system sector the Empire holds):" + bands_html(bands))

    def victory_bands(self, scenario_id: str) -> dict:
        """The scenario's VP limits {level: highest VP of that level}."""
        scenario = self._scenarios[scenario_id]
        if scenario.get("victory"):
            return dict(scenario["victory"])
        # The catalogue does not list the bands; the opening position carries them.
        key = (self._game.id, scenario_id)
        if key not in self._bands_cache:
            try:
                state = self._game.setup(scenario_id, 1, {})
                self._bands_cache[key] = dict(state.get("victory") or {})
            except (StruggleError, KeyError, TypeError, ValueError):
                self._bands_cache[key] = {}
        return self._bands_cache[key]

    # ------------------------------------------------------------------ seed and options
    def new_seed(self) -> None:
        self.seed_edit.setText(str(random_seed()))
        show_error(self.error, "")

    def seed(self) -> int:
        """The seed typed in the dialog (ValueError with a message if it is not one)."""
        return parse_seed(self.seed_edit.text())

    def set_seed(self, seed: int | str) -> None:
        self.seed_edit.setText(str(seed))

    def option_box(self, key: str) -> QCheckBox:
        return self._option_boxes[key]

    def option_spin(self, key: str) -> QSpinBox:
        return self._option_spins[key][0]

    def options(self) -> dict:
        """The options as the game takes them: every optional rule on or off (scenario 7 also
        its base scenario and turn limit)."""
        sid = self.scenario_id()
        out: dict[str, Any] = {key: box.isChecked() for key, box in self._option_boxes.items()
                               if self._applies(key, sid)}
        for key, (combo, spec) in self._option_combos.items():
            # An option meant for some scenarios only (who invades) is left out elsewhere.
            if ((not spec.get("scenarios") or sid in spec["scenarios"])
                    and self._applies(key, sid)):
                out[key] = combo.currentData()
        for key, (spin, _spec) in self._option_spins.items():
            if self._applies(key, sid):
                out[key] = spin.value()
        if self._is_sweep(self.scenario_id()):
            out["base"] = self.base_combo.currentData()
            out["max_turns"] = self.max_turns_spin.value()
        return out

    # ------------------------------------------------------------------ closing
    def validate(self) -> dict | None:
        """The new-game choice, or None after showing what is wrong."""
        sid = self.scenario_id()
        if self._game is None or sid is None:
            show_error(self.error, "Choose a game and a scenario first.")
            return None
        try:
            seed = self.seed()
            options = self.options()
            # A scenario set up in the window's own form is checked there, once filled in.
            if not self._form_scenario(sid):
                self._game.normalize_options(sid, options)
        except (StruggleError, ValueError, TypeError) as exc:
            show_error(self.error, str(exc))
            if "seed" in str(exc).lower():
                self.seed_edit.setFocus()
                self.seed_edit.selectAll()
            return None
        show_error(self.error, "")
        return {"kind": "new", "game": self._game.id, "scenario": sid, "seed": seed,
                "options": options}

    def _start(self) -> None:
        choice = self.validate()
        if choice is not None:
            self._choice = choice
            self.accept()

    def _update_open_button(self) -> None:
        item = self.recent_list.currentItem()
        usable = bool(item and item.data(Qt.ItemDataRole.UserRole)
                      and item.flags() & Qt.ItemFlag.ItemIsEnabled)
        self.open_button.setEnabled(usable)

    def select_recent(self, path: Path | str) -> None:
        for row in range(self.recent_list.count()):
            item = self.recent_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == str(path):
                self.recent_list.setCurrentRow(row)
                return

    def _open_selected(self) -> None:
        item = self.recent_list.currentItem()
        value = item.data(Qt.ItemDataRole.UserRole) if item else None
        if not value:
            show_error(self.error, "Select a recent game to open.")
            return
        path = Path(value)
        if not path.exists():
            show_error(self.error, f"{path} no longer exists.")
            return
        self._choice = {"kind": "open", "path": path}
        self.accept()

    def _browse(self) -> None:
        start = str(self._recent[0].parent) if self._recent else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open a saved game", start, SAVE_FILTER)
        if name:
            self._choice = {"kind": "open", "path": Path(name)}
            self.accept()

    def _learn(self) -> None:
        # The guide of the game selected here (the program offers the guides if it has none).
        self._choice = {"kind": "learn", "game": self._game.id if self._game else None}
        self.accept()

    def choice(self) -> dict | None:
        """What the player chose (None while the dialog is open or after Cancel)."""
        return self._choice if self.result() == QDialog.DialogCode.Accepted else None


def choose_new_game(parent: QWidget | None = None, recent: Iterable[Path | str] = (),
                    game_ids: Iterable[str] | None = None,
                    current: str | None = None) -> dict | None:
    """Show the dialog modally, open on the game ``current`` (the one on screen); the
    choice, or None if the player cancelled."""
    dialog = NewGameDialog(parent, recent, game_ids, current)
    try:
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()
