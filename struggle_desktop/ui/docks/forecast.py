"""The Forecast panel: "What are my chances from here?"

It plays the position on show to the end many times (500 by default) with the game's program
player on every side (``struggle_desktop.forecast``), in worker processes started from a thread
of its own, so the window stays responsive; figures arrive within a second and refine as games
finish, with a progress bar and Cancel. It shows

* the share of each outcome as bars, with the 95 % interval of each;
* a fan chart per charted track over the turns to come (the game's ``chart_tracks``): the band
  from the 10th to the 90th percentile and the median;
* with **Compare two answers**, the same for two answers of the waiting question side by side
  (every game begins with that answer).

Its note says what the figures rest on: how many games, from which moment, and that the
person's side was played as the program's player would play it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel,
                               QProgressBar, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from struggle_desktop import forecast as forecasting
from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.ui.charts import (PALETTE, bars, fan, matching_tracks, plot_widget,
                                        track_words)
from struggle_desktop.ui.docks.base import DockPanel

DEFAULT_GAMES = 500
#: The same position always gives the same figures (the seed drives the future dice only).
SEED = 1
#: Redraw at most this often while games finish (seconds).
REFINE_EVERY = 0.3
COMPARE_COLOURS = ("#2d6cb5", "#d68910")


class ForecastRun(QObject):
    """One forecast (or two, to compare) in a thread of its own. Signals carry summaries:
    ``progressed(list)`` as games finish (one summary per start, the later ones None until
    begun), ``finished(list)`` at the end or after a cancel, ``failed(str)``."""

    progressed = Signal(object)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, starts: list, games: int, jobs: int):
        super().__init__()
        self.starts, self.games, self.jobs = starts, games, jobs
        self._cancel = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="forecast", daemon=True)
        self.thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def _run(self) -> None:
        # The window runs threads of its own: its workers start afresh ("spawn") rather than
        # as copies of this process.
        context = multiprocessing.get_context("spawn")
        summaries: list[Any] = [None] * len(self.starts)
        try:
            for index, start in enumerate(self.starts):
                if self._cancel.is_set():
                    break
                game = forecasting.resolve_game(start.game_id)
                began, last = time.perf_counter(), [0.0]

                def partial(futures, index=index, start=start, game=game, began=began):
                    now = time.perf_counter()
                    if now - last[0] < REFINE_EVERY and len(futures) < self.games:
                        return
                    last[0] = now
                    summaries[index] = forecasting.summarize(game, start, SEED, self.jobs,
                                                             futures, now - began)
                    self.progressed.emit(list(summaries))

                summaries[index] = forecasting.forecast(
                    start, self.games, SEED, jobs=self.jobs, on_results=partial,
                    cancelled=self._cancel.is_set, context=context)
        except Exception as exc:  # noqa: BLE001 - shown in the panel, never a traceback
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self.finished.emit(list(summaries))


class ForecastDock(DockPanel):
    object_name = "dock-forecast"
    title = "Forecast"
    default_area = Qt.DockWidgetArea.BottomDockWidgetArea

    def __init__(self, document, parent=None, refusal=None):
        super().__init__(document, parent)
        #: ``refusal()``: why the window does not offer a forecast now (None: it does).
        self.refusal = refusal or (lambda: None)
        self.run: ForecastRun | None = None
        self.done = True                  # no forecast under way
        self.summaries: list = []
        self.labels: list[str] = []       # what each summary forecasts ("as it stands", answers)
        self.asked_at: tuple | None = None   # the position the figures are for

    # ------------------------------------------------------------------ building
    def create_widget(self) -> QWidget:
        box = QWidget()
        outer = QVBoxLayout(box)
        outer.setContentsMargins(6, 4, 6, 4)
        row = QHBoxLayout()
        outer.addLayout(row, 1)
        controls = QVBoxLayout()
        heading = QLabel("<b>What are my chances from here?</b>")
        controls.addWidget(heading)
        grid = QGridLayout()
        grid.addWidget(QLabel("Games:"), 0, 0)
        self.games = QSpinBox()
        self.games.setObjectName("forecast-games")
        self.games.setRange(10, 5000)
        self.games.setSingleStep(100)
        self.games.setValue(DEFAULT_GAMES)
        grid.addWidget(self.games, 0, 1)
        self.run_button = QPushButton("&Forecast")
        self.run_button.setObjectName("forecast-run")
        self.run_button.clicked.connect(self.start)
        grid.addWidget(self.run_button, 0, 2)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("forecast-cancel")
        self.cancel_button.clicked.connect(self.cancel)
        grid.addWidget(self.cancel_button, 0, 3)
        controls.addLayout(grid)
        self.compare = QCheckBox("Compare two answers:")
        self.compare.setToolTip("The same forecast twice, each game beginning with one of two "
                                "answers of the question waiting")
        self.compare.setObjectName("forecast-compare")
        controls.addWidget(self.compare)
        self.answers = [QComboBox(), QComboBox()]
        for k, combo in enumerate(self.answers):
            combo.setObjectName(f"forecast-answer-{k + 1}")
            combo.setMinimumContentsLength(18)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            controls.addWidget(combo)
        self.compare.toggled.connect(lambda on: [c.setEnabled(on) for c in self.answers])
        self.progress = QProgressBar()
        self.progress.setObjectName("forecast-progress")
        self.progress.setTextVisible(True)
        controls.addWidget(self.progress)
        controls.addStretch(1)
        holder = QWidget()
        holder.setLayout(controls)
        holder.setFixedWidth(280)
        row.addWidget(holder)
        self.charts = QHBoxLayout()
        row.addLayout(self.charts, 1)
        self.note = QLabel()
        self.note.setObjectName("forecast-note")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.RichText)
        outer.addWidget(self.note)
        # Before any figures, words in the charts' place: what a forecast is and how to run
        # one (empty axes said nothing).
        self.placeholder = QLabel()
        self.placeholder.setObjectName("forecast-placeholder")
        self.placeholder.setWordWrap(True)
        self.placeholder.setTextFormat(Qt.TextFormat.RichText)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet("color: #555555; padding: 12px;")
        self.charts.addWidget(self.placeholder, 5)
        self.outcome_chart = plot_widget("Outcomes (%)")
        self.outcome_chart.showGrid(x=True, y=False, alpha=0.2)
        self.outcome_chart.setObjectName("forecast-outcomes")
        self.charts.addWidget(self.outcome_chart, 3)
        self.outcome_chart.hide()
        self.fan_charts: list = []
        return box

    # ------------------------------------------------------------------ running
    def position_key(self) -> tuple:
        doc = self.document
        return (id(doc.present), doc.history_length, doc.position)

    def start(self) -> None:
        """Forecast the position on show (or the two answers chosen, to compare them)."""
        doc = self.document
        if doc.session is None or self.running:
            return
        if doc.game.outcome(doc.state) is not None:
            self.note.setText("The game is over: there is nothing left to forecast.")
            return
        refusal = self.refusal()
        if refusal is not None:
            self.note.setText(refusal)
            return
        try:
            if self.compare.isChecked():
                role = doc.state["pending"]["role"]
                chosen = [combo.currentData() for combo in self.answers]
                if None in chosen or chosen[0] == chosen[1]:
                    self.note.setText("Choose two different answers to compare.")
                    return
                starts = [forecasting.start_after(doc.session, role, a) for a in chosen]
                self.labels = [combo.currentText() for combo in self.answers]
            else:
                starts = [forecasting.start_from(doc.session)]
                self.labels = ["as it stands"]
        except StruggleError as exc:
            self.note.setText(f"Cannot forecast: {exc}")
            return
        self.asked_at = self.position_key()
        self.summaries = []
        games = self.games.value()
        self.progress.setRange(0, games * len(starts))
        self.progress.setValue(0)
        self.done = False
        self.run = ForecastRun(starts, games, jobs=max(2, os.cpu_count() or 2))
        self.run.progressed.connect(self._progressed)
        self.run.finished.connect(self._finished)
        self.run.failed.connect(self._failed)
        self.note.setText("Starting the games…")
        self.run.start()
        self.update_widget()

    @property
    def running(self) -> bool:
        return not self.done

    def cancel(self) -> None:
        if self.run is not None and not self.done:
            self.run.cancel()
            if self.widget_built:
                self.note.setText("Stopping…")

    def stop_work(self) -> None:
        """A seat change: a forecast under way stops, and what it still sends is not heard
        (the panel is built afresh for the new seat)."""
        run = self.run
        if run is None:
            return
        if not self.done:
            run.cancel()
        for signal, slot in ((run.progressed, self._progressed), (run.finished, self._finished),
                             (run.failed, self._failed)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass

    def wait(self, seconds: float = 60) -> bool:
        """Wait (handling events) until the forecast ends; False on time out (tests)."""
        from PySide6.QtWidgets import QApplication

        deadline = time.monotonic() + seconds
        while not self.done:
            if time.monotonic() > deadline:
                return False
            QApplication.processEvents()
            time.sleep(0.01)
        return True

    def _progressed(self, summaries: list) -> None:
        self.summaries = summaries
        self.progress.setValue(sum(s["games"] for s in summaries if s))
        self.draw()

    def _finished(self, summaries: list) -> None:
        self.done = True
        self.summaries = summaries
        self.progress.setValue(sum(s["games"] for s in summaries if s))
        self.draw()
        self.update_widget()

    def _failed(self, message: str) -> None:
        self.done = True
        self.note.setText(f"The forecast failed: {message}")
        self.update_widget()

    # ------------------------------------------------------------------ showing
    def update_widget(self) -> None:
        doc = self.document
        has_game = doc.session is not None
        running = self.running
        refusal = self.refusal() if has_game else None
        self.run_button.setEnabled(has_game and not running and refusal is None)
        self.run_button.setToolTip(refusal or "Play the moment on show to the end, many times")
        self.cancel_button.setEnabled(running)
        self.games.setEnabled(not running)
        answers = doc.game.legal_actions(doc.state, doc.state["pending"]["role"]) \
            if has_game and doc.state.get("pending") and not running else []
        for combo in self.answers:
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for action in answers:
                combo.addItem(doc.describe(action), action)
            if current in answers:
                combo.setCurrentIndex(answers.index(current))
            combo.blockSignals(False)
        if len(answers) > 1 and self.answers[1].currentIndex() == 0:
            self.answers[1].setCurrentIndex(1)
        self.compare.setEnabled(len(answers) > 1 and not running)
        if len(answers) < 2:
            self.compare.setChecked(False)
        for combo in self.answers:
            combo.setEnabled(self.compare.isChecked() and not running)
        figures = bool(self.summaries and any(self.summaries))
        self.outcome_chart.setVisible(figures)
        if not figures:
            for chart in self.fan_charts:
                chart.hide()
        self.placeholder.setVisible(not figures)
        self.placeholder.setText(self.placeholder_text(has_game, running, refusal))
        if not running and figures:
            self.note.setText(self.note_text())
        elif not running and not self.summaries:
            self.note.setText(refusal or "Plays the game from the moment on show to its end "
                              "many times, every side played by the program's own player.")

    def placeholder_text(self, has_game: bool, running: bool, refusal: str | None) -> str:
        """What stands in the charts' place before there are figures."""
        if running:
            return "Starting the games: the first figures appear here within a few seconds."
        what = ("<b>No forecast yet.</b><br>A forecast plays the game from the moment on show "
                "to its end many times and charts how often each result comes, and where the "
                "main tracks go turn by turn.")
        if not has_game:
            return f"{what}<br>Start or open a game first."
        if refusal:
            return f"{what}<br>{refusal}"
        return (f"{what}<br>Choose how many games, then press <b>Forecast</b>; tick "
                f"<b>Compare two answers</b> to see two answers of the waiting question side "
                f"by side.")

    def note_text(self) -> str:
        summary = next(s for s in self.summaries if s)
        stale = ""
        if self.asked_at != self.position_key():
            stale = (f"<br><i>These figures are for action {summary['from_action']}; the "
                     f"moment on show is action {self.document.position}: forecast again for "
                     f"it.</i>")
        stopped = " (stopped)" if any(s and s["cancelled"] for s in self.summaries) else ""
        games = " and ".join(str(s["games"]) for s in self.summaries if s)
        errors = sum(s["errors"] for s in self.summaries if s)
        failed = f" {errors} games failed and are left out." if errors else ""
        return (f"From action {summary['from_action']} (turn {summary['from_turn']}): "
                f"{games} games{stopped}, in {sum(s['seconds'] for s in self.summaries if s):.1f} s. "
                f"Bars: the share of each result with its 95 % interval; bands: the 10th to "
                f"90th percentile of each track, turn by turn, and the median. "
                f"Every side, yours too, is played as the program's own player would play it: "
                f"<b>if you played like the program's player</b>. The program's player sees "
                f"what the rules hide from the players, here as in its own games.{failed}{stale}")

    def draw(self) -> None:
        """Bars for the outcomes and a fan per charted track."""
        summaries = [s for s in self.summaries if s]
        if not summaries:
            return
        self.placeholder.hide()
        self.outcome_chart.show()
        game = self.document.game
        order = list(getattr(game, "outcome_order", ()))
        results = sorted({r for s in summaries for r in s["outcomes"]},
                         key=lambda r: (order.index(r) if r in order else len(order), r))
        self.outcome_chart.clear()
        series = []
        for k, summary in enumerate(self.summaries):
            if not summary:
                continue
            shares = [summary["shares"].get(r, {"share": 0, "low": 0, "high": 0}) for r in results]
            colour = COMPARE_COLOURS[k % 2] if len(self.summaries) > 1 else PALETTE[0]
            series.append((self.labels[k], [100 * s["share"] for s in shares],
                           [100 * s["low"] for s in shares], [100 * s["high"] for s in shares],
                           colour))
        bars(self.outcome_chart, results, series)
        top = max((high for *_ignored, highs, _colour in series for high in highs), default=100)
        self.outcome_chart.setXRange(0, min(100, top * 1.2 + 2), padding=0)
        self._draw_fans(game, summaries)

    def _draw_fans(self, game, summaries: list) -> None:
        turns = summaries[0]["turns"]
        names = list(turns[0]["tracks"]) if turns else []
        groups = [matching_tracks([pattern], names) for pattern in getattr(game, "chart_tracks", ())]
        groups = [g for g in groups if g][:3]
        while len(self.fan_charts) < len(groups):
            chart = plot_widget(bottom="turn")
            chart.setObjectName(f"forecast-fan-{len(self.fan_charts) + 1}")
            self.charts.addWidget(chart, 2)
            self.fan_charts.append(chart)
        for chart in self.fan_charts[len(groups):]:
            chart.hide()
        for chart, group in zip(self.fan_charts, groups):
            chart.show()
            chart.clear()
            chart.setTitle(" / ".join(track_words(n) for n in group), size="9pt")
            for k, summary in enumerate(self.summaries):
                if not summary:
                    continue
                rows = summary["turns"]
                xs = [row["turn"] for row in rows]
                for j, name in enumerate(group):
                    figures = [row["tracks"].get(name) for row in rows]
                    if None in figures:
                        continue
                    colour = (COMPARE_COLOURS[k % 2] if len(self.summaries) > 1
                              else PALETTE[j % len(PALETTE)])
                    fan(chart, xs, [f["p10"] for f in figures], [f["p50"] for f in figures],
                        [f["p90"] for f in figures], colour, track_words(name))
