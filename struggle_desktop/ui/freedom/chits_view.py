"""The chit-mug view of the Freedom window (Part B, rules-freedom.md section 3, FIG-CHIT).

``ChitMugView(window)`` is the window's central widget while a ``chit-mug`` scenario is open.
The window calls :meth:`ChitMugView.refresh` with ``board`` (the game's ``view(state, role)``
for the role to act, or a presentation dict holding it under ``"view"``) and ``legal`` (that
role's legal actions) after every change; a button hands its action to ``window.perform``,
which returns False when the game refuses it (the window shows why).

What it shows: the environs and its mission groups (mission, members, letters so far, bonus
draws left), the mug (only how many chits are left: its order is hidden), the chits drawn in
order with their letters, headline and what became of their event, the shared bonus draws, a
button per answer the waiting ``chit_*`` prompt allows, and the report with a Copy button.

The view is a thin client: every number comes from the game's view, every answer from the
legal actions; the chit tables are read only for the letters and headline printed on a chit.
The pieces both Freedom views use (the prompt box, the report box, reading the board) live
here and are imported by ``deck_view.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QComboBox, QFrame,
                               QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QPlainTextEdit, QPushButton, QScrollArea, QSizePolicy, QSplitter,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from struggle_desktop.games import get_game
from struggle_desktop.ui.docks.style import nobreak

#: What became of a drawn chit's event (``drawn[i]["event"]``), in a few words.
EVENT_STATUS = {
    "applied": "applied",
    "same": "same event again: letters only",
    "blocked": "blocked by its contradiction",
    "void": "void (overruled)",
    "ignored": "ignored here",
    "no_mission": "no mission for it",
    "not applied": "bonus draw: not applied",
    None: "being resolved…",
}
DRAW_LABEL = {"regular": "Regular", "bonus": "Bonus", "bonus_only": "Bonus-only"}
STATUS_LABEL = {"active": "drawing", "stopped": "stopped", "aborted": "aborted"}
ROLE_LABEL = {"phasing": "phasing player", "enemy": "other player"}
#: The Decision box's title for each kind of question: a new kind brings a new title.
CHIT_TITLES = {"chit_next": "Decision: the next draw", "chit_drama": "Decision: Drama",
               "chit_drama_bid": "Decision: the Drama bid",
               "chit_immunity": "Decision: use an immunity?",
               "chit_enemy_loss": "Decision: a unit lost", "chit_medical_aid":
               "Decision: Medical Aid!", "chit_accident": "Decision: who is wounded"}


# ====================================================================== shared by both views
def view_of(board: dict | None) -> dict | None:
    """The game's view in ``board``: a presentation dict's ``view``, or the board itself when
    it is the view (it has the state's ``kind`` and no ``view`` of its own)."""
    if not board:
        return None
    inner = board.get("view")
    if isinstance(inner, dict):
        return inner
    return board if "kind" in board else None


def freedom_game(window):
    """The Freedom game object the window plays (its data has the house rules in force),
    else the registry's."""
    for holder in (getattr(window, "document", None), window):
        game = getattr(holder, "game", None)
        if getattr(game, "id", None) == "freedom":
            return game
    return get_game("freedom")


def bold(label: QLabel, size_delta: float = 0.0) -> QLabel:
    font = label.font()
    font.setBold(True)
    if size_delta:
        font.setPointSizeF(font.pointSizeF() + size_delta)
    label.setFont(font)
    return label


def wrapped(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def table(headers: list[str], object_name: str) -> QTableWidget:
    """A read-only table whose rows are picked whole; the last column takes what is left."""
    t = QTableWidget(0, len(headers))
    t.setObjectName(object_name)
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    t.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    t.setAlternatingRowColors(True)
    t.verticalHeader().setVisible(False)
    t.setWordWrap(True)
    header = t.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return t


def stretch_columns(t: QTableWidget, columns: Iterable[int]) -> None:
    """Let these columns share the width left over (their text wraps); the others fit their
    contents."""
    header = t.horizontalHeader()
    header.setStretchLastSection(False)
    for c in columns:
        header.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch)


def fill(t: QTableWidget, rows: list[list[str]]) -> None:
    t.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            t.setItem(r, c, item)
    t.resizeRowsToContents()


def fit_height(t: QTableWidget, spare_rows: int = 0) -> None:
    """Make a table as tall as its rows (a few groups need no scrolling area below them)."""
    rows = sum(t.rowHeight(r) for r in range(t.rowCount()))
    rows += spare_rows * t.verticalHeader().defaultSectionSize()
    scroll = t.horizontalScrollBar().sizeHint().height()
    t.setFixedHeight(t.horizontalHeader().height() + rows + 2 * t.frameWidth() + scroll)


def side_by_side(left: QWidget, right: QWidget) -> QSplitter:
    """A mode view's two columns: the table on the left (3 parts), decisions and report on
    the right (2 parts); neither can be collapsed away."""
    split = QSplitter(Qt.Orientation.Horizontal)
    split.addWidget(left)
    split.addWidget(right)
    split.setStretchFactor(0, 3)
    split.setStretchFactor(1, 2)
    split.setChildrenCollapsible(False)
    # The first sizes too (the stretch only shares what is beyond the columns' wishes, and
    # the right one wishes more): on a laptop the tables keep their 3 parts of the width.
    split.setSizes([3000, 2000])
    return split


#: Widest label (px) a decision's button is held to exactly (see PromptBox.button).
SHORT_LABEL = 200


class PromptBox(QGroupBox):
    """What the game waits for and one control per legal answer. Each control holds the
    action it sends; ``perform`` is the window's. The controls are rebuilt on every refresh
    (the old ones are deleted later: one of them may be the button being clicked)."""

    #: Lines of the question kept in view above the answers; a longer question scrolls in
    #: that place, so the answers never move with its length.
    TEXT_LINES = 4

    def __init__(self, perform: Callable[[dict], bool], parent: QWidget | None = None,
                 text_lines: int | None = None):
        super().__init__("Decision", parent)
        self.setObjectName("freedom-prompt")
        self._perform = perform
        layout = QVBoxLayout(self)
        self.text = bold(wrapped())
        self.text.setObjectName("freedom-prompt-text")
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.note = wrapped()
        self.note.setStyleSheet("color: gray")
        # The question and its note sit in a place of fixed height (scrolling when longer):
        # the first row of answers is always at the same height in the box, whatever the
        # question's length (a second click on "OK, noted" found another control there).
        words = QWidget()
        words_column = QVBoxLayout(words)
        words_column.setContentsMargins(0, 0, 0, 0)
        words_column.addWidget(self.text)
        words_column.addWidget(self.note)
        words_column.addStretch(1)
        self.words = QScrollArea()
        self.words.setObjectName("freedom-prompt-words")
        self.words.setWidget(words)
        self.words.setWidgetResizable(True)
        self.words.setFrameShape(QFrame.Shape.NoFrame)
        self.words.viewport().setAutoFillBackground(False)     # the box's own background
        words.setAutoFillBackground(False)
        self.words.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._text_lines = text_lines or self.TEXT_LINES
        self._set_text_lines(self._text_lines)
        layout.addWidget(self.words)
        self._area: QWidget | None = None
        self._rows: QVBoxLayout | None = None
        #: (action, button) for every button shown now: tests and hints find them here.
        self.buttons: list[tuple[dict, QPushButton]] = []
        #: (combo, button) pairs: the combo's current item's data is the action sent.
        self.choices: list[tuple[QComboBox, QPushButton]] = []
        self.clear()

    def clear(self, text: str = "", note: str = "", title: str = "Decision",
              lines: int | None = None) -> None:
        """A new question: ``title`` names its kind, so that a new set of answers in the
        same place comes with a visible change of the box's title; ``lines`` is the height
        of the question's place for this kind (a card's text needs more than a question)."""
        self._set_text_lines(lines or self._text_lines)
        if self._area is not None:
            self._area.hide()
            self._area.deleteLater()
        self._area = QWidget(self)
        self._rows = QVBoxLayout(self._area)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self.layout().addWidget(self._area)
        self._area.show()
        self.buttons = []
        self.choices = []
        self.setTitle(title)
        self.text.setText(text)
        self.text.setToolTip(text if len(text) > 200 else "")
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.words.verticalScrollBar().setValue(0)

    def _set_text_lines(self, lines: int) -> None:
        self.words.setFixedHeight(lines * self.text.fontMetrics().lineSpacing() + 6)

    def _shown(self, *widgets: QWidget) -> None:
        # Widgets put into a visible parent's layout are shown only at the next event loop
        # pass; showing them now lets a caller (a test, a hint) click them at once.
        for w in widgets:
            w.show()

    def act(self, action: dict) -> bool:
        return bool(self._perform(action))

    def button(self, label: str, action: dict | None, tip: str = "") -> QPushButton:
        """A button sending ``action``; without one, a greyed button keeping its place
        (``tip`` says why it cannot be used now)."""
        b = QPushButton(label)
        b.setToolTip(tip or label)
        # As narrow as its words allow (the style asks for 80 px at least; its margins and
        # frame take 16): a row of four steps ("−5 −1 +1 +5"), or Done beside "Finish the
        # run after this turn", then fits the column it was given instead of widening it.
        # A long label (a card's name) keeps Qt's own measure: held to its words it came out
        # wider than the column and was cut.
        words = b.fontMetrics().horizontalAdvance(label)
        if words <= SHORT_LABEL:
            b.setMinimumWidth(words + 16)
        if action is None:
            b.setEnabled(False)
            return b
        b.clicked.connect(lambda _=False, a=action: self.act(a))
        self.buttons.append((action, b))
        return b

    def add_buttons(self, items: Iterable[tuple], per_row: int = 4,
                    caption: str = "", after: str = "") -> None:
        """Buttons ``(label, action)`` or ``(label, None, why)`` (greyed, keeping its place),
        ``per_row`` to a row, after an optional caption and before optional words
        ``after`` (words that change, such as a counter's value, go after the buttons so
        that they never push them)."""
        items = list(items)
        if not items:
            return
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        col0 = 0
        made = []
        if caption:
            made.append(QLabel(caption))
            grid.addWidget(made[-1], 0, 0)
            col0 = 1
        for i, (label, action, *why) in enumerate(items):
            made.append(self.button(label, action, *why))
            grid.addWidget(made[-1], i // per_row, col0 + i % per_row)
        if after:
            made.append(QLabel(after))
            grid.addWidget(made[-1], 0, col0 + min(per_row, len(items)))
        holder = QHBoxLayout()
        holder.addLayout(grid)
        holder.addStretch(1)
        self._rows.addLayout(holder)
        self._shown(*made)

    def add_choice(self, caption: str, items: list[tuple[str, dict]], verb: str) -> None:
        """A combo of ``(label, action)`` and a button sending the one selected."""
        if not items:
            return
        row = QHBoxLayout()
        combo = QComboBox()
        for label, action in items:
            combo.addItem(label, action)
        # A long card name must not widen the column (the panels beside it then changed
        # width): the box shows what fits, its list the whole names, its tooltip the choice.
        # Its caption goes to its left in a narrow, wrapped column: a caption of its own
        # length widened the column, and a caption above let the box take the place where
        # the previous question's buttons were (a repeated click then opened the box).
        combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(8)
        combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        combo.setToolTip(combo.currentText())
        combo.currentTextChanged.connect(combo.setToolTip)
        go = QPushButton(verb)
        go.clicked.connect(lambda _=False, c=combo: self.act(c.currentData()))
        self.choices.append((combo, go))
        label = QLabel(caption)
        label.setWordWrap(True)
        label.setFixedWidth(label.fontMetrics().horizontalAdvance("Into your") + 8)
        row.addWidget(label)
        row.addWidget(combo, 1)
        row.addWidget(go)
        self._rows.addLayout(row)
        self._shown(label, combo, go)

    def add_widget(self, widget: QWidget) -> None:
        self._rows.addWidget(widget)
        self._shown(widget)

    def find(self, action: dict) -> QPushButton | None:
        """The button that sends ``action``, if one is shown."""
        return next((b for a, b in self.buttons if a == action), None)


class ReportBox(QGroupBox):
    """The report in plain text (read-only, selectable) and a Copy button that puts it on the
    clipboard for the players' notes."""

    def hasHeightForWidth(self) -> bool:   # noqa: N802 - Qt's name
        """No: the report is the part of its column that gives way. Its wrapped caption
        would make it ask for a height for its width, which a column counts as the least
        it may have; on a laptop the decision above it was then cut short (a button's
        bottom edge off screen)."""
        return False

    def __init__(self, title: str, parent: QWidget | None = None):
        super().__init__(title, parent)
        self.setObjectName("freedom-report")
        layout = QVBoxLayout(self)
        self.text = QPlainTextEdit()
        self.text.setObjectName("freedom-report-text")
        self.text.setReadOnly(True)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setObjectName("freedom-report-copy")
        self.copy_button.setToolTip("Copy the report to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        row = QHBoxLayout()
        self.caption = wrapped()       # wrapped: a long caption must not widen the column
        self.caption.setStyleSheet("color: gray")
        row.addWidget(self.caption, 1)
        row.addWidget(self.copy_button)
        layout.addWidget(self.text, 1)
        layout.addLayout(row)

    def show_report(self, title: str, caption: str, lines: list[str],
                    latest_last: bool = False) -> None:
        """Show ``lines``; ``latest_last`` scrolls to the end (changes as they come), else
        the report is read from its top."""
        self.setTitle(title)
        self.caption.setText(caption)
        text = "\n".join(lines)
        if text != self.text.toPlainText():
            self.text.setPlainText(text)
            bar = self.text.verticalScrollBar()
            bar.setValue(bar.maximum() if latest_last else 0)
        self.copy_button.setEnabled(bool(lines))

    def copy(self) -> None:
        QApplication.clipboard().setText(self.text.toPlainText())
        self.caption.setText("Copied to the clipboard.")


# ====================================================================== the chit-mug view
class ChitMugView(QWidget):
    """The chit-mug Mission phase of one environs (see the module docstring)."""

    def __init__(self, window, parent: QWidget | None = None):
        if parent is None and isinstance(window, QWidget):
            parent = window
        super().__init__(parent)
        self.setObjectName("freedom-chits-view")
        self._host = window
        game = freedom_game(window)
        self._data = game.data
        self._tables = game.chit_tables()
        self._view: dict | None = None
        self._board: dict = {}
        outer = QVBoxLayout(self)
        self.header = bold(wrapped(), 1.0)
        self.header.setObjectName("chits-header")
        self.situation = wrapped()
        self.situation.setObjectName("chits-situation")
        outer.addWidget(self.header)
        outer.addWidget(self.situation)

        # Left: what the groups have and every chit drawn; right: the decision, the mug and
        # the report, so that the buttons stay in one place whatever the tables hold.
        self.groups = table(["Group", "Mission", "Members", "Status", "Letters",
                             "Bonus draws"], "chits-groups")
        # The long words (mission, members, bonus draws) share the width and wrap; the short
        # columns fit their contents (Bonus draws fitted its own and squeezed Members and
        # Letters to "ember" and "etter").
        stretch_columns(self.groups, (1, 2, 5))
        self.cells = table(["Rebel Cell", "Mission", "Result"], "chits-cells")
        self.drawn = table(["#", "Draw", "Chit", "Letters", "Headline", "Event"], "chits-drawn")
        stretch_columns(self.drawn, (4, 5))
        self.events = wrapped()
        self.events.setObjectName("chits-events")
        left = QWidget()
        lbox = QVBoxLayout(left)
        lbox.setContentsMargins(0, 0, 0, 0)
        lbox.addWidget(bold(QLabel("Mission groups")))
        lbox.addWidget(self.groups)
        self.cells_title = bold(QLabel("Rebel Cells"))
        lbox.addWidget(self.cells_title)
        lbox.addWidget(self.cells)
        lbox.addWidget(bold(QLabel("Chits drawn, in order")))
        lbox.addWidget(self.drawn, 1)
        lbox.addWidget(self.events)

        self.mug = bold(wrapped())
        self.mug.setObjectName("chits-mug")
        self.bonus = wrapped()
        self.bonus.setObjectName("chits-bonus")
        mug_frame = QGroupBox("The mug")
        mbox = QVBoxLayout(mug_frame)
        mbox.addWidget(self.mug)
        mbox.addWidget(self.bonus)
        self.prompt = PromptBox(self._perform, self)
        self.report = ReportBox("Report", self)
        right = QWidget()
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        # The decision first: the mug's words change length from draw to draw and would
        # move the Draw button under the pointer if they came above it.
        rbox.addWidget(self.prompt)
        rbox.addWidget(mug_frame)
        rbox.addWidget(self.report, 1)

        outer.addWidget(side_by_side(left, right), 1)

    # ------------------------------------------------------------------ the window's calls
    def refresh(self, board: dict | None, legal: list[dict]) -> None:
        view = view_of(board)
        self._view = view
        self._board = board or {}
        if view is None:
            self.header.setText("No environs is open.")
            self.prompt.clear()
            return
        self._show_environs(view)
        self._show_groups(view)
        self._show_mug(view)
        self._show_events(view)
        self._show_prompt(view, legal or [])
        self._show_report(view)

    def _perform(self, action: dict) -> bool:
        return bool(self._host.perform(action))

    # ------------------------------------------------------------------ pieces
    def chit_label(self, chit_id: str) -> tuple[str, str]:
        """The letters and the headline (with its footnote) printed on a chit."""
        chit = self._tables.by_id(chit_id)
        letters = " ".join(chit.letters) or "–"
        version = f" ({chit.version})" if chit.version is not None else ""
        return letters, f"{chit.event}{version}"

    def side_name(self, view: dict, role: str | None) -> str:
        env = view["environs"]
        side = {"phasing": env["phasing_side"], "enemy": env["enemy_side"]}.get(role or "", role)
        return f"the {str(side).title()} ({ROLE_LABEL.get(role or '', role)})"

    def _show_environs(self, view: dict) -> None:
        env = view["environs"]
        where = ("orbit box" if env["type"] == "orbit"
                 else f"{env['type'].title()} environs, size {env['size']}")
        planet = f" on {env['planet']}" if env.get("planet") else ""
        self.header.setText(f"{env['phasing_side'].title()} missions in the {where}{planet} "
                            f"— game turn {view.get('turn', '?')}")
        enemy = env["enemy_side"].title()
        facts = [f"{enemy} controls the planet" if env["enemy_controls_planet"]
                 else f"{enemy} does not control the planet",
                 f"{env['enemy_units']} {enemy} unit(s) here"]
        if env["enemy_controls_planet"]:
            facts.append("PDB up" if env["pdb_up"] else "PDB down")
        if env.get("special_ops"):
            facts.append("Special Ops present")
        if env.get("enemy_leader"):
            facts.append("enemy leader present")
        facts.append(f"creature: {env['creature']}" if env.get("creature") else "no creature")
        detection = view.get("detection")
        facts.append(f"characters {detection}" if detection else "detection unchanged")
        if view.get("medical_aid") in ("offered", "pending"):
            facts.append("Medical Aid! waiting")
        flags = [k.replace("_", " ") for k, on in (view.get("flags") or {}).items() if on]
        if flags:
            facts.append("side flags: " + ", ".join(flags))
        if view.get("cards"):
            facts.append("event cards in play: " + ", ".join(view["cards"]))
        if view.get("marks"):
            facts.append("marked: " + ", ".join(m.replace("_", " ") for m in view["marks"]))
        self.situation.setText("; ".join(facts) + ".")

    def _bonus_made(self, view: dict) -> dict[str, int]:
        made = {"bonus": 0, "bonus_only": 0}
        for d in view.get("drawn", []):
            if d["draw"] in made:
                made[d["draw"]] += 1
        return made

    def _show_groups(self, view: dict) -> None:
        made = self._bonus_made(view)
        rows = []
        missions = self._data.missions
        for g in view["groups"]:
            name = getattr(missions.get(g["mission"]), "name", "")
            mission = f"{g['mission']} {name}".strip()
            if g["bonus_only"]:
                mission += " (bonus draws only)"
            letters = (f"{len(g['letters'])}: " + ", ".join(
                f"{x['letter']} {x['chit']} {x['draw']}" for x in g["letters"])
                if g["letters"] else "none")
            if g["lost"]:
                letters += f"; {len(g['lost'])} lost"
            if g["count"] is None:
                if g["status"] != "active":
                    bonus = "none"
                else:
                    # Before the counts are fixed (FIG-CHIT-8): as entered, with the changes.
                    bonus = f"{g['bonus_draws']} entered"
                    if g["adjust"]:
                        bonus += f", {g['adjust']:+d} from events"
            else:
                taken = made["bonus_only" if g["bonus_only"] else "bonus"]
                left = max(0, g["count"] - taken) if g["status"] == "active" else 0
                bonus = f"count {g['count']}, {left} left"
            # Once the environs is resolved nobody draws any more: a group still "active"
            # then has simply finished its draws.
            status = ("finished" if g["status"] == "active" and view.get("outcome") is not None
                      else STATUS_LABEL.get(g["status"], g["status"]))
            rows.append([g["id"], mission, ", ".join(g["members"]), status, letters, bonus])
        fill(self.groups, rows)
        fit_height(self.groups)
        cells = view.get("cells") or []
        self.cells.setVisible(bool(cells))
        self.cells_title.setVisible(bool(cells))
        fill(self.cells, [[c["id"], c["mission"], _cell_result(c["result"])] for c in cells])
        fit_height(self.cells)

    def _show_mug(self, view: dict) -> None:
        env = view["environs"]
        made = self._bonus_made(view)
        total = len(self._tables.mug(env["mug"]))
        if view["options"].get("chit_method") == "d66":
            used = view.get("rolled") or {}
            text = (f"{env['mug'].title()} chits are rolled on the D66 table: "
                    f"{len(used.get('shared', []))} result(s) used")
        elif view.get("outcome") is not None:
            # The engine empties its piles at the end: every chit is back in the mug.
            text = (f"{env['mug'].title()} mug: the {len(view['drawn'])} chits drawn are back "
                    f"in it ({total} chits)")
        else:
            text = (f"{env['mug'].title()} mug: {view['mug']} of {total} chits left "
                    "(their order is hidden)")
            if view.get("side_mug") or any(g["bonus_only"] for g in view["groups"]):
                text += f"; separate mug for bonus-only missions: {view.get('side_mug', 0)} left"
        self.mug.setText(text)
        counts = [g["count"] for g in view["groups"] if g["count"] is not None
                  and not g["bonus_only"]]
        regular = sum(1 for d in view["drawn"] if d["draw"] == "regular")
        parts = [f"Regular draws: {regular} of {env['size']} made"]
        if counts:
            shared = max(counts)
            parts.append(f"shared bonus draws: {made['bonus']} of {shared} made")
        elif any(not g["bonus_only"] for g in view["groups"]):
            parts.append("shared bonus draws: counted after the regular draws")
        if made["bonus_only"]:
            parts.append(f"bonus-only draws: {made['bonus_only']} made")
        self.bonus.setText("; ".join(parts) + ".")
        rows = []
        events = view.get("events") or {}
        for i, d in enumerate(view["drawn"], start=1):
            letters, headline = self.chit_label(d["chit"])
            status = EVENT_STATUS.get(d["event"], str(d["event"]))
            if d["event"] == "applied" and events.get(self._tables.by_id(d["chit"]).event) == "void":
                status = "applied, later void (overruled)"
            rows.append([str(i), f"{DRAW_LABEL.get(d['draw'], d['draw'])} {d['k']}", d["chit"],
                         letters, headline, status])
        fill(self.drawn, rows)
        if rows:
            self.drawn.scrollToBottom()

    def _show_events(self, view: dict) -> None:
        events = view.get("events") or {}
        parts = [f"{name} {status}" for name, status in events.items()]
        text = "Events: " + ("; ".join(parts) if parts else "none has acted yet.")
        if view.get("ignored"):
            off = ", ".join("sentry robots" if x == "sentry_robots" else x
                            for x in view["ignored"])
            text += f" Switched off for the phase: {off}."
        self.events.setText(text)

    def _show_prompt(self, view: dict, legal: list[dict]) -> None:
        pending = view.get("pending")
        if view.get("outcome") is not None:
            self.prompt.clear("The environs is resolved: the report lists each group's "
                              "letters.")
            return
        if pending is None:
            self.prompt.clear("Nothing is waiting.")
            return
        who = self.side_name(view, pending["role"])
        self.prompt.clear(pending["text"], f"{who} decides ({nobreak(pending.get('rule', ''))})",
                          CHIT_TITLES.get(pending["kind"], "Decision"))
        if not legal:
            return
        for caption, items in chit_choices(pending, legal, view):
            self.prompt.add_buttons(items, caption=caption)

    def _show_report(self, view: dict) -> None:
        env = view["environs"]
        outcome = view.get("outcome")
        where = env["planet"] or f"{env['type']} environs"
        if outcome is None:
            lines = [e["text"] for e in view.get("report", [])]
            self.report.show_report("Changes so far", f"{len(lines)} change(s) for the board; "
                                    "the letters come at the end.", lines, latest_last=True)
            return
        lines = [f"{env['phasing_side'].title()} missions, {where}, game turn "
                 f"{view.get('turn', '?')}:"]
        # The board's lines are the same changes in a player's words (no pointers into the
        # rules' source text); the view's own text only when the board has none.
        board_outcome = self._board.get("outcome")
        worded = [line["text"] for line in (board_outcome.get("lines") or [])
                  ] if isinstance(board_outcome, dict) else []
        if len(worded) != len(outcome):
            worded = [e["text"] for e in outcome]
        for e, text in zip(outcome, worded):
            if e.get("group") and e.get("chits") is not None and "letters" in e:
                text += f" [chits {', '.join(e['chits']) or 'none'}]"
            lines.append(f"- {text}")
        self.report.show_report("Report (FIG-CHIT-25)", "Apply these on the board.", lines)


def _cell_result(result: dict | None) -> str:
    if result is None:
        return "rolls after the regular draws"
    if not result.get("mission"):
        return "nothing"
    return f"{result['mission']}: {result['letters']} letter(s)"


def chit_choices(pending: dict, legal: list[dict], view: dict
                 ) -> list[tuple[str, list[tuple]]]:
    """The legal answers of a ``chit_*`` prompt as captioned rows of ``(label, action)``, or
    ``(label, None, why)`` for a greyed button keeping its place; an action the labels do
    not know still gets a button (its verb and values)."""
    groups = {g["id"]: g for g in view.get("groups", [])}
    kind = pending["kind"]
    rows: dict[str, list[tuple]] = {}

    def add(caption: str, label: str, action: dict) -> None:
        rows.setdefault(caption, []).append((label, action))

    # Before a draw every group that draws shared chits has its own Stop button, in the
    # groups' order; one that has stopped (or aborted) keeps its place greyed. Otherwise,
    # after "Stop G1", the next group's button came where G1's was and a second click
    # stopped another group.
    stops = {a["group"]: a for a in legal if a.get("verb") == "stop"}
    stop_row: list[tuple] = []
    for g in view.get("groups", []) if kind == "chit_next" else []:
        label = f"Stop {g['id']} ({g.get('mission', '?')})"
        if g["id"] in stops:
            stop_row.append((label, stops.pop(g["id"])))
        elif not g.get("bonus_only"):
            word = {"stopped": "has stopped drawing", "aborted": "has aborted"}.get(
                g.get("status"), "cannot stop now")
            stop_row.append((label, None, f"{g['id']} {word}"))
    for a in legal:
        verb = a.get("verb")
        if verb == "draw":
            add("", "Draw the next chit", a)
            if stop_row:
                rows["Stop drawing:"] = stop_row
        elif verb == "stop":
            if a["group"] in stops:       # a group the view does not list
                g = groups.get(a["group"], {})
                add("Stop drawing:", f"Stop {a['group']} ({g.get('mission', '?')})", a)
        elif verb == "heal":
            caption = "Medical Aid! heals:" if kind == "chit_next" else "Heal one wound of:"
            add(caption, a["character"], a)
        elif verb == "later":
            add("", "Keep Medical Aid! for a later regular draw", a)
        elif verb == "none":
            add("", "Nobody needs healing", a)
        elif verb == "keep":
            add("", f"Keep {pending.get('chit', 'the chit')}", a)
        elif verb == "drama":
            add("", "Use Drama: draw again", a)
        elif verb == "bid":
            add("", "Make their bid one turn harder" if a["choice"] == "harder_for_them"
                else "Make my own bid one turn easier", a)
        elif verb == "ignore":
            add("", f"Ignore it ({pending.get('holder', 'immunity')})", a)
        elif verb == "accept":
            add("", "Let it happen", a)
        elif verb == "lose_unit":
            add("", "Lose one unit here", a)
        elif verb == "pdb_down":
            add("", "Put the PDB down", a)
        elif verb == "wound":
            add("Takes one wound:", a["character"], a)
        else:
            extra = ", ".join(f"{k} {v}" for k, v in a.items() if k != "verb")
            add("", f"{verb} {extra}".strip(), a)
    if stop_row and "Stop drawing:" not in rows:
        rows["Stop drawing:"] = stop_row
    return list(rows.items())
