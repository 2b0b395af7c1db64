"""The window of a game that people share one computer for (Battles, Noble Houses).

``SeatedWindow`` adds to the shell what those screens have in common: who plays each role
(``seats``, ``humans``), the hand-over screen and taking the seat behind it, the program
player that acts for the roles it holds, and the one way such a window acts (``perform``:
nothing while the hand-over screen is up, the last message cleared, and the dice panel shows
the seat's own reading of what happened). When the seat changes hands every panel and the
central view are built afresh from the new seat's view (``GameWindow.rebuild_for_seat``). A screen names its roles (``seat_title``) and
the program's level for a role (``program_level``).
"""

from __future__ import annotations

from struggle_desktop.ui.seats import HandOverOverlay, ProgramPlayer, lock_actions
from struggle_desktop.ui.shell import GameWindow


class SeatedWindow(GameWindow):
    """A game window with seats, a hand-over screen and the program's players."""

    def __init__(self, document=None, settings=None):
        super().__init__(document, settings)
        self.program = ProgramPlayer(self.document, self.program_level)
        self.overlay = HandOverOverlay(self)
        self.overlay.button.clicked.connect(self.take_seat)
        self._news_from = 0

    # ------------------------------------------------------------------ for a screen
    def seat_title(self, role: str) -> str:
        """The role in words for the status bar ("Red (Chaos)", "House Kadesh")."""
        return role.capitalize()

    def program_level(self, role: str) -> str | None:
        """The level the program plays ``role`` with, or None when a person plays it."""
        raise NotImplementedError

    # ------------------------------------------------------------------ seats
    def seats(self) -> dict[str, str]:
        """Role -> who plays it, as the game records it."""
        state = self.document.state
        return self.document.game.players(state) if state else {}

    def humans(self) -> list[str]:
        return [r for r, who in self.seats().items() if who == "human"]

    def branch_refusal(self) -> str | None:
        """Playing on from an earlier moment takes a roll back for everyone at the table: it is
        offered when one person plays against the program, not when people share the game."""
        people = self.humans()
        if len(people) > 1:
            return ("Several people play this game: playing on from an earlier moment would "
                    "take back moves of theirs. It is offered when every seat but one is the "
                    "program's.")
        return None

    def forecast_refusal(self) -> str | None:
        """A forecast's games are played with every side's hidden hand and plans as they
        stand: between people at one table its odds would tell one what the other hides."""
        if len(self.humans()) > 1:
            return ("Several people play this game: a forecast plays on with every side's "
                    "hidden hand and plans, so its figures would give away what the others "
                    "hide. It is offered when every seat but one is the program's.")
        return None

    def take_seat(self) -> None:
        """The player named by the hand-over screen has confirmed: show their view."""
        role = self.overlay.role
        self.overlay.hide()
        lock_actions(self, False)
        self._news_from = len(self.document.state["log"]) if self.document.state else 0
        self.document.set_seat(role)          # its change signal redraws everything
        self.show_message(f"{self.seat_title(role)} is playing")

    # ------------------------------------------------------------------ the program player
    def _program_to_move(self) -> str | None:
        return self.program.to_move()

    def program_step(self) -> None:
        """One action of the program for the role the game waits for."""
        self.program.step()

    # ------------------------------------------------------------------ acting
    def perform(self, action: dict) -> bool:
        if self.overlay.isVisible():
            return False
        # A message of the last action (a refusal, a hand-over) is stale once the player acts
        # again; what this action says (through the document) replaces it.
        self.show_message("")
        seat = self.document.seat
        result = self.document.perform(action)
        if result.ok and self.document.seat == seat:
            # The action's rolls as the seat read them; not once the seat changed hands
            # (the panel was built afresh for the next one).
            self.dice_dock.show_entries(result.new_entries)
        return result.ok

    def prompt_actions(self) -> list[dict]:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        return [e["action"] for e in prompt["actions"]] if prompt else []


__all__ = ["SeatedWindow"]
