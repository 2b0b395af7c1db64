"""Charts for the History and Forecast panels, drawn with pyqtgraph.

pyqtgraph (and numpy under it) is imported when the first chart is made, not at start-up: the
panels build their widgets the first time they are shown.

>>> matching_tracks(("ci", "*.income"), ["A.income", "B.income", "ci", "vp"])
['ci', 'A.income', 'B.income']
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any, Iterable

#: One colour per line, in order; a house or side keeps its colour across charts.
PALETTE = ["#2d6cb5", "#c0392b", "#27ae60", "#8e44ad", "#d68910", "#16a085", "#7f8c8d"]
#: The words a track's name is shown with.
TRACK_WORDS = {"ci": "Chaos Index", "vp": "Victory Points", "rp": "Resource Points",
               "regions_blue": "Blue's regions", "regions_red": "Red's regions",
               "rp_blue": "Blue's RP", "rp_red": "Red's RP"}


def matching_tracks(patterns: Iterable[str], names: Iterable[str]) -> list[str]:
    """The track names ``patterns`` (shell patterns, in order) pick from ``names``."""
    names = list(names)
    picked: list[str] = []
    for pattern in patterns:
        for name in names:
            if fnmatchcase(name, pattern) and name not in picked:
                picked.append(name)
    return picked


def track_words(name: str) -> str:
    """``"A.income"`` -> ``"A income"``; known tracks by their full name."""
    return TRACK_WORDS.get(name, name.replace(".", " ").replace("_", " "))


def whole_ticks(levels: list[tuple[float, list[float]]], low: float, high: float
                ) -> list[tuple[float, list[float]]]:
    """The tick levels pyqtgraph chose, keeping whole numbers only (turns are counted, not
    measured: no 0.2 or 0.5 of a turn); a range shorter than one turn gets the whole
    numbers in it.

    >>> whole_ticks([(1.0, [1.0, 2.0]), (0.5, [1.5])], 1, 2)
    [(1.0, [1.0, 2.0])]
    >>> whole_ticks([(0.2, [1.0, 1.2, 1.4])], 1, 1.5)
    [(1, [1])]
    """
    kept = [(spacing, [v for v in values if float(v).is_integer()])
            for spacing, values in levels if spacing >= 1]
    kept = [(spacing, values) for spacing, values in kept if values]
    if kept:
        return kept
    import math
    return [(1, list(range(math.ceil(low), math.floor(high) + 1)))]


def plot_widget(title: str = "", left: str = "", bottom: str = "") -> Any:
    """A white pyqtgraph plot with the program's look (no mouse zoom: these are read, not
    explored). A ``bottom`` axis of turns is marked in whole turns only."""
    import pyqtgraph as pg
    from PySide6.QtCore import QSize

    class TurnAxis(pg.AxisItem):
        def tickValues(self, minVal, maxVal, size):   # noqa: N802 - pyqtgraph's name
            return whole_ticks(super().tickValues(minVal, maxVal, size), minVal, maxVal)

    class ChartWidget(pg.PlotWidget):
        # pyqtgraph asks for 600x480; a panel's layout (and the scroll area around it) would
        # then make every chart that tall on a laptop screen.
        def sizeHint(self) -> QSize:
            return QSize(320, 160)

    pg.setConfigOptions(antialias=True, foreground="#333333", background="w")
    axes = {"bottom": TurnAxis("bottom")} if bottom == "turn" else {}
    widget = ChartWidget(axisItems=axes)
    widget.setMenuEnabled(False)
    widget.setMouseEnabled(x=False, y=False)
    widget.hideButtons()
    widget.showGrid(x=False, y=True, alpha=0.2)
    if title:
        widget.setTitle(title, size="9pt")
    if left:
        widget.setLabel("left", left)
    if bottom:
        widget.setLabel("bottom", bottom)
    widget.setMinimumHeight(120)
    return widget


def fan(widget: Any, turns: list[int], low: list[float], middle: list[float],
        high: list[float], colour: str, name: str) -> None:
    """A fan: the band from the 10th to the 90th percentile, and the median as a line."""
    import pyqtgraph as pg

    from PySide6.QtGui import QColor

    band = QColor(colour)
    band.setAlpha(50)
    lower = pg.PlotDataItem(turns, low, pen=pg.mkPen(band, width=1))
    upper = pg.PlotDataItem(turns, high, pen=pg.mkPen(band, width=1))
    widget.addItem(lower)
    widget.addItem(upper)
    widget.addItem(pg.FillBetweenItem(lower, upper, brush=pg.mkBrush(band)))
    widget.plot(turns, middle, pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=4,
                symbolBrush=colour, symbolPen=None, name=name)


def bars(widget: Any, labels: list[str], series: list[tuple[str, list[float], list[float],
                                                          list[float], str]]) -> None:
    """Horizontal bars, the first label at the top, one bar per series and label (a series is
    (name, values, lows, highs, colour)), each with its interval as an error bar. Horizontal,
    so that the labels read in full on the left, however narrow the chart."""
    import pyqtgraph as pg

    count = max(1, len(series))
    height = 0.8 / count
    rows = len(labels)
    for k, (name, values, lows, highs, colour) in enumerate(series):
        ys = [rows - 1 - i + 0.4 - height * (k + 0.5) for i in range(rows)]
        widget.addItem(pg.BarGraphItem(x0=[0] * rows, y=ys, width=values, height=height * 0.9,
                                       brush=pg.mkBrush(colour), pen=pg.mkPen(None),
                                       name=name))
        widget.addItem(pg.ErrorBarItem(
            x=as_array(values), y=as_array(ys),
            right=as_array([h - v for h, v in zip(highs, values)]),
            left=as_array([v - lo for v, lo in zip(values, lows)]),
            beam=height * 0.3, pen=pg.mkPen("#333333", width=1)))
        for value, high, y in zip(values, highs, ys):
            text = pg.TextItem(f"{value:.0f}", color="#333333", anchor=(0, 0.5))
            text.setPos(high, y)
            widget.addItem(text)
    widget.getAxis("left").setTicks([[(rows - 1 - i, label) for i, label in enumerate(labels)]])
    widget.setYRange(-0.6, rows - 0.4, padding=0)


def as_array(values: list[float]) -> Any:
    import numpy

    return numpy.asarray(values, dtype=float)
