"""The procedure-stack flow: rules as small resumable steps stored in the game state.

A game's progress is a stack of *frames* in ``state["stack"]``. Each frame is a plain dict with
the name of a procedure (``"proc"``) and that procedure's own locals (a step counter, a list of
sectors still to handle...). The runner calls the procedure of the top frame again and again;
a procedure may push sub-frames, pop itself, or stop the run by *asking* the player a question
(``state["pending"]``). Because everything lives in the state, a game can be saved while a prompt
waits in the middle of an automated phase and resumed later, and replays are exact.

>>> from struggle_desktop.engine.flow import Context, run
>>> def hello(ctx, frame):
...     ctx.log("DEMO-1", "note", "hello")
...     ctx.pop()
>>> state = {"rng": [1, 3], "stack": [{"proc": "hello"}], "pending": None, "outcome": None,
...          "log": [], "turn": 0, "phase": 0}
>>> ctx = Context(state, {"hello": hello})
>>> run(ctx); ctx.close()
False
>>> state["log"][0]["text"]
'hello'
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import RunawayError
from struggle_desktop.engine.rng import Rng

Procedure = Callable[["Context", dict], None]

#: No legal game needs more automated steps between two decisions; more means a loop.
MAX_STEPS_PER_RUN = 500_000


def clone_state(state: dict) -> dict:
    """A copy of ``state`` to build the next position on: everything is copied deeply except
    the log's entries, which the copy shares with the original.

    An entry is complete once the step that wrote it ends: rules add to an entry only as they
    log it, and nothing changes it later (tests/engine/test_clone_state.py watches this in
    every game). So a position and the next may hold the same entries, and copying them was
    most of an action's cost late in a long game (a 2,800-entry log: 20 ms of 21).

    >>> state = {"log": [{"text": "a"}], "units": {"u": {"hex": [1, 2]}}}
    >>> new = clone_state(state)
    >>> new["units"]["u"]["hex"].append(3); state["units"]["u"]["hex"]
    [1, 2]
    >>> new["log"].append({"text": "b"}); len(state["log"]), new["log"][0] is state["log"][0]
    (1, True)
    """
    log = state.get("log")
    if not isinstance(log, list):
        return clone(state)
    copied = clone({key: value for key, value in state.items() if key != "log"})
    shared = UnkeptLog() if isinstance(log, UnkeptLog) else list(log)
    return {key: shared if key == "log" else copied[key] for key in state}


class UnkeptLog(list):
    """A game log that keeps nothing: ``append`` and ``extend`` drop their entries.

    A simulation that writes no log files puts one in ``state["log"]`` of a game whose rules
    never read their log back (``log_is_output_only``, see Session.new). A Struggle game logs
    some 1,800 entries: keeping them cost a fifth of a simulated game's time (memory, and
    the garbage collector's passes over it), building their texts more, and nobody would
    read them. ``Context.log`` then builds nothing (``keeps_log``); a caller that adds to
    the entry it logged gets an entry nobody keeps.

    >>> log = UnkeptLog()
    >>> log.append({"text": "dropped"}); len(log)
    0
    """

    __slots__ = ()

    def append(self, entry: Any) -> None:
        pass

    def extend(self, entries: Iterable[Any]) -> None:
        pass


class Context:
    """What a rules procedure works with: the state, the generator, logging and the stack.

    A game subclasses it to add its data tables and helpers. ``close()`` writes the generator
    back into the state; call it when a run or an action is finished.
    """

    def __init__(self, state: dict, procedures: dict[str, Procedure]):
        self.state = state
        self.procedures = procedures
        self.rng = Rng.from_json(state["rng"])

    def close(self) -> None:
        self.state["rng"] = self.rng.to_json()

    # ----------------------------------------------------------------------------- stack
    def push(self, proc: str, **frame: Any) -> dict:
        if proc not in self.procedures:
            raise KeyError(f"unknown procedure {proc!r}")
        frame["proc"] = proc
        self.state["stack"].append(frame)
        return frame

    def pop(self) -> dict:
        return self.state["stack"].pop()

    def top(self) -> dict | None:
        stack = self.state["stack"]
        return stack[-1] if stack else None

    def ask(self, kind: str, text: str, role: str = "imperial", rule: str = "", **data: Any) -> None:
        """Stop the run and wait for the player. The answer arrives in the top frame's
        ``"answer"`` key (see ``answer``); the procedure is then called again."""
        prompt = {"kind": kind, "text": text, "role": role, "rule": rule}
        prompt.update(data)
        self.state["pending"] = prompt

    # ----------------------------------------------------------------------------- log
    @property
    def keeps_log(self) -> bool:
        """False when the state's log is an ``UnkeptLog``: entries would be dropped, so a rule
        with a costly text may skip building it (``if ctx.keeps_log: ctx.log(...)``, the
        idiom of ``logging.Logger.isEnabledFor``). The dice below skip their records."""
        return self.state["log"].__class__ is not UnkeptLog

    def log(
        self,
        rule: str,
        kind: str,
        text: str,
        refs: Sequence[Any] = (),
        dice: Sequence[dict] = (),
    ) -> dict:
        state = self.state
        log = state["log"]
        if log.__class__ is UnkeptLog:
            return {}   # a caller may still add to its entry: it gets one nobody keeps
        entry = {"turn": state["turn"], "phase": state["phase"], "rule": rule, "kind": kind,
                 "text": text, "refs": list(refs), "dice": list(dice)}
        log.append(entry)
        return entry

    # ----------------------------------------------------------------------------- dice
    def roll(
        self,
        die: str,
        rule: str,
        why: str,
        modifiers: Iterable[tuple[str, int]] = (),
        refs: Sequence[Any] = (),
        zero_as: int | None = None,
    ) -> int:
        """Roll a named die, log the face, the modifiers and the result, return the result.

        ``zero_as`` reads a face of 0 as another value before modifiers (SGE-DICE-4 style).
        """
        if die == "d10":
            face = self.rng.d10()
        elif die == "d6":
            face = self.rng.d6()
        elif die == "d66":
            face = self.rng.d66()
        else:
            raise ValueError(f"unknown die {die!r}")
        if not modifiers and (zero_as is None or face != 0):
            # The usual roll: no modifiers, the face read as it is (the same entry as below).
            if self.keeps_log:
                self.log(rule, "roll", f"{why}: {die} {face}", refs=refs,
                         dice=({"die": die, "face": face, "modifiers": [], "result": face},))
            return face
        value = zero_as if (zero_as is not None and face == 0) else face
        mods = [[label, amount] for label, amount in modifiers if amount]
        result = value + sum(amount for _, amount in mods)
        if not self.keeps_log:
            return result
        record = {"die": die, "face": face, "modifiers": mods, "result": result}
        if value != face:
            record["read_as"] = value
        self.log(rule, "roll", f"{why}: {die} {face}" + (
            f" (read as {value})" if value != face else "") + (
            "".join(f" {'+' if a > 0 else '-'}{abs(a)} {label}" for label, a in mods)) + (
            f" = {result}" if mods or value != face else ""), refs=refs, dice=[record])
        return result

    def pick(self, items: Sequence[Any], rule: str, why: str, refs: Sequence[Any] = ()) -> Any:
        """One uniform random choice among ``items``, logged as "k of n" (SGE-DICE-9 style).
        A single item is taken without a draw."""
        n = len(items)
        if n == 0:
            raise ValueError("pick() from an empty list")
        if n == 1:
            return items[0]
        k = self.rng.below(n)
        if self.keeps_log:
            self.log(rule, "draw", f"{why}: {k + 1} of {n}", refs=refs,
                     dice=[{"die": f"pick{n}", "face": k + 1, "modifiers": [], "result": k + 1}])
        return items[k]

    def roll_d6s(self, n: int, rule: str, why: str, refs: Sequence[Any] = ()) -> list[int]:
        """``n`` d6 rolled one after another and logged as one entry (none if ``n`` is 0)."""
        faces = [self.rng.d6() for _ in range(n)]
        if faces and self.keeps_log:
            self.log(rule, "roll", f"{why}: {', '.join(map(str, faces))}", refs=refs,
                     dice=[{"die": "d6", "face": f, "modifiers": [], "result": f} for f in faces])
        return faces

    def draw_index(self, k: int, rule: str, why: str, refs: Sequence[Any] = ()) -> int:
        """A random position among ``k`` items (a dk, logged as "face of k"); nothing is
        rolled when k is 1."""
        if k <= 1:
            return 0
        face = self.rng.below(k) + 1
        if self.keeps_log:
            self.log(rule, "draw", f"{why}: {face} of {k}", refs=refs,
                     dice=[{"die": f"d{k}", "face": face, "modifiers": [], "result": face}])
        return face - 1


class ViewContext(Context):
    """A context with a game's data over a state that may be a player's view. A view has no
    generator (nothing may roll in it), and tests may hand in a generator of their own, so
    ``close()`` writes back only a real one. Battles and Noble Houses build on it."""

    def __init__(self, state: dict, procedures: dict[str, Procedure], data: Any, rng=None):
        # Not Context.__init__, which requires the state's generator.
        self.state = state
        self.procedures = procedures
        self.data = data
        if rng is None and state.get("rng") is not None:
            rng = Rng.from_json(state["rng"])
        self.rng = rng

    def close(self) -> None:
        if hasattr(self.rng, "to_json"):
            super().close()


def answer(state: dict, action: dict) -> None:
    """Hand the player's answer to the frame that asked, and clear the prompt."""
    state["stack"][-1]["answer"] = action
    state["pending"] = None


def run(ctx: Context, max_steps: int = MAX_STEPS_PER_RUN,
        on_step: Callable[[dict], None] | None = None,
        until: Callable[[dict], bool] | None = None) -> bool:
    """Run procedures until a prompt waits, the game is over or the stack is empty.

    ``on_step(state)``, if given, is called after every step: the desktop window uses it to
    show the Chaos side's moves one by one. It must not change the state. ``until(state)``,
    if given, stops the run after the first step at which it holds (a player's look-ahead
    stops its playouts there); the result says whether it did."""
    state = ctx.state
    stack = state["stack"]
    procedures = ctx.procedures
    steps = 0
    while stack and state["pending"] is None and state["outcome"] is None:
        frame = stack[-1]
        procedures[frame["proc"]](ctx, frame)
        steps += 1
        if on_step is not None:
            on_step(state)
        if until is not None and until(state):
            return True
        if steps > max_steps:
            raise RunawayError(
                f"more than {max_steps} automated steps without a decision "
                f"(top frame: {stack[-1]['proc'] if stack else None})"
            )
    return False
