"""The Struggle rules' procedures and prompts (see engine/registry.py).

Every rules module registers here: ``@procedure("name")`` for a step of the flow,
``@legal("kind")`` for the legal actions of a prompt, and, for the prompts with hundreds of
actions (recruitment, movement...), ``@explain("kind")``: a direct check of one action that
says why it is refused, in a player's words (the tests hold it to the list).
"""

from __future__ import annotations

from struggle_desktop.engine.registry import RulesRegistry

RULES = RulesRegistry()
PROCEDURES = RULES.procedures
procedure = RULES.procedure
legal = RULES.legal
explain = RULES.explain


def yes_no(yes: str, no: str):
    """The legal actions of a prompt answered by one of two verbs."""
    def listed(ctx, p: dict) -> list[dict]:
        return [{"verb": yes}, {"verb": no}]
    return listed
