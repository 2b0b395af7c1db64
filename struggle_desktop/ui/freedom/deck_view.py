"""The events-deck view of the Freedom window (Part C, rules-freedom.md section 4, FIG-EVT).

``DeckView(window)`` is the window's central widget while an ``events-deck`` scenario is open.
The window calls :meth:`DeckView.refresh` with ``board`` (the game's ``view(state, role)`` for
the side to act, or a presentation dict holding it under ``"view"``) and ``legal`` (that
side's legal actions) after every change; a control hands its action to ``window.perform``,
which returns False when the game refuses it (the window shows why).

What it shows: the Galactic Events Track (the game turn, the New and Due boxes with their
face-up and face-down cards, the G and M decks and the removed cards as counts, the discard
pile, the lasting, historic and retired cards), each side's First Right, General Research,
force points, secret deck and hand, the waiting ``deck_*`` prompt as buttons and small forms
built from the legal actions, the report with a Copy button and the log.

Privacy (FIG-EVT-2): the view shows only what the game's view for its ``role`` holds (hidden
decks and the other side's hand come as counts, its private log entries are left out) and
never the scenario's ``setup`` (which names the hands a scenario fixes). Log entries marked
private for the other side are skipped here as well, and while the other side decides its
prompt is named but its answers are not shown: their labels may name the cards it holds.

The view is a thin client: the card titles come from the card table, everything else from the
game's view and the legal actions.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QListWidget, QPlainTextEdit, QPushButton, QSpinBox, QSplitter,
                               QTabWidget, QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.style import nobreak
from struggle_desktop.ui.freedom.chits_view import (PromptBox, ReportBox, bold, freedom_game,
                                                    side_by_side, view_of, wrapped)

SIDES = ("rebel", "imperial")
COUNTERS = {"general_research": "General Research", "force_points": "Force points"}
BOX_NAMES = {"new": "New box", "due": "Due box", "discard": "discard pile"}
#: Lines of a card's text in view above the answers.
CARD_TEXT_LINES = 12
#: The Decision box's title for each kind of question: a new kind brings a new title.
DECK_TITLES = {"deck_pick_secret": "Decision: pick a secret card",
               "deck_play": "Decision: play a card or pass",
               "deck_contest": "Decision: contest the play?",
               "deck_prevail": "Decision: prevail or give way?",
               "deck_forced_play": "Decision: play a card", "deck_card": "A card's text",
               "deck_keep_secret": "Decision: keep a secret card",
               "deck_reduce": "Decision: spend General Research?",
               "deck_m1_held": "Decision: the possessions held",
               "deck_leak_choice": "Decision: who leaks", "deck_count": "Decision: planets",
               # (A group box is as wide as its title: a longer one widened the column.)
               "deck_between": "Decision: your moves"}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


class CardList(QGroupBox):
    """One place of the track: a title with its count and the cards in it, one a line."""

    def __init__(self, title: str, object_name: str, parent: QWidget | None = None):
        super().__init__(title, parent)
        self.setObjectName(object_name)
        self._title = title
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.list = QListWidget()
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.list)

    def show_cards(self, lines: list[str], count: int | None = None) -> None:
        n = len(lines) if count is None else count
        self.setTitle(f"{self._title} ({n})")
        self.list.clear()
        self.list.addItems(lines)

    def texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]


class SidePanel(QGroupBox):
    """One side: First Right, counters, secret deck and hand (named only for its owner)."""

    def __init__(self, side: str, parent: QWidget | None = None):
        super().__init__(side.title(), parent)
        self.side = side
        self.setObjectName(f"deck-side-{side}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        self.facts = wrapped()
        self.facts.setObjectName(f"deck-side-{side}-facts")
        self.hand_label = bold(QLabel("Hand"))
        self.hand = QListWidget()
        self.hand.setObjectName(f"deck-hand-{side}")
        self.hand.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hand.setWordWrap(True)
        self.hand.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.facts)
        layout.addWidget(self.hand_label)
        layout.addWidget(self.hand, 1)
        layout.addStretch()          # keeps the facts at the top while the list is hidden

    def texts(self) -> list[str]:
        return [self.facts.text(), self.hand_label.text()] + [
            self.hand.item(i).text() for i in range(self.hand.count())]


class DeckView(QWidget):
    """The galactic events deck and track (see the module docstring)."""

    def __init__(self, window, parent: QWidget | None = None):
        if parent is None and isinstance(window, QWidget):
            parent = window
        super().__init__(parent)
        self.setObjectName("freedom-deck-view")
        self._host = window
        self._game = freedom_game(window)
        self._tables = self._game.deck_tables()
        self._view: dict | None = None
        outer = QVBoxLayout(self)
        self.header = bold(wrapped(), 1.0)
        self.header.setObjectName("deck-header")
        self.situation = wrapped()
        self.situation.setObjectName("deck-situation")
        outer.addWidget(self.header)
        outer.addWidget(self.situation)

        # The track: the decks, the two boxes and the piles, as on the board.
        self.decks = wrapped()
        self.decks.setObjectName("deck-decks")
        self.decks.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        decks_box = QGroupBox("Decks (face-down)")
        QVBoxLayout(decks_box).addWidget(self.decks)
        self.new = CardList("New box", "deck-new")
        self.due = CardList("Due box", "deck-due")
        self.discard = CardList("Discard", "deck-discard")
        self.lasting = CardList("Lasting", "deck-lasting")
        self.historic = CardList("Historic stack", "deck-historic")
        self.retired = CardList("Retired", "deck-retired")
        track = QWidget()
        grid = QGridLayout(track)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(decks_box, 0, 0)
        grid.addWidget(self.new, 0, 1)
        grid.addWidget(self.due, 0, 2)
        grid.addWidget(self.discard, 1, 0)
        grid.addWidget(self.lasting, 1, 1)
        grid.addWidget(self.historic, 1, 2)
        self.retired.hide()              # shown once the players retire a card
        grid.addWidget(self.retired, 2, 0, 1, 3)
        for c in range(3):
            grid.setColumnStretch(c, 1)

        self.sides = {s: SidePanel(s) for s in SIDES}
        sides = QWidget()
        srow = QHBoxLayout(sides)
        srow.setContentsMargins(0, 0, 0, 0)
        for s in SIDES:
            srow.addWidget(self.sides[s], 1)

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(track)
        left.addWidget(sides)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 2)
        left.setChildrenCollapsible(False)

        self.prompt = PromptBox(self._perform, self)
        self.report = ReportBox("Report", self)
        self.log = QPlainTextEdit()
        self.log.setObjectName("deck-log")
        self.log.setReadOnly(True)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.report, "Report")
        self.tabs.addTab(self.log, "Log")
        right = QWidget()
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        rbox.addWidget(self.prompt)
        rbox.addWidget(self.tabs, 1)

        outer.addWidget(side_by_side(left, right), 1)

    # ------------------------------------------------------------------ the window's calls
    def refresh(self, board: dict | None, legal: list[dict]) -> None:
        view = view_of(board)
        self._view = view
        if view is None:
            self.header.setText("No events deck is open.")
            self.prompt.clear()
            return
        self._show_track(view)
        self._show_sides(view)
        self._show_prompt(view, legal or [])
        self._show_report(view)
        self._show_log(view)

    def _perform(self, action: dict) -> bool:
        return bool(self._host.perform(action))

    # ------------------------------------------------------------------ naming cards
    def title(self, card: str) -> str:
        try:
            return self._tables.card(card).title
        except KeyError:
            return ""

    def card_name(self, view: dict, card: str) -> str:
        """``G#5 Space Whale Migrations (Wex)``: id, title and the sub-roll in play."""
        rolled = (view.get("rolls") or {}).get(card)
        return f"{card} {self.title(card)}".strip() + (f" ({self._game.describe_roll(rolled)})"
                                                        if rolled else "")

    def box_line(self, view: dict, e: dict) -> str:
        """A card in the New or Due box; the cards a trigger card drew follow it, indented."""
        name = self.card_name(view, e["card"]) if e["up"] and e["card"] else "a face-down card"
        if e.get("with"):
            name = f"  ↳ {name} ({'with' if e['up'] else 'beneath'} {e['with']})"
        if e.get("played_by"):
            name += f" (played by the {e['played_by'].title()})"
        return name

    # ------------------------------------------------------------------ pieces
    def _show_track(self, view: dict) -> None:
        places = view["places"]
        role = view.get("role")
        last = view.get("last_turn")
        self.header.setText(
            f"Galactic Events Track — game turn {view['turn']}"
            + (f" of {last}" if last is not None else "")
            + (f" — you are the {role.title()}" if role in SIDES else ""))
        facts = [f"First Right: {view['first_right'].title()}"]
        if view.get("played"):
            facts.append(f"played this segment: {self.card_name(view, view['played'])}")
        for r in view.get("reductions") or []:
            part = f" ({r['part']})" if r.get("part") else ""
            facts.append(f"{r['side'].title()} spent General Research on {r['card']}{part} "
                         f"in turn {r['turn']}")
        for card, status in (view.get("claims") or {}).items():
            facts.append(f"{card}: secret card "
                         + ("claimed" if status == "claimed" else "may be claimed"))
        clone = view.get("clone") or {}
        if clone.get("active"):
            facts.append("IS#3 clone " + ("unmasked" if clone.get("unmasked")
                                          else f"at work, leak: {clone.get('leak') or 'none'}"))
        self.situation.setText("; ".join(facts) + ".")
        self.decks.setText(f"G deck: {places['g_deck']} cards\nM deck: {places['m_deck']} "
                           f"cards\nRemoved unseen: {places['removed']} G cards")
        self.new.show_cards([self.box_line(view, e) for e in places["new"]])
        self.due.show_cards([self.box_line(view, e) for e in places["due"]])
        self.discard.show_cards([self.card_name(view, c) for c in reversed(places["discard"])])
        self.lasting.show_cards([self.card_name(view, c) for c in places["lasting"]])
        self.historic.show_cards([self.card_name(view, c) for c in places["historic"]])
        self.retired.show_cards([self.card_name(view, c) for c in places["retired"]])
        self.retired.setVisible(bool(places["retired"]))

    def _show_sides(self, view: dict) -> None:
        places = view["places"]
        role = view.get("role")
        for side, panel in self.sides.items():
            facts = []
            if view["first_right"] == side:
                facts.append("<b>holds the First Right</b>")
            facts.append(f"General Research: {view['general_research'][side]}")
            facts.append(f"Force points: {signed(view['force_points'][side])}")
            facts.append(f"Secret deck: {places['secret_decks'][side]} cards")
            panel.facts.setText("<br>".join(facts))
            hand = places["hands"][side]
            panel.hand.clear()
            if side == role and isinstance(hand, list):
                panel.hand_label.setText(f"Your hand ({len(hand)})")
                panel.hand.addItems([self.card_name(view, c) for c in hand])
            else:
                # The other side's hand: a count, and the historic cards it must show on
                # request (FIG-EVT-2). Nothing else is named, whatever the view holds.
                count = hand.get("count", 0) if isinstance(hand, dict) else len(hand)
                shown = hand.get("historic", []) if isinstance(hand, dict) else []
                panel.hand_label.setText(f"Hand: {count} card(s), hidden"
                                         + (", historic shown:" if shown else ""))
                panel.hand.addItems([self.card_name(view, c) for c in shown])
            panel.hand.setVisible(panel.hand.count() > 0 or side == role)
            panel.setTitle(side.title() + (" (you)" if side == role else ""))

    def _show_prompt(self, view: dict, legal: list[dict]) -> None:
        pending = view.get("pending")
        role = view.get("role")
        # The small forms of M#1 and M#30 (tests reach their controls here).
        self.m1_boxes: list[QCheckBox] = []
        self.m1_button: QPushButton | None = None
        self.count_spin: QSpinBox | None = None
        self.count_button: QPushButton | None = None
        if view.get("outcome") is not None:
            self.prompt.clear("The events manager has finished: the report lists every "
                              "change.")
            return
        if pending is None:
            self.prompt.clear("Nothing is waiting.")
            return
        if pending["role"] != role:
            # Another seat's answers may name the cards that side holds: only say who decides.
            self.prompt.clear(f"The {pending['role'].title()} decides now.",
                              "Hand over to that player.")
            return
        self.prompt.clear(pending["text"], f"the {pending['role'].title()} decides "
                          f"({nobreak(pending.get('rule', ''))})",
                          DECK_TITLES.get(pending["kind"], "Decision"),
                          # Room for a whole card's text (a longer one scrolls in place).
                          CARD_TEXT_LINES if pending["kind"] == "deck_card" else None)
        if not legal:
            return
        kind = pending["kind"]
        if kind == "deck_between":
            self._between_form(view, legal)
        elif kind == "deck_m1_held":
            self._m1_form(legal)
        elif kind == "deck_count":
            self._count_form(legal)
        else:
            self.prompt.add_buttons(self.labelled(view, pending, legal), per_row=2)

    def labelled(self, view: dict, pending: dict, legal: list[dict]) -> list[tuple[str, dict]]:
        """A label in words for each answer of the plain ``deck_*`` prompts."""
        out = []
        kind = pending["kind"]
        for a in legal:
            verb = a.get("verb")
            card = a.get("card")
            if verb in ("pick", "keep", "play") and card:
                word = {"pick": "Take", "keep": "Keep", "play": "Play"}[verb]
                label = f"{word} {self.card_name(view, card)}"
            elif verb == "pass":
                label = "Pass: play no card"
            elif verb == "contest":
                label = "Contest (spend 1 General Research)"
            elif verb == "allow":
                label = "Let the play stand"
            elif verb == "prevail":
                label = "Prevail (spend 1 General Research)"
            elif verb == "yield":
                label = "Give way"
            elif verb == "ok":
                label = "OK, noted"
            elif verb == "spend":
                part = f", part ({a['part']})" if a.get("part") else ""
                label = f"Spend 1 General Research on {card}{part}"
            elif verb == "decline":
                label = "Spend nothing"
            elif verb == "leak" and kind == "deck_leak_choice":
                label = f"{a['character']} leaks"
            else:
                extra = ", ".join(f"{k} {v}" for k, v in a.items() if k != "verb")
                label = f"{verb} {extra}".strip()
            out.append((label, a))
        return out

    def _between_form(self, view: dict, legal: list[dict]) -> None:
        """FIG-EVT-24's manual moves, grouped: counters, cards into the hand, retirements,
        claims and the clone, then done or finish."""
        role = view.get("role")
        by_verb: dict[str, list[dict]] = {}
        for a in legal:
            by_verb.setdefault(a["verb"], []).append(a)
        # Every step, up or down, has a button of its own in a fixed place; a step the
        # rules refuse now (below zero, FIG-EVT-22) is greyed there, so that a "−1" never
        # appears where the "+1" just clicked was.
        adjust = by_verb.get("adjust", [])
        sizes = sorted({abs(a["by"]) for a in adjust})
        for counter, label in COUNTERS.items():
            legal_steps = {a["by"]: a for a in adjust if a["counter"] == counter}
            value = view[counter].get(role, 0) if role in SIDES else "?"
            items = []
            for by in [-n for n in reversed(sizes)] + sizes:
                action = legal_steps.get(by)
                why = ("" if action is not None
                       else f"{label} cannot go below zero by your own choice (FIG-EVT-22)")
                items.append((signed(by), action, why))
            now = signed(value) if counter == "force_points" and value != "?" else value
            # The counter's name and value on a line of their own above its buttons: a
            # narrow column cuts no word, and a new value moves nothing.
            self.prompt.add_widget(QLabel(f"{label}: now {now}"))
            self.prompt.add_buttons(items, per_row=len(items) or 1)
        where = {}
        for box in ("new", "due"):
            for e in view["places"][box]:
                if e["up"] and e["card"]:
                    where[e["card"]] = BOX_NAMES[box]
        for c in view["places"]["discard"]:
            where[c] = BOX_NAMES["discard"]
        into = [(f"{self.card_name(view, a['card'])} (condition met)", a)
                for a in by_verb.get("take_historic", [])]
        into += [(f"{self.card_name(view, a['card'])} (from the "
                  f"{where.get(a['card'], 'track')})", a) for a in by_verb.get("to_hand", [])]
        self.prompt.add_choice("Into your hand:", into, "Take")
        self.prompt.add_choice("Retire a lasting card:",
                               [(self.card_name(view, a["card"]), a)
                                for a in by_verb.get("retire", [])], "Retire")
        self.prompt.add_buttons([(f"Claim the secret card of {a['card']}", a)
                                 for a in by_verb.get("claim", [])], per_row=2)
        self.prompt.add_buttons([("A clone effect was used", a)
                                 for a in by_verb.get("clone_used", [])])
        ends = [("Done", a) for a in by_verb.get("done", [])]
        ends += [("Finish the run after this turn", a) for a in by_verb.get("finish", [])]
        self.prompt.add_buttons(ends, per_row=2)

    def _m1_form(self, legal: list[dict]) -> None:
        """M#1 Thief!: tick the possessions held; the answer is the legal one naming exactly
        those (FIG-EVT-18)."""
        names = []
        for a in legal:
            for p in a["possessions"]:
                if p not in names:
                    names.append(p)
        boxes = [QCheckBox(n) for n in names]
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        for b in boxes:
            lay.addWidget(b)
        go = QPushButton("These are held")
        lay.addWidget(go)
        lay.addStretch(1)

        def send() -> None:
            ticked = {b.text() for b in boxes if b.isChecked()}
            action = next((a for a in legal if set(a["possessions"]) == ticked), None)
            if action is not None:
                self.prompt.act(action)
        go.clicked.connect(send)
        self.m1_boxes, self.m1_button = boxes, go
        self.prompt.add_widget(row)

    def _count_form(self, legal: list[dict]) -> None:
        """M#30: how many planets; the spin box offers the legal range only."""
        values = sorted(a["planets"] for a in legal)
        spin = QSpinBox()
        spin.setRange(values[0], values[-1])
        go = QPushButton("Enter")
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Planets:"))
        lay.addWidget(spin)
        lay.addWidget(go)
        lay.addStretch(1)
        go.clicked.connect(lambda: self.prompt.act(
            next(a for a in legal if a["planets"] == spin.value())))
        self.count_spin, self.count_button = spin, go
        self.prompt.add_widget(row)

    def _show_report(self, view: dict) -> None:
        outcome = view.get("outcome")
        entries = outcome if outcome is not None else view.get("report", [])
        lines = [f"Turn {e.get('turn', '?')}: {e['text']}" for e in entries]
        if outcome is None:
            self.report.show_report("Changes so far", f"{len(lines)} change(s) for the "
                                    "players to apply.", lines, latest_last=True)
        else:
            self.report.show_report("Report", "Apply these on the board.",
                                    [f"Galactic events, turns up to {view['turn']}:"] + lines)

    def _show_log(self, view: dict) -> None:
        """The view's log, when it carries one (a board built without it leaves the log to
        the window's own panel, and the tab is hidden)."""
        entries = view.get("log")
        self.tabs.setTabVisible(1, entries is not None)
        role = view.get("role")
        lines = [f"T{e.get('turn', '?')} {e['text']}" for e in entries or []
                 if e.get("private") in (None, role)]
        text = "\n".join(lines)
        if text != self.log.toPlainText():
            self.log.setPlainText(text)
            self.log.verticalScrollBar().setValue(self.log.verticalScrollBar().maximum())
