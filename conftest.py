"""Settings for the whole test run, the tests and the doctests of ``struggle_desktop``
alike: Qt runs offscreen, and user folders point into a temporary place."""

import atexit
import json
import os
import tempfile

#: The offscreen screen the window tests run on: a common desktop monitor. Windows size
#: themselves from the screen (ui/fit.py), and Qt's own offscreen default is 800x600;
#: tests/ui/test_window_fits.py checks the laptop screen (1366x768) in processes of its own.
TEST_SCREEN = {"name": "desktop", "x": 0, "y": 0, "width": 1920, "height": 1080,
               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}


def offscreen_platform(screen: dict) -> str:
    """A ``QT_QPA_PLATFORM`` value for the offscreen platform with one screen like ``screen``."""
    handle, path = tempfile.mkstemp(prefix="struggle-screen-", suffix=".json")
    with os.fdopen(handle, "w") as file:
        json.dump({"screens": [screen]}, file)
    atexit.register(os.remove, path)   # child processes started by tests read it meanwhile
    return f"offscreen:configfile={path}"


def run_on_screen(probe: str, home, width: int = 1366, height: int = 768,
                  timeout: int = 300):
    """Run the Python source ``probe`` in a child process whose offscreen screen is
    ``width`` x ``height`` (a process's screen is fixed when its application starts), with
    its user folders under ``home`` and the checkout as ``sys.argv[1]``; returns the JSON the
    probe printed on its last line. A window test at a laptop's size runs this way."""
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, STRUGGLE_DESKTOP_HOME=str(home),
               QT_QPA_PLATFORM=offscreen_platform(
                   {"name": "probe", "x": 0, "y": 0, "width": width, "height": height,
                    "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}))
    root = Path(__file__).resolve().parent
    done = subprocess.run([sys.executable, "-c", probe, str(root)], capture_output=True,
                          text=True, env=env, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# Must be set before any QApplication exists; without a display pytest would abort.
if "QT_QPA_PLATFORM" not in os.environ:
    os.environ["QT_QPA_PLATFORM"] = offscreen_platform(TEST_SCREEN)

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    """Keep tests and doctests away from the real user's config, overrides, autosaves and
    cache."""
    home = tmp_path_factory.mktemp("user-home")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(home))
    yield


@pytest.fixture(scope="session")
def qapp():
    """The tests' QApplication is the program's own (``make_application``: its bundled font
    and names), so that a window measured in a test is laid out as the player's is. (Made by
    pytest-qt, it had Qt's default font, and a test at a laptop's size passed alone but
    failed after a test that had started the program in-process.)"""
    from struggle_desktop.ui.app import make_application
    return make_application()


def pytest_terminal_summary(terminalreporter):
    """The releases this run tested, written before the closing line (also with ``-q``): CI
    installs the newest each declared range allows, so its log says which versions a green
    (or red) run was for."""
    from importlib import metadata
    names = ["PySide6-Essentials", "PyYAML", "networkx", "jsonschema", "platformdirs",
             "pyqtgraph", "numpy", "pytest-qt", "hypothesis", "pyinstaller"]
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    terminalreporter.write_line("tested with: " + ", ".join(found))
