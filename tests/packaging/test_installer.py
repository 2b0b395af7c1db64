"""``install.sh`` and ``uninstall.sh`` (packaging/linux) against the homes they meet.

The tarball is packed by ``packaging/build.py``'s own ``linux_tarball`` around a stand-in
program (a shell script), so these tests run in a second and need no PyInstaller; the real
bundle's install is tests/packaging/test_bundle.py's. Checked here:

* a ``~/.local/bin/struggle-desktop`` that the installer did not make (a pipx or pip link) is
  kept, the installer says so, and neither it nor the uninstaller touches it, also when it
  took the name over after the install;
* an upgrade removes what the old release put in place and the new one no longer ships, and
  an install that stops half-way leaves the old release's files listed for the uninstaller;
* a home folder whose name holds ``%``, spaces, tabs, quotes, ``$`` or a backslash gets menu
  entries that desktop-file-validate accepts and whose Exec line, read by the rules of the
  Desktop Entry Specification, names the installed program; the paths the installer prints
  are quoted so that they can be pasted into a shell;
* the menu entries carry the program's name.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "io.github.struggledesktop.StruggleDesktop"
STAND_IN = "#!/bin/sh\necho \"stand-in struggle-desktop $*\"\n"
OLD_ICON = "share/icons/hicolor/48x48/apps/old-release-only.png"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None or os.name != "posix",
                                reason="the installer is a POSIX shell script")


def load_build():
    spec = importlib.util.spec_from_file_location("packaging_build", ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def release(folder: Path, extra: str | None = None) -> Path:
    """An unpacked tarball made by build.py around the stand-in program (``extra``: one more
    file under share/, as an older release might have shipped)."""
    dist = folder / "dist"
    program = dist / "struggle-desktop" / "struggle-desktop"
    program.parent.mkdir(parents=True)
    program.write_text(STAND_IN)
    program.chmod(0o755)
    (program.parent / "THIRD-PARTY-NOTICES.txt").write_text("stand-in notices\n")
    tarball = load_build().linux_tarball(dist)
    with tarfile.open(tarball) as archive:
        archive.extractall(folder / "unpacked")
    (unpacked,) = (folder / "unpacked").iterdir()
    if extra:
        (unpacked / extra).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(unpacked / "share/icons/hicolor/48x48/apps" / f"{APP_ID}.png",
                        unpacked / extra)
    return unpacked


def run(script: Path, home: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    done = subprocess.run(["/bin/sh", str(script)], env=env, cwd=home.parent,
                          capture_output=True, text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def manifest(home: Path) -> list[str]:
    return (home / ".local/lib/struggle-desktop/installed-files.txt").read_text().splitlines()


#: The desktop's own databases, which the scripts bring up to date (where the tools exist)
#: but do not own.
DESKTOP_CACHES = re.compile(r"^\.local/share/(mime/(?!packages/)|applications/mimeinfo\.cache$"
                            r"|icons/hicolor/icon-theme\.cache$)")


def files_under(home: Path) -> set[str]:
    """The files and links under ``home`` less the desktop's databases."""
    found = {str(path.relative_to(home)) for path in home.rglob("*")
             if path.is_file() or path.is_symlink()}
    return {path for path in found if not DESKTOP_CACHES.match(path)}


@pytest.fixture
def home(tmp_path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def pipx_command(home) -> Path:
    """What ``pipx install`` leaves: ~/.local/bin/struggle-desktop linked into its own venv."""
    theirs = home / ".local/share/pipx/venvs/struggle-desktop/bin/struggle-desktop"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/sh\necho pipx\n")
    theirs.chmod(0o755)
    return theirs


# --- a command the installer did not make -----------------------------------------------------

def test_install_keeps_a_command_it_did_not_make(tmp_path, home, pipx_command):
    link = home / ".local/bin/struggle-desktop"
    link.parent.mkdir(parents=True)
    link.symlink_to(pipx_command)
    done = run(release(tmp_path) / "install.sh", home)
    assert os.readlink(link) == str(pipx_command)
    assert "is not this program's" in done.stderr and "kept" in done.stderr
    program = home / ".local/lib/struggle-desktop/struggle-desktop"
    assert f"or with: {shlex.quote(str(program))}" in done.stdout or \
        f"or with: '{program}'" in done.stdout
    assert str(link) not in manifest(home)

    run(home / ".local/lib/struggle-desktop/uninstall.sh", home)
    assert os.readlink(link) == str(pipx_command)


def test_uninstall_leaves_a_link_another_installer_took_over(tmp_path, home, pipx_command):
    run(release(tmp_path) / "install.sh", home)
    link = home / ".local/bin/struggle-desktop"
    assert link.resolve() == (home / ".local/lib/struggle-desktop/struggle-desktop").resolve()
    assert str(link) in manifest(home)
    # `pipx install --force` afterwards: the name is theirs now.
    link.unlink()
    link.symlink_to(pipx_command)
    done = run(home / ".local/lib/struggle-desktop/uninstall.sh", home)
    assert os.readlink(link) == str(pipx_command)
    assert "points elsewhere" in done.stderr
    assert not (home / ".local/lib/struggle-desktop").exists()


# --- upgrades -----------------------------------------------------------------------------------

def test_an_upgrade_removes_what_only_the_old_release_shipped(tmp_path, home):
    run(release(tmp_path / "old", extra=OLD_ICON) / "install.sh", home)
    old_file = home / ".local" / OLD_ICON
    assert old_file.is_file() and str(old_file) in manifest(home)

    run(release(tmp_path / "new") / "install.sh", home)
    assert not old_file.exists()
    assert str(old_file) not in manifest(home)
    assert all(os.path.lexists(path) for path in manifest(home))
    assert not list((home / ".local/lib/struggle-desktop").glob("*-files.txt.*"))

    run(home / ".local/lib/struggle-desktop/uninstall.sh", home)
    assert files_under(home) == set()


def test_a_failed_upgrade_leaves_the_old_files_listed(tmp_path, home):
    run(release(tmp_path / "old", extra=OLD_ICON) / "install.sh", home)
    installed_by_old = set(manifest(home))
    broken = release(tmp_path / "new")
    (broken / "share/mime/packages" / f"{APP_ID}.xml").unlink()    # stops half-way
    done = run(broken / "install.sh", home, check=False)
    assert done.returncode != 0
    assert installed_by_old <= set(manifest(home))

    run(home / ".local/lib/struggle-desktop/uninstall.sh", home)
    assert files_under(home) == set()


# --- menu entries for any home folder -----------------------------------------------------------

#: Characters the Desktop Entry Specification reserves in Exec (outside double quotes).
RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def string_value(text: str) -> str:
    """A string value of a desktop entry as the specification reads it (\\s \\n \\t \\r \\\\)."""
    return re.sub(r"\\([sntr\\])", lambda m: {"s": " ", "n": "\n", "t": "\t", "r": "\r",
                                              "\\": "\\"}[m[1]], text)


def exec_arguments(value: str) -> list[str]:
    """The arguments of an Exec value, by the specification: string escapes first, then
    arguments split at spaces, each quoted in "..." (inside which \\ escapes " ` $ \\) or free of
    reserved characters; then ``%%`` is a percent sign and ``%f`` the file (kept as ``%f``)."""
    assert not re.search(r"[\x00-\x1f]", value), "control characters in a string value"
    text = string_value(value)
    arguments, current, i = [], None, 0
    while i < len(text):
        char = text[i]
        if char == " ":
            if current is not None:
                arguments.append(current)
            current, i = None, i + 1
        elif char == '"':
            current, i = current or "", i + 1
            while text[i] != '"':
                if text[i] == "\\":
                    assert text[i + 1] in '"`$\\', f"bad escape in {value!r}"
                    current, i = current + text[i + 1], i + 2
                else:
                    current, i = current + text[i], i + 1
            i += 1
        else:
            assert char not in RESERVED, f"unquoted {char!r} in {value!r}"
            current, i = (current or "") + char, i + 1
    if current is not None:
        arguments.append(current)

    def codes(argument: str) -> str:
        if argument == "%f":
            return argument
        assert not re.search(r"%[^%]|%$", argument.replace("%%", "")), argument
        return argument.replace("%%", "%")
    return [codes(argument) for argument in arguments]


def entry_values(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines()
                if "=" in line)


@pytest.mark.parametrize("name", ["100% sure %f %u", "a space\tand a tab",
                                  "quote\" dollar$ back\\slash `tick`", "it's & (so) #1 ~;"],
                         ids=["percent", "space-tab", "quote-dollar-backslash", "apostrophe"])
def test_a_home_with_reserved_characters_gets_valid_menu_entries(tmp_path, name):
    home = tmp_path / name
    home.mkdir()
    done = run(release(tmp_path) / "install.sh", home)
    program = home / ".local/lib/struggle-desktop/struggle-desktop"
    applications = home / ".local/share/applications"
    for entry, arguments in ((f"{APP_ID}.desktop", []), (f"{APP_ID}.Open.desktop", ["open", "%f"])):
        values = entry_values(applications / entry)
        assert exec_arguments(values["Exec"]) == [str(program), *arguments]
        assert string_value(values["TryExec"]) == str(program)
        validator = shutil.which("desktop-file-validate")
        if validator is None:
            if os.environ.get("CI"):
                pytest.fail("desktop-file-validate is not installed (desktop-file-utils)")
            continue
        checked = subprocess.run([validator, str(applications / entry)], capture_output=True,
                                 text=True)
        complaints = [line for line in (checked.stdout + checked.stderr).splitlines()
                      if line.strip() and ": hint: " not in line]
        assert checked.returncode == 0 and not complaints, complaints

    # The printed way to remove it is one shell word, pasted as it is.
    (remove,) = [line.split(": ", 1)[1] for line in done.stdout.splitlines()
                 if line.startswith("To remove it: ")]
    assert shlex.split(remove) == [str(home / ".local/lib/struggle-desktop/uninstall.sh")]
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    removed = subprocess.run(["/bin/sh", "-c", remove], env=env, capture_output=True, text=True)
    assert removed.returncode == 0, removed.stderr
    assert files_under(home) == set()


def test_the_menu_entries_carry_the_programs_name(tmp_path, home):
    run(release(tmp_path) / "install.sh", home)
    for entry in (f"{APP_ID}.desktop", f"{APP_ID}.Open.desktop"):
        values = entry_values(home / ".local/share/applications" / entry)
        assert values["Name"] == "Struggle Desktop"
        assert "struggle_desktop" not in values["Name"] + values.get("Comment", "")
