"""The house-rules page: every reconstructed table with its values, and the decided rules.

Built from ``game.catalog()`` so it works in an installed copy (the project's
``docs/house-rules.md`` is not shipped). The catalogue names the tables and says which ones are
reconstructed or overridden; the values are read from the table itself (the catalogue's
``values`` when it carries them, else the shipped YAML file or the player's override of it).
A search box narrows the page to the tables and rules that mention a word.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QLineEdit,
                               QTextBrowser, QVBoxLayout, QWidget)

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.engine.paths import assets_dir, user_config_dir
from struggle_desktop.ui.dialogs import muted
from struggle_desktop.ui.fit import resize_to_fit

#: Keys every table file has; they are shown as the section's heading, not as values.
HEADER_KEYS = {"id", "title", "reconstructed", "rules"}
HIGHLIGHT = "#ffe27a"


# ------------------------------------------------------------------------------ table data
def table_file(game_id: str, table: dict) -> Path:
    """Where a table's values live: the player's override when the catalogue says there is
    one, else the shipped file."""
    name = f"{table['id']}.yaml"
    if table.get("overridden"):
        override = user_config_dir() / "overrides" / game_id / name
        if override.is_file():
            return override
    return assets_dir() / "tables" / game_id / name


def load_table(game_id: str, table: dict) -> tuple[dict, str]:
    """(values, notes) of one catalogue table. ``notes`` are the comment lines at the top of
    the file, the project's own explanation of the columns; empty if there is no file."""
    if isinstance(table.get("values"), dict):
        return dict(table["values"]), str(table.get("notes", ""))
    path = table_file(game_id, table)
    try:
        # The comment lines are wanted too, so the file is read and parsed in two steps.
        text = untrusted.read_bytes(path, untrusted.YAML_LIMITS.max_bytes).decode("utf-8")
        document = untrusted.parse_yaml(text, str(path)) or {}
    except (StruggleError, UnicodeDecodeError) as exc:
        return {}, f"(the values could not be read: {exc})"
    if not isinstance(document, dict):
        return {}, "(the values could not be read: the file is not a table)"
    notes = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        notes.append(line.lstrip("#").strip())
    values = {k: v for k, v in document.items() if k not in HEADER_KEYS}
    return values, " ".join(notes)


def catalog_table(catalog: dict, table_id: str) -> dict | None:
    return next((t for t in catalog.get("tables", []) if t["id"] == table_id), None)


def band_text(low: int | None, high: int | None) -> str:
    """A band of a table column or row: '-4 or less', '-3 to -1', '9 or more'."""
    def signed(v: int) -> str:
        return "0" if v == 0 else f"{v:+d}".replace("-", "−")
    if low is None and high is None:
        return "any"
    if low is None:
        return f"{signed(high)} or less"
    if high is None:
        return f"{signed(low)} or more"
    return signed(low) if low == high else f"{signed(low)} to {signed(high)}"


_COLUMNS_CACHE: dict[str, list[str]] = {}


def combat_columns(game: Any) -> list[str]:
    """The Combat Results Table's column headings (differential bands), or [] if unknown.
    Kept per game and data digest: the tables do not change while the program runs."""
    key = f"{getattr(game, 'id', '')}:{game.data_digest() if hasattr(game, 'data_digest') else ''}"
    if key not in _COLUMNS_CACHE:
        _COLUMNS_CACHE[key] = _combat_columns(game)
    return _COLUMNS_CACHE[key]


def _combat_columns(game: Any) -> list[str]:
    try:
        catalog = game.catalog()
        table = catalog_table(catalog, "combat_results")
        if table is None:
            return []
        values, _ = load_table(catalog["game"], table)
        return [band_text(c.get("min"), c.get("max")) for c in values.get("columns", [])]
    except Exception:   # a missing or odd table must not stop a combat; the column number stays
        return []


# ------------------------------------------------------------------------------ rendering
#: A table's own identifiers: marker names, rule IDs, unit codes.
CODE_WORD = re.compile(r"[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)*")
#: A value written as words joined by underscores in the tables (an override's word).
SNAKE_WORDS = re.compile(r"[a-z]+(?:_[a-z0-9]+)+")


class _Page:
    """Builds the page's HTML, highlighting the search term wherever it is written."""

    def __init__(self, search: str = ""):
        self.search = search.strip()
        self.pattern = re.compile(re.escape(self.search), re.IGNORECASE) if self.search else None

    def text(self, value: Any) -> str:
        raw = self.scalar(value)
        escaped = html.escape(raw)
        if self.pattern is not None:
            escaped = self.pattern.sub(lambda m: f"<span style='background-color:{HIGHLIGHT};"
                                       f"color:black'>{m.group(0)}</span>", escaped)
        if CODE_WORD.fullmatch(raw):
            # A name such as LEVIATHAN or SGE-EV-IE is never broken across two lines.
            escaped = f"<span style='white-space:nowrap'>{escaped}</span>"
        elif SNAKE_WORDS.fullmatch(raw):
            # A value a table override writes as it is (move_toward_core): shown as such,
            # in the typewriter face, whole.
            escaped = f"<code style='white-space:nowrap'>{escaped}</code>"
        return escaped

    @staticmethod
    def scalar(value: Any) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list) and not value:
            return "none"
        return str(value)

    @staticmethod
    def key(key: Any) -> str:
        return str(key).replace("_", " ")

    def matches(self, *parts: Any) -> bool:
        if self.pattern is None:
            return True
        return any(self.pattern.search(flatten(p)) for p in parts)

    # -------------------------------------------------------------- values of any shape
    def value(self, value: Any) -> str:
        if isinstance(value, dict):
            return self.mapping(value)
        if isinstance(value, list):
            if all(not isinstance(v, (dict, list)) for v in value):
                return self.text(", ".join(self.scalar(v) for v in value) if value else [])
            if all(isinstance(v, dict) for v in value):
                return self.records(value)
            if all(isinstance(v, list) for v in value):
                return self.grid(value)
            return "<br>".join(self.value(v) for v in value)
        return self.text(value)

    def mapping(self, mapping: dict) -> str:
        if {"columns", "rows"} <= set(mapping) and self._banded(mapping):
            rest = {k: v for k, v in mapping.items() if k not in ("columns", "rows")}
            return self.banded_grid(mapping["columns"], mapping["rows"]) + (
                self.mapping(rest) if rest else "")
        rows = "".join(f"<tr><td class='key'>{self.text(self.key(k))}</td>"
                       f"<td>{self.value(v)}</td></tr>" for k, v in mapping.items())
        return f"<table class='map' cellspacing='0' cellpadding='3'>{rows}</table>"

    @staticmethod
    def _banded(mapping: dict) -> bool:
        columns, rows = mapping["columns"], mapping["rows"]
        return (isinstance(columns, list) and all(isinstance(c, dict) and "min" in c
                                                  for c in columns)
                and isinstance(rows, list)
                and all(isinstance(r, list) and len(r) == len(columns) for r in rows))

    def records(self, records: list[dict]) -> str:
        """A list of rows with named fields. While searching, long lists keep only the rows
        that mention the term (with their original numbers)."""
        keys: list[str] = []
        for record in records:
            keys.extend(k for k in record if k not in keys)
        numbered = list(enumerate(records))
        note = ""
        if self.pattern is not None and len(records) > 5:
            hits = [(n, r) for n, r in numbered
                    if self.pattern.search(" ".join(flatten(v) for v in r.values()))]
            if hits and len(hits) < len(records):
                note = (f"<p class='meta'>{len(hits)} of {len(records)} rows mention "
                        f"“{html.escape(self.search)}”.</p>")
                numbered = hits
        head = "<th>#</th>" + "".join(f"<th>{self.text(self.key(k))}</th>" for k in keys)
        body = "".join(
            f"<tr><td class='index'>{n}</td>"
            + "".join(f"<td>{self.value(r.get(k)) if k in r else ''}</td>" for k in keys)
            + "</tr>" for n, r in numbered)
        # Free text in a field (an event's effect) needs the room of the whole page.
        wide = any(isinstance(v, str) and len(v) > 40 for r in records for v in r.values())
        width = " width='100%'" if wide else ""
        return (f"{note}<table class='grid' cellspacing='0' cellpadding='3'{width}>"
                f"<tr>{head}</tr>{body}</table>")

    def grid(self, rows: list[list]) -> str:
        width = max(len(r) for r in rows)
        head = "<th>#</th>" + "".join(f"<th>{k + 1}</th>" for k in range(width))
        body = "".join(f"<tr><td class='index'>{n}</td>"
                       + "".join(f"<td>{self.value(v)}</td>" for v in r) + "</tr>"
                       for n, r in enumerate(rows))
        return f"<table class='grid' cellspacing='0' cellpadding='3'><tr>{head}</tr>{body}</table>"

    def banded_grid(self, columns: list[dict], rows: list[list]) -> str:
        """A results table: one column per band of ``columns``, one row per roll."""
        head = "<th>roll</th>" + "".join(
            f"<th>{self.text(band_text(c.get('min'), c.get('max')))}</th>" for c in columns)
        body = "".join(f"<tr><td class='index'>{n}</td>"
                       + "".join(f"<td align='center'>{self.value(v)}</td>" for v in r)
                       + "</tr>" for n, r in enumerate(rows))
        return f"<table class='grid' cellspacing='0' cellpadding='3'><tr>{head}</tr>{body}</table>"


def flatten(value: Any) -> str:
    """Every key and value of a nested structure as one string, for searching."""
    if isinstance(value, dict):
        return " ".join(f"{k} {str(k).replace('_', ' ')} {flatten(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(flatten(v) for v in value)
    return str(value)


STYLE = """
<style>
 h1 { font-size: x-large; margin-bottom: 4px; }
 h2 { font-size: large; margin-top: 18px; margin-bottom: 2px; }
 p.meta { color: #6b7078; margin-top: 0px; }
 p.note { font-style: italic; }
 table.grid { border: 1px solid #b8bcc4; margin: 4px 0px; }
 table.grid th { background-color: #e4e8ef; color: #1d2330; padding: 3px 8px; }
 table.grid td { border-top: 1px solid #d6d9df; padding: 2px 8px; }
 table.map td.key { color: #44506a; font-weight: bold; padding-right: 12px; }
 td.index { color: #6b7078; }
 table.rules td { border-top: 1px solid #d6d9df; padding: 3px 6px; vertical-align: top; }
 table.rules th { background-color: #e4e8ef; color: #1d2330; padding: 3px 6px; }
</style>
"""


def house_rules_html(catalog: dict, search: str = "", counts: dict | None = None) -> str:
    """The whole page. ``counts`` (if given) receives how many tables and rules are shown."""
    page = _Page(search)
    game_id = catalog.get("game", "")
    tables = [t for t in catalog.get("tables", []) if t.get("reconstructed")]
    printed = [t for t in catalog.get("tables", []) if not t.get("reconstructed")]
    decided = [r for r in catalog.get("rule_ids", {}).get("rules", [])
               if r.get("source") == "DECIDED"]
    out = [STYLE, f"<h1>House rules — {page.text(catalog.get('title', game_id))}</h1>",
           "<p>Where the rules leave a value or a procedure open, this program had to decide. "
           "Each decided value lives in an editable table marked <i>reconstructed</i>, listed "
           "here with every row; the decided procedures follow, each with the reason for the "
           "choice. You can replace any table with a file of the same name in your "
           f"overrides folder (<code>{html.escape(str(user_config_dir() / 'overrides' / game_id))}"
           "</code>).</p>"]

    shown_tables = []
    for table in tables:
        values, notes = load_table(game_id, table)
        if page.matches(table["id"], table["title"], table.get("rules"), notes, values):
            shown_tables.append((table, values, notes))
    shown_rules = [r for r in decided if page.matches(r.get("id"), r.get("title"), r.get("why"))]
    shown_printed = [t for t in printed if page.matches(t["id"], t["title"], t.get("rules"))]
    if counts is not None:
        counts.update(tables=len(shown_tables), rules=len(shown_rules),
                      printed=len(shown_printed))

    if shown_tables:
        links = " · ".join(f"<a href='#table-{html.escape(t['id'])}'>{page.text(t['title'])}</a>"
                           for t, _v, _n in shown_tables)
        out.append(f"<p><b>Reconstructed tables:</b> {links} · <a href='#decided'>Decided "
                   "rules</a></p>")
    for table, values, notes in shown_tables:
        flags = []
        if table.get("overridden"):
            flags.append("<b>overridden by your own file</b>")
        rules = ", ".join(table.get("rules") or [])
        out.append(f"<a name='table-{html.escape(table['id'])}'></a>"
                   f"<h2>{page.text(table['title'])}</h2>"
                   f"<p class='meta'>{page.text(table['id'] + '.yaml')} · rules "
                   f"{page.text(rules)}{' · ' + ' · '.join(flags) if flags else ''}</p>")
        if notes:
            out.append(f"<p class='note'>{page.text(notes)}</p>")
        out.append(page.value(values) if values else "<p>(no values)</p>")

    out.append("<a name='decided'></a><h2>Decided rules</h2>")
    if shown_rules:
        rows = "".join(f"<tr><td><b>{page.text(r['id'])}</b></td><td>{page.text(r['title'])}"
                       f"</td><td>{page.text(r.get('why') or '')}</td></tr>"
                       for r in shown_rules)
        out.append("<table class='rules' cellspacing='0' width='100%'><tr><th>Rule</th>"
                   f"<th>Subject</th><th>Why it was decided this way</th></tr>{rows}</table>")
    else:
        out.append("<p>No decided rule mentions this.</p>")
    if shown_printed:
        out.append("<h2>Tables used as printed</h2><p>These come straight from the rules and "
                   "are not house rules: "
                   + ", ".join(f"{page.text(t['title'])} ({page.text(', '.join(t['rules']))})"
                               for t in shown_printed) + ".</p>")
    if search.strip() and not (shown_tables or shown_rules or shown_printed):
        out.append(f"<p><b>Nothing mentions “{html.escape(search.strip())}”.</b></p>")
    return "\n".join(out)


# ------------------------------------------------------------------------------ the dialog
class HouseRulesDialog(QDialog):
    """A searchable page of the game's house rules. ``HouseRulesDialog(game, parent)``; the
    game defaults to Struggle."""

    def __init__(self, game: Any = None, parent: QWidget | None = None):
        super().__init__(parent)
        if game is None:
            from struggle_desktop.games import get_game
            game = get_game("struggle")
        self.game = game
        self.catalog = game.catalog()
        self.setWindowTitle("House rules")
        self.setObjectName("house-rules-dialog")
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("house-rules-search")
        self.search_edit.setClearButtonEnabled(True)
        decided = [r["id"] for r in self.catalog["rule_ids"]["rules"] if r["source"] == "DECIDED"]
        example = f" such as {decided[len(decided) // 2]}" if decided else ""
        self.search_edit.setPlaceholderText("Search tables and rules: a word, a value or a "
                                            f"rule ID{example}")
        label = QLabel("&Search:")
        label.setBuddy(self.search_edit)
        row.addWidget(label)
        row.addWidget(self.search_edit, 1)
        self.count_label = muted()
        self.count_label.setWordWrap(False)
        row.addWidget(self.count_label)
        layout.addLayout(row)
        self.browser = QTextBrowser()
        self.browser.setObjectName("house-rules-page")
        self.browser.setOpenExternalLinks(False)
        layout.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setAutoDefault(False)
        layout.addWidget(buttons)
        self.search_edit.textChanged.connect(self.set_search)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self._focus_search)
        self.set_search("")
        resize_to_fit(self, 960, 760)
        self.search_edit.setFocus()

    def _focus_search(self) -> None:
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    def set_search(self, text: str) -> None:
        """Show only what mentions ``text`` (everything when it is empty)."""
        if self.search_edit.text() != text:
            self.search_edit.setText(text)   # comes back here through textChanged
            return
        counts: dict = {}
        self.browser.setHtml(house_rules_html(self.catalog, text, counts))
        self.count_label.setText(f"{counts['tables']} tables, {counts['rules']} decided rules")

    def page_text(self) -> str:
        return self.browser.toPlainText()

    def keyPressEvent(self, event) -> None:   # noqa: N802 (Qt's name)
        # Enter in the search box must not close the dialog.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.search_edit.hasFocus():
            return
        super().keyPressEvent(event)
