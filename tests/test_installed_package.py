"""The program works from an installed, non-editable wheel, away from the source checkout.

A wheel is built with hatchling's own builder (the project's build backend), unzipped into a
temporary folder (which is what installing a pure-Python wheel amounts to), and the real
program is started there in subprocesses with ``PYTHONPATH=<that folder>``, an empty working
folder, no user site-packages and no script folder on ``sys.path`` (``-s -P``), and every other
``PYTHON*`` variable dropped. A first probe proves the checkout is out of reach: the package,
its ``_data`` folder (the ``assets/`` and ``scenarios/`` carried by the wheel, see
``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml) and every ``sys.path``
entry lie outside the checkout.

Then ``python -m struggle_desktop catalog --game struggle --json`` must list the 39 chaos
event marker kinds (100 markers) with the same data digest as the checkout, and a 2-game
``simulate`` must complete both games with the same digest as the checkout's program.

Rules: SGE-POOL-1 (the 39 kinds of chaos event markers, 100 in all, found from the installed
data files).
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIMULATE = ["simulate", "--game", "struggle", "--scenario", "3", "--games", "2", "--seed", "7",
            "--json"]

PROBE = """
import json, sys
import struggle_desktop
from struggle_desktop.engine import paths
print(json.dumps({"package": struggle_desktop.__file__, "data": str(paths.data_root()),
                  "sys_path": sys.path, "flags": [sys.flags.no_user_site,
                                                   sys.flags.safe_path]}))
"""


def clean_env(home: Path, pythonpath: Path) -> dict[str, str]:
    """The program's folder first on the path, then the test environment's site-packages for
    its dependencies, read without their ``.pth`` files (``-S`` below): an editable install of
    this checkout puts the checkout on the path through one, which would make every run here
    the checkout's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=os.pathsep.join([str(pythonpath), *site.getsitepackages()]),
               STRUGGLE_DESKTOP_HOME=str(home), PYTHONDONTWRITEBYTECODE="1",
               PYTHONHASHSEED="0")
    return env


def run_program(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-S", "-s", "-P", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done


def inside(path: str | Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The project's wheel, built by hatchling and unzipped: the folder to put on PYTHONPATH."""
    pytest.importorskip("hatchling")
    from hatchling.builders.wheel import WheelBuilder

    dist = tmp_path_factory.mktemp("dist")
    wheels = list(WheelBuilder(str(ROOT)).build(directory=str(dist), versions=["standard"]))
    assert len(wheels) == 1 and wheels[0].endswith(".whl")
    site = tmp_path_factory.mktemp("site-packages")
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
        wheel.extractall(site)
    assert "struggle_desktop/__main__.py" in names
    assert any(n.startswith("struggle_desktop/_data/scenarios/struggle/") for n in names)
    assert any(n.startswith("struggle_desktop/_data/assets/tables/struggle/") for n in names)
    # The player's guide (Help -> How to Play) and the screenshots it shows.
    assert "struggle_desktop/_data/docs/playing.md" in names
    assert any(n.startswith("struggle_desktop/_data/docs/screenshots/") for n in names)
    assert not any(n.startswith(("tests/", "assets/", "scenarios/")) for n in names), \
        "only the package (with its _data) goes into the wheel"
    # The version is written once, in struggle_desktop/__init__.py: the wheel's name and its
    # metadata carry that one.
    from struggle_desktop import __version__
    assert Path(wheels[0]).name.startswith(f"struggle_desktop-{__version__}-")
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert f"\nVersion: {__version__}\n" in (site / metadata).read_text(encoding="utf-8")
    return site


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> tuple[Path, Path]:
    """An empty working folder and a private user folder."""
    return tmp_path_factory.mktemp("cwd"), tmp_path_factory.mktemp("home")


def test_the_checkout_is_out_of_reach(installed, workdir):
    cwd, home = workdir
    done = run_program(["-c", PROBE], clean_env(home, installed), cwd)
    probe = json.loads(done.stdout)
    assert inside(probe["package"], installed), probe["package"]
    assert inside(probe["data"], installed) and Path(probe["data"]).name == "_data"
    assert probe["flags"] == [1, True]
    # No entry reaches the checkout's own package. (An entry may still lie inside the
    # checkout: the README keeps its virtual environment in .venv there.)
    checkout_package = (ROOT / "struggle_desktop").resolve()
    for entry in probe["sys_path"]:
        assert not (entry and (Path(entry) / "struggle_desktop").resolve() == checkout_package), \
            f"the checkout is on sys.path: {entry}"


def test_catalog_from_the_installed_package(installed, workdir):
    """SGE-POOL-1: 39 kinds of chaos event markers, 100 markers, read from the wheel's data."""
    cwd, home = workdir
    done = run_program(["-m", "struggle_desktop", "catalog", "--game", "struggle", "--json"],
                       clean_env(home, installed), cwd)
    catalog = json.loads(done.stdout)
    events = catalog["events"]
    assert events["kinds"] == len(events["markers"]) == 39
    assert events["total"] == 100
    assert [s["id"] for s in catalog["scenarios"]] == ["1", "2", "3", "4", "5", "6", "7"]
    assert catalog["map"]["sectors"] == 76 and len(catalog["tables"]) >= 20
    assert catalog["overrides"] == {}
    checkout = run_program(["-m", "struggle_desktop", "catalog", "--game", "struggle", "--json"],
                           clean_env(home, ROOT), cwd)
    assert catalog["data_digest"] == json.loads(checkout.stdout)["data_digest"], \
        "the wheel carries the same tables, map and scenarios as the checkout"
    assert catalog == json.loads(checkout.stdout)
    assert list(cwd.iterdir()) == [], "the program wrote nothing into the working folder"


def test_simulate_from_the_installed_package(installed, workdir):
    cwd, home = workdir
    done = run_program(["-m", "struggle_desktop", *SIMULATE], clean_env(home, installed), cwd)
    summary = json.loads(done.stdout)
    assert (summary["games"], summary["completed"], summary["errors"]) == (2, 2, 0)
    assert sum(summary["outcomes"].values()) == 2
    checkout = run_program(["-m", "struggle_desktop", *SIMULATE], clean_env(home, ROOT), cwd)
    assert summary["digest"] == json.loads(checkout.stdout)["digest"], \
        "the installed program plays the very same games as the checkout"
    assert list(cwd.iterdir()) == []


def test_the_version_is_written_in_one_place():
    """pyproject.toml takes the version from struggle_desktop/__init__.py: no second copy to
    forget when a release is made."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "struggle_desktop/__init__.py"
