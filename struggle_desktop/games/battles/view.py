"""What one player may see of a Battles state (BFG-HID-2, BFG-HID-3, BFG-HID-10, BFG-HID-11).

A view is a copy of the state without the generator and the procedure stack, with the other
player's private parts replaced by counts:

- the other player's hand becomes ``hand_count`` (unless *open hands* is on, BFG-HID-8);
- chit pools are face down: every pool, the player's own included, shows only its count
  (``chit_pool_count``, ``own_chits_count``; BFG-HID-2);
- their set-aside chits become ``discard_count``;
- their deployment plan is removed entirely: not even how far they have got;
- a pending secret answer (the disengagement choice) lives in the stack and never shows;
- log entries written for one player show the public wording to everyone else.

The ``"public"`` role (the shared screen of a hot-seat game) sees neither player's secrets.
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone

#: State keys no player sees: the generator (future dice) and the procedure stack (which
#: holds answers not yet revealed).
HIDDEN_KEYS = ("rng", "stack", "log")


def player_view(game, state: dict, role: str, with_log: bool = True) -> dict:
    """``role``'s view; the program player asks ``with_log=False`` (it never reads the log)."""
    view = clone({k: v for k, v in state.items() if k not in HIDDEN_KEYS})
    open_hands = bool(state["options"].get("open_hands"))
    view["chit_pool_count"] = len(view.pop("chit_pool"))
    for side, player in view["players"].items():
        player["own_chits_count"] = len(player.pop("own_chits"))
        if side == role:
            continue
        if not open_hands:
            player["hand_count"] = len(player.pop("hand"))
        player["discard_count"] = len(player.pop("discards"))
        player.pop("deploy")
    view["role"] = role
    view["log"] = visible_log(state["log"], role, open_hands) if with_log else []
    view["legal_actions"] = (game.legal_actions(state, role) if role in game.roles else [])
    return view


def visible_log(entries: list[dict], role: str, open_hands: bool = False) -> list[dict]:
    """The log as ``role`` reads it: a private entry shows its full text (and its dice, if
    it has private ones) to its owner, or to everyone with open hands, and its public
    wording to anyone else."""
    out = []
    for entry in entries:
        private = entry.get("private")
        if private is None:
            out.append(entry)
            continue
        shown = {k: v for k, v in entry.items() if k != "private"}
        if private["role"] == role or open_hands:
            shown["text"] = private["text"]
            if "dice" in private:
                shown["dice"] = private["dice"]
        out.append(shown)
    return out
