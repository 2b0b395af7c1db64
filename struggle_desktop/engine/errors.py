"""Exceptions shared by the engine, the games, the command line and the UI.

Every one of them carries a message a player can read; the command line prints it after
``error:`` and the UI shows it in the status bar or a dialog. None of them is a crash.
"""


class StruggleError(Exception):
    """Base class: an error with a message meant for people, not a traceback."""


class IllegalAction(StruggleError):
    """The action is not among the legal actions of the current position."""


class DataError(StruggleError):
    """A table, map or scenario file is missing or fails its schema or its rules."""


class SaveError(StruggleError):
    """A save file cannot be read: damaged, truncated, foreign or from a newer program."""


class BadOption(StruggleError):
    """An unknown game, scenario or option, or an option with a bad value."""


class RunawayError(RuntimeError):
    """The flow ran far more automated steps than any legal game needs: a rules bug."""
