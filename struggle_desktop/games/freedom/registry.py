"""The Freedom rules' procedures and prompts: ``@RULES.procedure(name)``, ``@RULES.legal(kind)``
and, where listing every answer is costly, ``@RULES.check(kind)`` (see engine/registry.py)."""

from __future__ import annotations

from struggle_desktop.engine.registry import RulesRegistry

RULES = RulesRegistry()
