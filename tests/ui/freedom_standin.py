"""The window's side of the Freedom mode views' contract, for testing the views without the
Freedom window: ``perform`` answers for the role the game waits for (False when the game
refuses), then ``refresh`` hands the view that role's view and legal actions, as the window
does."""

from __future__ import annotations

from types import SimpleNamespace

from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game


class StandIn:
    """``wrap`` passes the view inside a presentation dict (``{"kind", "seat", "view"}``)
    instead of bare, and then without its log when ``log_when_wrapped`` is False (the window's
    events-deck board has none). ``seat`` fixes the role whose view is shown (a hand-over not
    yet made); ``idle_role`` is shown when nothing waits; ``after_refresh`` holds checks run
    after every refresh as ``check(host, role)``."""

    def __init__(self, session: Session, wrap: bool = False, idle_role: str = "phasing",
                 log_when_wrapped: bool = True):
        self.session = session
        self.game = session.game
        self.document = SimpleNamespace(game=session.game, session=session)
        self.wrap = wrap
        self.idle_role = idle_role
        self.log_when_wrapped = log_when_wrapped
        self.seat = None
        self.view = None
        self.refused: list[str] = []
        self.after_refresh: list = []

    @property
    def state(self) -> dict:
        return self.session.state

    def role(self) -> str:
        pending = self.state.get("pending")
        return pending["role"] if pending else self.idle_role

    def perform(self, action: dict) -> bool:
        try:
            self.session.perform(self.role(), action)
        except IllegalAction as exc:
            self.refused.append(str(exc))
            return False
        self.refresh()
        return True

    def refresh(self) -> None:
        role = self.seat or self.role()
        view = self.game.view(self.state, role,
                              with_log=not self.wrap or self.log_when_wrapped)
        board = {"kind": view["kind"], "seat": role, "view": view} if self.wrap else view
        self.view.refresh(board, self.game.legal_actions(self.state, role))
        for check in self.after_refresh:
            check(self, role)


def open_mode_view(qtbot, view_class, scenario: str, seed: int = 1, options=None,
                   wrap: bool = False, checks=(), **host_options):
    """A stand-in host with a real Session of ``scenario`` and ``view_class`` shown at
    1200x800, refreshed once (after ``checks`` are installed)."""
    host = StandIn(Session.new(get_game("freedom"), scenario, seed, options or {}), wrap=wrap,
                   **host_options)
    view = view_class(host)
    host.view = view
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    host.after_refresh.extend(checks)
    host.refresh()
    return host, view
