"""The self-contained Linux bundle, as a player without Python gets it.

The module builds the bundle and its tarball from this checkout with the one build command
(``packaging/build.py``), unpacks the tarball, runs ``install.sh`` into a scratch home folder
and then uses the installed program from a folder of its own, with an environment that names
no Python: ``PATH`` holds the system's tools less every ``python*``/``pip*``, and no
``PYTHONPATH``, ``PYTHONHOME`` or ``STRUGGLE_DESKTOP_HOME`` is set. It checks that

* the window starts under a virtual screen (Xvfb), plays a few steps by autopilot and saves,
  and the running process maps no file of the Python that built it;
* ``verify``, ``render`` and ``simulate`` work, and ``simulate`` gives the digest the
  installed package gives;
* the hidden menu entry's command line opens a save (what a double-click runs);
* the program writes only to the per-user folders, never into its own folder, which is
  mounted read-only for the runs where the machine allows it (a mount namespace);
* the bundle carries LICENSE and third-party notices covering every library and package in
  it, its libraries carry no debug information, and it leaves out what the program never runs;
* ``uninstall.sh`` removes what ``install.sh`` listed and keeps the player's files.

Building takes about 40 s on a 2-core machine. Without PyInstaller or Xvfb the module is
skipped, except where ``CI`` is set (``.ci/run`` installs both): there it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import struggle_desktop
from tests.virtual_screen import virtual_screen as start_virtual_screen

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "io.github.struggledesktop.StruggleDesktop"
SAVE_START = '{"format":"struggle-desktop-save"'
#: Commands that are, or start, a Python: none may be on the bundle's PATH.
PYTHON_NAMES = re.compile(r"^(python|pip|pydoc|idle|2to3|pyenv|pytest|hatch)")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="the Linux bundle is built on Linux only")]


def missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI installs it)")
    pytest.skip(what)


@dataclass
class Installation:
    home: Path
    program: Path          # ~/.local/bin/struggle-desktop, the link install.sh makes
    folder: Path           # ~/.local/lib/struggle-desktop, the bundle
    elsewhere: Path        # the folder the program is run from
    env: dict[str, str]
    read_only: bool        # whether runs see the bundle's folder mounted read-only
    unpacked: Path         # the unpacked tarball

    def command(self, args: list[str]) -> list[str]:
        """``args`` run with the bundle's folder read-only where a mount namespace is allowed."""
        if not self.read_only:
            return args
        folder = shlex.quote(str(self.folder))
        return ["unshare", "--mount", "--", "/bin/sh", "-c",
                f"mount --bind -o ro {folder} {folder} && exec \"$@\"", "sh", *args]

    def run(self, *args: str, extra_env: dict | None = None, timeout: float = 180):
        return subprocess.run(self.command([str(self.program), *args]), cwd=self.elsewhere,
                              env={**self.env, **(extra_env or {})}, capture_output=True,
                              text=True, timeout=timeout)


def path_without_python(folder: Path) -> str:
    """A folder of links to the system's commands, less every Python: the bundle's PATH."""
    folder.mkdir()
    for system in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        if not os.path.isdir(system):
            continue
        for name in os.listdir(system):
            target = folder / name
            if PYTHON_NAMES.match(name) or target.exists() or target.is_symlink():
                continue
            target.symlink_to(os.path.join(system, name))
    assert shutil.which("python3", path=str(folder)) is None
    return str(folder)


def read_only_mounts_work(probe: Path) -> bool:
    """Whether this machine lets the test mount a folder read-only in a namespace of its own."""
    probe.mkdir()
    done = subprocess.run(
        ["unshare", "--mount", "--", "/bin/sh", "-c",
         f"mount --bind -o ro {probe} {probe} && ! touch {probe}/x"],
        capture_output=True) if shutil.which("unshare") else None
    return done is not None and done.returncode == 0 and not (probe / "x").exists()


def listing(folder: Path) -> dict[str, tuple]:
    """Every file and folder under ``folder`` with its size, time and mode."""
    out = {}
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        out[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns, info.st_mode)
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installation:
    if importlib.util.find_spec("PyInstaller") is None:
        missing("PyInstaller is not installed")
    root = tmp_path_factory.mktemp("bundle")
    built = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"),
                            "--dist", str(root / "dist"), "--work", str(root / "work")],
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    tarballs = list((root / "dist").glob("struggle-desktop-*-linux-*.tar.gz"))
    assert [t.name.split("-")[2] for t in tarballs] == [struggle_desktop.__version__]
    with tarfile.open(tarballs[0]) as archive:
        # Our own tarball; the extraction filters came in Python 3.11.4 (Debian 12 has 3.11.2).
        safe = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}
        archive.extractall(root / "unpacked", **safe)
    shutil.rmtree(root / "dist" / "struggle-desktop")   # the installed copy is the one used
    shutil.rmtree(root / "work")
    (unpacked,) = (root / "unpacked").iterdir()

    home, elsewhere = root / "home", root / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    env = {"HOME": str(home), "PATH": path_without_python(root / "tools"), "LANG": "C.UTF-8"}
    done = subprocess.run(["/bin/sh", str(unpacked / "install.sh")], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = home / ".local" / "lib" / "struggle-desktop"
    program = home / ".local" / "bin" / "struggle-desktop"
    assert program.resolve() == (folder / "struggle-desktop").resolve()
    return Installation(home, program, folder, elsewhere, env,
                        read_only_mounts_work(root / "probe"), unpacked)


@pytest.fixture(scope="module")
def untouched(installed):
    """The bundle's folder as installed, to compare with after every run."""
    return listing(installed.folder)


@pytest.fixture(scope="module")
def virtual_screen():
    if shutil.which("Xvfb") is None:
        missing("Xvfb is not installed")
    with start_virtual_screen("1366x768", 121) as display:
        yield display


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()[1][-3000:]
        assert time.monotonic() < deadline, f"{path.name} did not appear"
        time.sleep(0.05)


def python_installation() -> tuple[tuple[str, ...], set[str]]:
    """The folders and the programs of the Python that runs these tests: its environment, the
    base interpreter's library folders (not its whole prefix: on Debian that is ``/usr``,
    where the system libraries every program maps live too), its executables, and this
    checkout."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
    folders = {sys.prefix, sys.exec_prefix, str(ROOT),
               *(sysconfig.get_path(key, vars=base)
                 for key in ("stdlib", "platstdlib", "purelib", "platlib"))}
    # Debian keeps its Python packages in a folder of its own, lib/python3/dist-packages.
    folders |= {str(path) for path in Path(sys.base_prefix, "lib").glob("python3*")}
    programs = {str(Path(p).resolve()) for p in (sys.executable, sys._base_executable)}
    return tuple(str(Path(f).resolve()) + "/" for f in folders), programs


def python_files_mapped(pid: int, bundle: Path) -> list[str]:
    """The files of the Python that runs these tests (its installation, its libpython and
    this checkout's sources) that process ``pid`` has mapped: none, for a self-contained
    program (whose own libpython lies in ``bundle``)."""
    folders, programs = python_installation()
    inside_bundle = str(bundle.resolve()) + "/"
    mapped = set()
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].startswith("/"):
            mapped.add(fields[5])
    return sorted(path for path in mapped if not path.startswith(inside_bundle) and (
        path.startswith(folders) or path in programs
        or Path(path).name.startswith("libpython")))


# ------------------------------------------------------------------------------------- tests
def test_the_bundle_names_this_version(installed):
    done = installed.run("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"struggle-desktop "
                                                         f"{struggle_desktop.__version__}")


def test_the_window_plays_and_saves_with_no_python(installed, untouched, virtual_screen):
    save, ready, go_on = (installed.elsewhere / name for name in
                          ("first.sgsave", "ready.json", "go-on"))
    env = {**installed.env, "DISPLAY": virtual_screen,
           "STRUGGLE_DESKTOP_AUTOPILOT": f"steps=4;save={save};mark={ready};await={go_on};quit"}
    process = subprocess.Popen(
        installed.command([str(installed.program), "play", "--game", "struggle", "--scenario",
                           "3", "--seed", "4"]),
        cwd=installed.elsewhere, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        wait_for(ready, process)
        maps = Path(f"/proc/{process.pid}/maps").read_text()
        assert f"{installed.folder.resolve()}/_internal/libpython3" in maps
        assert python_files_mapped(process.pid, installed.folder) == []
        go_on.touch()
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err[-3000:]
    assert "Traceback" not in err
    assert save.read_text(encoding="utf-8").startswith(SAVE_START)
    assert listing(installed.folder) == untouched


def test_the_commands_work_from_another_folder(installed, untouched, virtual_screen):
    save = installed.elsewhere / "first.sgsave"
    if not save.exists():
        pytest.skip("needs the save the window test writes")
    verified = installed.run("verify", str(save), "--json")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["actions"] == 4

    picture = installed.elsewhere / "map.png"
    drawn = installed.run("render", str(save), "--out", str(picture), "--size", "800x500")
    assert drawn.returncode == 0, drawn.stderr
    from PySide6.QtGui import QImage
    image = QImage(str(picture))
    assert (image.width(), image.height()) == (800, 500)

    arguments = ["simulate", "--game", "struggle", "--scenario", "1", "--games", "4",
                 "--seed", "3", "--jobs", "2", "--json"]
    bundled = installed.run(*arguments)
    assert bundled.returncode == 0, bundled.stderr
    result = json.loads(bundled.stdout)
    assert (result["completed"], result["errors"]) == (4, 0)
    here = subprocess.run([sys.executable, "-m", "struggle_desktop", *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert json.loads(here.stdout)["digest"] == result["digest"]

    refused = installed.run("verify", str(installed.elsewhere / "no-such.sgsave"))
    assert refused.returncode == 2 and refused.stderr.startswith("error:")
    assert "Traceback" not in refused.stderr
    assert listing(installed.folder) == untouched


def test_the_bundle_forecasts_and_branches(installed, untouched, virtual_screen):
    """The features that start worker processes or replay part of a game, from the bundle:
    the window's Forecast panel (its workers are the bundle's own executable, started
    afresh), the command-line forecast with two workers, and branch."""
    save = installed.elsewhere / "first.sgsave"
    if not save.exists():
        pytest.skip("needs the save the window test writes")
    texts = installed.elsewhere / "forecast.json"
    done = subprocess.run(
        installed.command([str(installed.program), "open", str(save)]),
        cwd=installed.elsewhere, capture_output=True, text=True, timeout=300,
        env={**installed.env, "DISPLAY": virtual_screen,
             "STRUGGLE_DESKTOP_AUTOPILOT": f"forecast=40;back=2;texts={texts};quit"})
    assert done.returncode == 0, done.stderr[-3000:]
    shown = json.loads(texts.read_text())
    assert "40 games" in shown["forecast"] and shown["timeline"].startswith("Action 2 of 4")
    forecast = installed.run("forecast", str(save), "--games", "20", "--jobs", "2", "--json")
    assert forecast.returncode == 0, forecast.stderr
    result = json.loads(forecast.stdout)
    assert result["completed"] == sum(result["outcomes"].values()) == 20
    branched = installed.elsewhere / "branch.sgsave"
    assert installed.run("branch", str(save), "--at", "2", "--out", str(branched)).returncode == 0
    assert installed.run("verify", str(branched)).returncode == 0
    assert listing(installed.folder) == untouched


def test_a_double_click_on_a_save_opens_it(installed, untouched, virtual_screen):
    """What a file manager runs for a save: the hidden entry's Exec line with the file."""
    save = installed.elsewhere / "first.sgsave"
    if not save.exists():
        pytest.skip("needs the save the window test writes")
    entry = installed.home / ".local/share/applications" / f"{APP_ID}.Open.desktop"
    (exec_line,) = [line.split("=", 1)[1] for line in entry.read_text().splitlines()
                    if line.startswith("Exec=")]
    # The entry names the installed program by its full path (no PATH needed) and nothing of
    # this checkout.
    words = [str(save) if word == "%f" else word for word in shlex.split(exec_line)]
    assert Path(words[0]) == installed.folder / "struggle-desktop"
    texts = installed.elsewhere / "texts.json"
    done = subprocess.run(installed.command(words), cwd=installed.elsewhere,
                          env={**installed.env, "DISPLAY": virtual_screen,
                               "STRUGGLE_DESKTOP_AUTOPILOT": f"texts={texts};quit"},
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "first.sgsave" in json.loads(texts.read_text())["title"]
    assert listing(installed.folder) == untouched


def test_it_writes_only_to_the_per_user_folders(installed, untouched):
    """After the runs above: the bundle's folder is as installed, and everything the program
    wrote in the home folder is in its per-user folders (settings, autosaves, caches)."""
    assert listing(installed.folder) == untouched
    manifest = set((installed.folder / "installed-files.txt").read_text().split())
    allowed = [installed.home / ".config" / "struggle_desktop",
               installed.home / ".local" / "share" / "struggle_desktop",
               installed.home / ".cache",                      # the program's and fontconfig's
               # the desktop's databases, which install.sh brings up to date
               installed.home / ".local" / "share" / "mime",
               installed.home / ".local" / "share" / "applications" / "mimeinfo.cache",
               installed.home / ".local" / "share" / "icons" / "hicolor" / "icon-theme.cache",
               installed.folder]
    strays = [path for path in installed.home.rglob("*")
              if path.is_file() and str(path) not in manifest
              and not any(path == a or a in path.parents for a in allowed)]
    assert strays == []
    assert list((installed.home / ".local" / "share" / "struggle_desktop").rglob("autosave*"))


NOTICES = "THIRD-PARTY-NOTICES.txt"


def test_the_licence_and_notices_travel_with_the_program(installed):
    """LICENSE and the notices beside the executable and at the top of the tarball, with
    the README."""
    for folder in (installed.unpacked, installed.folder):
        assert (folder / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert (installed.unpacked / "README.md").read_bytes() == (ROOT / "README.md").read_bytes()
    assert (installed.unpacked / NOTICES).read_bytes() == (installed.folder / NOTICES).read_bytes()


def test_the_notices_cover_every_library_and_package(installed):
    """Every shared library anywhere in the bundle and every package, module and library at
    the top of _internal is listed under a component that names its licence and ships its
    text; Qt's part says what the LGPL asks of a program that bundles it."""
    text = (installed.folder / NOTICES).read_text(encoding="utf-8")
    internal = installed.folder / "_internal"
    carried = {"struggle-desktop"}
    carried |= {str(path.relative_to(installed.folder)) for path in internal.iterdir()
                if not path.is_symlink()}
    carried |= {str(path.relative_to(installed.folder)) for path in internal.rglob("*")
                if re.search(r"\.so(\.\d+)*$", path.name) and not path.is_symlink()}
    listed = {line[4:] for line in text.splitlines() if line.startswith("  - ")}
    assert sorted(carried - listed) == []
    components, _, texts = text.partition("\n== Licence texts\n")
    for part in components.split("\n== ")[1:]:
        assert re.search(r"^Licence: \S", part, re.M), part[:200]
        assert re.search(r"^Licence texts: T\d", part, re.M), part[:200]
    for name in ("libpython3", "libQt6Core", "libicudata", "libscipy_openblas", "libgfortran"):
        assert any(name in item for item in listed), name
    assert "nothing of Qt is linked statically" in text and "your own build" in text
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in texts and "GNU GENERAL PUBLIC LICENSE" in texts
    assert "PYTHON SOFTWARE FOUNDATION LICENSE" in texts.upper()


def test_the_bundle_is_stripped_and_pruned(installed):
    """No debug information in the shared libraries, none of the modules the program never
    runs (test tools, debugger, help topics, readline) and only the screenshots the guide
    shows."""
    internal = installed.folder / "_internal"
    readelf = shutil.which("readelf")
    if readelf is None:
        missing("readelf is not installed (binutils)")
    for library in [*internal.glob("libpython3*.so*"), *internal.glob("yaml/_yaml*.so"),
                    *internal.glob("python3*/lib-dynload/_decimal*.so")]:
        sections = subprocess.run([readelf, "-S", "-W", str(library)], capture_output=True,
                                  text=True, check=True).stdout
        assert ".debug_info" not in sections, library.name
    for module in ("unittest", "doctest", "pdb.pyc", "bdb.pyc", "pydoc_data",
                   "numpy/testing", "numpy/f2py"):
        assert not (internal / module).exists(), module
    assert not list(internal.rglob("readline*.so")) and not list(internal.glob("libreadline*"))
    guide = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\]\(screenshots/([^)]+)\)", guide))
    bundled = {path.name for path in
               (internal / "struggle_desktop/_data/docs/screenshots").iterdir()}
    assert shown and bundled == shown


def test_uninstall_removes_what_install_put_and_keeps_the_games(installed):
    manifest = (installed.folder / "installed-files.txt").read_text().split()
    autosaves = list((installed.home / ".local/share/struggle_desktop").rglob("autosave*"))
    done = subprocess.run(["/bin/sh", str(installed.folder / "uninstall.sh")],
                          cwd=installed.elsewhere, env=installed.env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not installed.folder.exists()
    assert [path for path in manifest if os.path.lexists(path)] == []
    assert autosaves and all(path.exists() for path in autosaves)
