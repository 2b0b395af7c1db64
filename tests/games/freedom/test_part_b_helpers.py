"""Helpers of the Freedom Part B and Part C tests: a scripted generator, scripted shuffles and
drivers for the two modes run on their own contexts (no tests here).

Dice and draws are scripted as the reference's section 6 writes them: ``d6(4)``, ``dk(3, 2)``
(a random pick among 3 candidates showing face 2), ``d66(3, 4)``, and shuffles as the resulting
order: ``order(before, after)`` gives the generator answers that make the Fisher-Yates shuffle
of ``before`` come out as ``after`` (the rest of ``before`` keeps its order below the listed
top). A test fails if the script runs out or has answers left over.

>>> script = ScriptedRng(order(["a", "b", "c"], ["c", "a"]) + d6(4))
>>> from struggle_desktop.games.freedom.chits import shuffle
>>> class Ctx:
...     rng = script
...     def log(self, *a, **k): pass
>>> shuffle(Ctx(), ["a", "b", "c"], "R", "test"), script.d6(), script.left
(['c', 'a', 'b'], 4, 0)
"""

from __future__ import annotations

from struggle_desktop.engine import flow
from struggle_desktop.games.freedom.data import default_data
from struggle_desktop.games.freedom.registry import RULES


class ScriptedRng:
    """A generator answering ``below(n)`` from a list of ``(n, value)`` pairs, checking that
    every call asks for the expected ``n``."""

    def __init__(self, script=()):
        self.script = list(script)

    @property
    def left(self) -> int:
        return len(self.script)

    def below(self, n: int) -> int:
        assert self.script, f"a random draw among {n} beyond the script"
        expected, value = self.script.pop(0)
        assert expected == n, f"the script expected a draw among {expected}, the rules asked {n}"
        return value

    def d6(self) -> int:
        return self.below(6) + 1

    def d66(self) -> int:
        return self.d6() * 10 + self.d6()

    def add(self, more) -> None:
        self.script.extend(more)


def d6(*faces: int) -> list[tuple[int, int]]:
    return [(6, f - 1) for f in faces]


def d66(tens: int, units: int) -> list[tuple[int, int]]:
    return d6(tens, units)


def dk(k: int, face: int) -> list[tuple[int, int]]:
    """A random pick among k candidates showing ``face`` (nothing is drawn when k is 1)."""
    return [] if k == 1 else [(k, face - 1)]


def order(before, top) -> list[tuple[int, int]]:
    """The answers that make the shuffle (Fisher-Yates from the last place down) of ``before``
    put ``top`` first, in that order, the other items following in their ``before`` order."""
    before = list(before)
    rest = [x for x in before if x not in top]
    assert len(set(top)) == len(top) and all(x in before for x in top), top
    after = list(top) + rest
    items = list(before)
    answers = []
    for i in range(len(items) - 1, 0, -1):
        j = items.index(after[i])
        assert j <= i
        answers.append((i + 1, j))
        items[i], items[j] = items[j], items[i]
    assert items == after
    return answers


def run(ctx) -> None:
    flow.run(ctx)


def legal(ctx) -> list[dict]:
    pending = ctx.state["pending"]
    return RULES.legal_actions[pending["kind"]](ctx, pending)


def reply(ctx, action: dict, kind: str | None = None, role: str | None = None) -> None:
    """Answer the waiting prompt with a listed action (checking its kind and role when given)
    and run on."""
    pending = ctx.state["pending"]
    assert pending is not None, "no prompt is waiting"
    if kind is not None:
        assert pending["kind"] == kind, (pending["kind"], pending["text"])
    if role is not None:
        assert pending["role"] == role, pending
    assert action in legal(ctx), (action, legal(ctx))
    flow.answer(ctx.state, action)
    flow.run(ctx)


def rules_of(state) -> list[str]:
    return [e["rule"] for e in state["log"]]


def texts(state, rule: str | None = None) -> list[str]:
    return [e["text"] for e in state["log"] if rule is None or e["rule"] == rule]


def data():
    return default_data()
