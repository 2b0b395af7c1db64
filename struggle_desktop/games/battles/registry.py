"""The Battles rules' procedures and prompts (see engine/registry.py)."""

from __future__ import annotations

from struggle_desktop.engine.registry import RulesRegistry

RULES = RulesRegistry()
PROCEDURES = RULES.procedures
LEGAL = RULES.legal_actions
procedure = RULES.procedure
legal = RULES.legal
