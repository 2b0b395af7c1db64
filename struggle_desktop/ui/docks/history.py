"""The History panel: the game so far as a chart.

The game's charted tracks (``chart_tracks``: the Chaos Index, Victory and Resource Points in
Struggle; the Chaos Index and each side's regions in Battles; each house's income in Noble
Houses) at the start of every turn played, read from the log's turn entries, and where they
stand now. Turns in which something worth a mark happened (the game's ``chart_marks``: a
leader or aliens appearing, a usurpation...) get a dashed line whose tooltip says what. The
chart can be saved as a PNG.

It shows the log the seat may read, of the moment on show: looking back, the chart ends there.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from struggle_desktop.forecast import flat_tracks
from struggle_desktop.ui.charts import PALETTE, matching_tracks, plot_widget, track_words
from struggle_desktop.ui.docks.base import DockPanel


def history_points(entries: list[dict], now: dict | None, now_turn) -> list[tuple]:
    """(turn, flat tracks) at each turn start the log records, then (turn, ``now``) for the
    position on show, if the game keeps tracks.

    >>> log = [{"kind": "turn", "turn": 1, "tracks": {"ci": 50}}, {"kind": "move"},
    ...        {"kind": "turn", "turn": 2, "tracks": {"ci": 44}}]
    >>> history_points(log, {"ci": 40}, 2)
    [(1, {'ci': 50}), (2, {'ci': 44}), (2.5, {'ci': 40})]
    """
    points = [(entry.get("turn"), flat_tracks(entry["tracks"])) for entry in entries
              if entry.get("kind") == "turn" and isinstance(entry.get("tracks"), dict)
              and isinstance(entry.get("turn"), int)]
    if now and isinstance(now_turn, int) and points:
        # The position on show lies within its turn: half way, after the turn's start.
        points.append((now_turn + 0.5, flat_tracks(now)))
    return points


def marks(entries: list[dict], kinds: tuple[str, ...]) -> dict[int, list[str]]:
    """Turn -> the texts of the entries of ``kinds`` written in it."""
    found: dict[int, list[str]] = {}
    for entry in entries:
        if entry.get("kind") in kinds and isinstance(entry.get("turn"), int):
            found.setdefault(entry["turn"], []).append(str(entry.get("text", "")))
    return found


#: A mark's label is cut to this many characters (its tooltip has the whole text).
MARK_LABEL_LENGTH = 28


def mark_label(turn: int, texts: list[str]) -> str:
    """A mark's label: its first event in short, and how many more.

    >>> mark_label(3, ["A leader appears in sector 04 Sagittarius Gate", "Aliens"])
    'T3: A leader appears in sector… +1'
    """
    first = texts[0] if texts else "event"
    if len(first) > MARK_LABEL_LENGTH:
        first = first[:MARK_LABEL_LENGTH].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
    more = f" +{len(texts) - 1}" if len(texts) > 1 else ""
    return f"T{turn}: {first}{more}"


class HistoryDock(DockPanel):
    object_name = "dock-history"
    title = "History"
    default_area = Qt.DockWidgetArea.BottomDockWidgetArea

    def create_widget(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(6, 4, 6, 4)
        row = QHBoxLayout()
        self.note = QLabel()
        self.note.setObjectName("history-note")
        self.note.setWordWrap(True)
        row.addWidget(self.note, 1)
        self.export_button = QPushButton("Save as &Picture…")
        self.export_button.setObjectName("history-export")
        self.export_button.clicked.connect(self.export_dialog)
        row.addWidget(self.export_button)
        column.addLayout(row)
        self.chart = plot_widget(bottom="turn")
        self.chart.setObjectName("history-chart")
        self.chart.addLegend(offset=(8, 8))
        column.addWidget(self.chart, 1)
        return box

    def update_widget(self) -> None:
        doc = self.document
        self.chart.clear()
        patterns = getattr(doc.game, "chart_tracks", ()) if doc.game is not None else ()
        if doc.session is None or not patterns:
            self.note.setText("No game is open." if doc.session is None else
                              "This game keeps no tracks turn by turn to chart.")
            self.export_button.setEnabled(False)
            self.lines = {}
            self.mark_lines = []
            return
        entries = doc.log_entries(0)
        now = doc.game.tracks(doc.state) if hasattr(doc.game, "tracks") else None
        points = history_points(entries, now, doc.state.get("turn"))
        names = matching_tracks(patterns, points[0][1] if points else [])
        self.lines = {}
        for k, name in enumerate(names):
            xs = [turn for turn, tracks in points if name in tracks]
            ys = [tracks[name] for turn, tracks in points if name in tracks]
            colour = PALETTE[k % len(PALETTE)]
            self.lines[name] = self.chart.plot(xs, ys, name=track_words(name),
                                               pen=_pen(colour), symbol="o", symbolSize=5,
                                               symbolBrush=colour, symbolPen=None)
        self.marked = marks(entries, getattr(doc.game, "chart_marks", ()))
        self.mark_lines = []
        turns_shown = [turn for turn, _ in points] or [0]
        middle = (min(turns_shown) + max(turns_shown)) / 2
        for turn, texts in sorted(self.marked.items()):
            self._mark(turn, texts, left=turn > middle)
        turns = {turn for turn, _ in points}
        self.note.setText(f"{len(turns)} points, turn by turn, up to the moment on show"
                          + (f"; {sum(len(t) for t in self.marked.values())} events marked"
                             if self.marked else "") if points else
                          "The chart begins when the first turn does.")
        self.export_button.setEnabled(bool(points))

    def _mark(self, turn: int, texts: list[str], left: bool = False) -> None:
        """A dashed line at ``turn`` labelled with what happened (in short: the whole text is
        its tooltip). Labels of neighbouring marks are staggered in height, below the legend;
        ``left`` puts the label on the line's left (a mark in the right half of the chart,
        whose label would run off its edge)."""
        import pyqtgraph as pg

        line = pg.InfiniteLine(
            pos=turn, angle=90, pen=pg.mkPen("#7f8c8d", width=1, style=Qt.PenStyle.DashLine),
            label=mark_label(turn, texts),
            labelOpts={"position": 0.55 - 0.13 * (len(self.mark_lines) % 3),
                       "color": "#444444", "fill": (255, 255, 255, 210),
                       "anchors": [(1, 0.5), (1, 0.5)] if left else [(0, 0.5), (0, 0.5)]})
        line.setToolTip(f"Turn {turn}:\n" + "\n".join(texts[:8])
                        + ("\n…" if len(texts) > 8 else ""))
        self.mark_lines.append(line)
        self.chart.addItem(line)

    # ------------------------------------------------------------------ export
    def export(self, path: Path | str) -> bool:
        """Save the chart as it is drawn now to ``path`` (PNG)."""
        return self.chart.grab().save(str(path), "PNG")

    def export_dialog(self) -> None:
        doc = self.document
        folder = (Path(doc.path).parent if doc.path else
                  Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
                       or Path.home()))
        name = f"{Path(doc.path).stem if doc.path else doc.game.id}-history.png"
        path, _ = QFileDialog.getSaveFileName(self, "Save the chart", str(folder / name),
                                              "PNG pictures (*.png)")
        if not path:
            return
        if not path.lower().endswith(".png"):
            path += ".png"
        if self.export(path):
            doc.message.emit(f"Chart saved as {path}")
        else:
            doc.message.emit(f"Could not write {path}")


def _pen(colour: str):
    import pyqtgraph as pg

    return pg.mkPen(colour, width=2)
