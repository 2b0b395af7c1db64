"""The layer rules of ARCHITECTURE.md section 1, checked by reading every import with ``ast``.

- ``engine`` imports nothing from ``games``, ``ui``, the command line or PySide6;
- ``games.<g>`` imports ``engine`` and its own package only: never ``ui``, PySide6, the command
  line or another game;
- the command line and the simulator work headless: no PySide6 and no ``ui`` at import time
  (the GUI is loaded by name only when a GUI command runs).

The import-linter contracts of pyproject.toml are run as well.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "struggle_desktop"
TOP = "struggle_desktop"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str | None = None) -> set[str]:
    """Every module ``path`` (the module ``name``) imports, relative imports resolved to
    absolute names."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            # ``from pkg import sub`` may import the sub-module ``pkg.sub``.
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


@lru_cache(maxsize=None)
def all_imports() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def in_a_game(name: str) -> bool:
    """``name`` is (in) a game's package, not the registry ``games`` itself or a name it
    exports (``from struggle_desktop.games import get_game`` reads as ``games.get_game``)."""
    return any(within(name, f"{TOP}.games.{game}") for game in game_packages())


def violations(source_prefix: str, allowed) -> list[str]:
    bad = []
    for module, imported in all_imports().items():
        if within(module, source_prefix):
            bad += [f"{module} imports {target}" for target in sorted(imported)
                    if not allowed(module, target)]
    return bad


def is_gui(target: str) -> bool:
    return within(target, "PySide6") or within(target, f"{TOP}.ui")


def test_the_package_is_found():
    assert f"{TOP}.engine.flow" in all_imports() and f"{TOP}.cli" in all_imports()


def test_engine_is_game_agnostic_and_headless():
    def allowed(module: str, target: str) -> bool:
        if is_gui(target):
            return False
        if within(target, TOP):
            # The engine may read the package version and use its own modules only.
            return target in (TOP, f"{TOP}.__version__") or within(target, f"{TOP}.engine")
        return True

    assert violations(f"{TOP}.engine", allowed) == []


def game_packages() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir()
                  if (p / "__init__.py").is_file())


@pytest.mark.parametrize("game", game_packages())
def test_a_game_imports_the_engine_and_its_own_package_only(game):
    own = f"{TOP}.games.{game}"

    def allowed(module: str, target: str) -> bool:
        if is_gui(target):
            return False
        if within(target, TOP):
            return (target in (TOP, f"{TOP}.__version__") or within(target, f"{TOP}.engine")
                    or within(target, own))
        return True

    assert violations(own, allowed) == []


def test_the_registry_imports_no_game_statically():
    """games/__init__.py names the games as strings and imports them on first use."""
    imported = all_imports()[f"{TOP}.games"]
    assert not [t for t in imported if in_a_game(t)]


def test_the_ui_talks_to_games_only_through_the_game_module_interface():
    """ARCHITECTURE section 1: ui may use the registry (``games``), never a game's rules
    modules; it reaches the game object with ``get_game``."""
    def allowed(module: str, target: str) -> bool:
        return not in_a_game(target) and not within(target, f"{TOP}.cli")

    assert violations(f"{TOP}.ui", allowed) == []


def test_the_ui_rule_catches_a_window_that_imports_a_rules_module(tmp_path, monkeypatch):
    """The rule itself can fail: a ui module that imports a game's rules module (as four
    Freedom screens once did, unseen: the check compared against ``games..``) is reported."""
    path = tmp_path / "panel.py"
    path.write_text("from struggle_desktop.games.freedom.deck import describe_roll\n"
                    "from struggle_desktop.games import get_game\n", encoding="utf-8")
    found = dict(all_imports(), **{f"{TOP}.ui.freedom.panel": imports_of(
        path, f"{TOP}.ui.freedom.panel")})
    monkeypatch.setattr(sys.modules[__name__], "all_imports", lambda: found)
    assert violations(f"{TOP}.ui", lambda m, t: not in_a_game(t)) == [
        f"{TOP}.ui.freedom.panel imports {TOP}.games.freedom.deck",
        f"{TOP}.ui.freedom.panel imports {TOP}.games.freedom.deck.describe_roll"]


@pytest.mark.parametrize("module", [f"{TOP}.cli", f"{TOP}.simulate", f"{TOP}.__main__"])
def test_command_line_is_headless(module):
    assert not [t for t in all_imports()[module] if is_gui(t)]


def test_the_checker_sees_violations(tmp_path):
    """The checker itself: a relative import into another game is resolved and caught."""
    path = tmp_path / "mod.py"
    path.write_text("from ..battles import rules\nfrom . import combat\nimport PySide6.QtCore\n",
                    encoding="utf-8")
    found = imports_of(path, f"{TOP}.games.struggle.mod")
    assert {f"{TOP}.games.battles.rules", f"{TOP}.games.struggle.combat",
            "PySide6.QtCore"} <= found


def test_import_linter_contracts():
    """Run the layer contracts declared in pyproject.toml with import-linter."""
    pytest.importorskip("importlinter")
    run = subprocess.run([sys.executable, "-c",
                          "import sys; from importlinter.cli import lint_imports_command; "
                          "sys.exit(lint_imports_command())"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
