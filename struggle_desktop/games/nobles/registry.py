"""The Noble Houses rules' procedures and prompts: ``@RULES.procedure(name)`` and
``@RULES.legal(kind)`` (see engine/registry.py)."""

from __future__ import annotations

from struggle_desktop.engine.registry import RulesRegistry

RULES = RulesRegistry()
