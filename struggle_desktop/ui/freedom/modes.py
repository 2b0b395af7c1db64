"""Where the views of the Freedom modes other than the Mission phase live, and how they are
found: the chit-mug view (Part B) and the events-deck view (Part C) are written alongside the
window and imported when first needed, so that the window works (with the Decision panel)
while one of them is missing."""

from __future__ import annotations

import importlib

#: kind -> (module, class) of its view: ``View(host)`` with ``refresh(board, legal)``, acting
#: through ``host.perform(action) -> bool``.
MODE_VIEWS = {"chit-mug": ("struggle_desktop.ui.freedom.chits_view", "ChitMugView"),
              "events-deck": ("struggle_desktop.ui.freedom.deck_view", "DeckView")}


def load_class(module: str, name: str):
    """``module.name``, or None while the module does not exist; any other import error is a
    real bug and is raised."""
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


def mode_view_class(kind: str):
    """The view class of ``kind`` (not ``mission-phase``), or None."""
    module, name = MODE_VIEWS.get(kind, ("", ""))
    return load_class(module, name) if module else None
