"""The Linux desktop integration in packaging/linux: menu entries, AppStream metadata, the MIME
type of saved games and the icons.

The freedesktop tools judge the files, not this test's reading of the specifications:
``desktop-file-validate`` (Debian package desktop-file-utils) the two ``.desktop`` entries,
``appstreamcli validate`` (appstream) the metainfo, and ``update-mime-database``
(shared-mime-info) builds a MIME database from the package in a temporary data folder, which
Qt's ``QMimeDatabase`` then reads in a child process that sees no other one. Without a tool its
tests are skipped, naming the package to install; where the environment variable ``CI`` is set
(CI installs them) a missing tool fails instead.

The program's own files are the other half of the contract: the release in the metainfo is
``struggle_desktop.__version__``, its screenshots are files in docs/screenshots, the command
named by the entries is the one pyproject.toml installs, and the icons are renderings of
assets/icons/struggle-desktop.svg at every size (packaging/make_icons.py writes them).
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

import struggle_desktop

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
APP_ID = "io.github.struggledesktop.StruggleDesktop"
DESKTOP = LINUX / f"{APP_ID}.desktop"
OPEN_DESKTOP = LINUX / f"{APP_ID}.Open.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
MIME_XML = LINUX / f"{APP_ID}.mime.xml"
MASTER_ICON = ROOT / "assets" / "icons" / "struggle-desktop.svg"
THEME = LINUX / "icons" / "hicolor"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SCREENSHOTS = ROOT / "docs" / "screenshots"
SCREENSHOT_URL = ("https://raw.githubusercontent.com/struggledesktop/struggle_desktop/main/"
                  "docs/screenshots/")
COMMAND = "struggle-desktop"
SAVE_TYPE = "application/x-struggle-desktop-save"
#: How every save begins (struggle_desktop.engine.saves writes the ``format`` key first).
SAVE_START = '{"format":"struggle-desktop-save"'
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"

#: The tool -> the Debian package that has it.
PACKAGES = {
    "desktop-file-validate": "desktop-file-utils",
    "appstreamcli": "appstream",
    "update-mime-database": "shared-mime-info",
}


def tool(name: str) -> str:
    """The path of the command-line tool ``name``; a skip without it, a failure under CI."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (Debian package {PACKAGES[name]})"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must install it")
        pytest.skip(message)
    return path


def run(*command, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str                  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def metainfo() -> ET.Element:
    return ET.parse(METAINFO).getroot()


# --- the menu entries ------------------------------------------------------------------------

@pytest.mark.parametrize("path", [DESKTOP, OPEN_DESKTOP], ids=lambda p: p.name)
def test_desktop_file_validates(path):
    result = run(tool("desktop-file-validate"), str(path))
    output = (result.stdout + result.stderr).splitlines()
    # Hints are suggestions of the validator's newer versions; errors and warnings are not.
    complaints = [line for line in output if line.strip() and ": hint: " not in line]
    assert result.returncode == 0 and not complaints, "\n".join(output)


def test_the_menu_entry_starts_the_window():
    entry = desktop_entry(DESKTOP)
    assert entry["Type"] == "Application"
    assert entry["Exec"] == COMMAND       # no file argument: the command alone opens the window
    assert entry["Icon"] == APP_ID
    assert entry.get("NoDisplay", "false") == "false"
    assert "MimeType" not in entry        # files are the hidden entry's job
    assert {"Game", "StrategyGame"} <= set(entry["Categories"].rstrip(";").split(";"))


def test_the_hidden_entry_opens_a_saved_game():
    entry = desktop_entry(OPEN_DESKTOP)
    assert entry["Exec"] == f"{COMMAND} open %f"
    assert entry["NoDisplay"] == "true"
    assert entry["MimeType"].rstrip(";").split(";") == [SAVE_TYPE]
    assert entry["Name"] == desktop_entry(DESKTOP)["Name"]
    assert entry["Icon"] == APP_ID


def test_the_command_is_the_one_the_package_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    scripts = project["scripts"]
    assert scripts[COMMAND] == "struggle_desktop.cli:main"
    from struggle_desktop.cli import build_parser

    # What the entries run: the command alone (the window) and ``open`` with the file.
    assert build_parser().parse_args([]).command is None
    args = build_parser().parse_args(["open", "/home/someone/x.sgsave"])
    assert (args.command, args.file) == ("open", "/home/someone/x.sgsave")


# --- AppStream -------------------------------------------------------------------------------

def accepted(issue: dict, validator_version: str) -> bool:
    """The validator's remarks this project accepts, each for its reason:

    - ``cid-contains-uppercase-letter`` (pedantic): the ID is the reverse-DNS name the desktop
      file, the icons and the MIME icon share, capitalised like most desktop applications'
      (org.gnome.TextEditor); AppStream only suggests lowercase.
    - ``unknown-tag developer`` (info), from appstreamcli before 1.0 only: ``<developer>``
      with its ``id`` is AppStream 1.0's element and replaces ``<developer_name>``, which 1.0
      reports as deprecated; older validators do not know it yet."""
    tag, hint = issue.get("tag"), str(issue.get("hint", ""))
    if tag == "cid-contains-uppercase-letter" and hint == APP_ID:
        return True
    major = int(validator_version.split(".")[0]) if validator_version[:1].isdigit() else 0
    return tag == "unknown-tag" and hint == "developer" and major < 1


def test_metainfo_validates():
    result = run(tool("appstreamcli"), "validate", "--no-net", "--pedantic", "--format", "yaml",
                 str(METAINFO))
    report = yaml.safe_load(result.stdout) or {}
    issues = report.get("Issues") or []
    refused = [issue for issue in issues if not accepted(issue, str(report.get("Validator", "")))]
    assert result.returncode == 0 and not refused, result.stdout + result.stderr


def test_the_newest_release_is_this_version():
    releases = metainfo().findall("releases/release")
    assert releases, "no release"
    newest = max(releases, key=lambda r: r.get("date"))
    assert releases[0] is newest, "releases are listed newest first"
    assert newest.get("version") == struggle_desktop.__version__


def test_the_screenshots_are_the_programs(qapp):
    from PySide6.QtGui import QImage

    screenshots = metainfo().findall("screenshots/screenshot")
    assert [s.get("type") for s in screenshots].count("default") == 1
    for screenshot in screenshots:
        assert (screenshot.findtext("caption") or "").strip()
        image = screenshot.find("image")
        url = image.text.strip()
        assert url.startswith(SCREENSHOT_URL), url
        picture = QImage(str(SCREENSHOTS / url.removeprefix(SCREENSHOT_URL)))
        assert not picture.isNull(), url
        # The sizes the metainfo declares are the pictures' own (software centres lay out by them).
        assert (image.get("width"), image.get("height")) == (str(picture.width()),
                                                             str(picture.height())), url


def test_the_metainfo_names_the_other_files():
    root = metainfo()
    assert root.findtext("id") == APP_ID
    assert root.findtext("name") == desktop_entry(DESKTOP)["Name"]
    assert root.findtext("launchable[@type='desktop-id']") == DESKTOP.name
    assert DESKTOP.is_file()
    assert root.findtext("provides/binary") == COMMAND
    assert root.findtext("provides/mediatype") == SAVE_TYPE


# --- the MIME type of saves ------------------------------------------------------------------

def test_the_magic_is_how_saves_begin():
    match = ET.parse(MIME_XML).getroot().find(f".//{MIME_NS}magic/{MIME_NS}match")
    assert (match.get("type"), match.get("offset")) == ("string", "0")
    assert match.get("value") == SAVE_START
    from struggle_desktop.engine import saves
    assert saves.SAVE_MAGIC == SAVE_START


#: Run with the temporary MIME database only: prints what Qt makes of the files it is given.
MIME_CHILD = """
import json, sys
from PySide6.QtCore import QCoreApplication, QMimeDatabase
app = QCoreApplication(sys.argv[:1])
db = QMimeDatabase()
mode = QMimeDatabase.MatchMode
save = db.mimeTypeForName(sys.argv[1])
result = {"type": {"valid": save.isValid(), "comment": save.comment(), "icon": save.iconName(),
                   "suffixes": save.suffixes(), "json": save.inherits("application/json")},
          "files": {}}
for path in sys.argv[2:]:
    result["files"][path] = {
        "name": db.mimeTypeForFile(path, mode.MatchExtension).name(),
        "content": db.mimeTypeForFile(path, mode.MatchContent).name(),
        "default": db.mimeTypeForFile(path).name()}
print(json.dumps(result))
"""


@pytest.fixture(scope="module")
def mime_data_dir(tmp_path_factory) -> Path:
    """A data folder with the package installed and its database built, as a system install
    would make it."""
    updater = tool("update-mime-database")
    data = tmp_path_factory.mktemp("xdg-data")
    (data / "mime" / "packages").mkdir(parents=True)
    shutil.copyfile(MIME_XML, data / "mime" / "packages" / f"{APP_ID}.xml")
    env = dict(os.environ, XDG_DATA_DIRS=str(data))   # else it notes the folder is not searched
    result = run(updater, str(data / "mime"), env=env)
    assert result.returncode == 0 and not result.stderr.strip(), result.stdout + result.stderr
    assert (data / "mime" / "mime.cache").is_file()
    return data


@pytest.fixture(params=["alone", "with the system's"])
def mime_lookup(request, mime_data_dir, tmp_path):
    """Qt's answers for files, in a child process whose data folders are the temporary one
    (alone, or before the system's, as after a real install)."""
    dirs = [str(mime_data_dir)]
    if request.param != "alone":
        dirs += ["/usr/local/share", "/usr/share"]
    empty_home = tmp_path / "data-home"
    empty_home.mkdir()
    env = dict(os.environ, XDG_DATA_DIRS=os.pathsep.join(dirs), XDG_DATA_HOME=str(empty_home),
               QT_QPA_PLATFORM="offscreen")

    def lookup(*paths: Path) -> dict:
        result = run(sys.executable, "-c", MIME_CHILD, SAVE_TYPE, *map(str, paths), env=env)
        assert result.returncode == 0, result.stderr
        answer = json.loads(result.stdout.strip().splitlines()[-1])
        answer["files"] = {Path(path).name: kinds for path, kinds in answer["files"].items()}
        return answer
    return lookup


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_the_save_type_is_installed(mime_lookup):
    kind = mime_lookup()["type"]
    assert kind["valid"] and kind["json"] and kind["comment"]
    assert kind["suffixes"] == ["sgsave"]
    assert kind["icon"] == APP_ID


def test_a_save_is_known_by_its_name(mime_lookup, tmp_path):
    # Ordinary JSON inside: the name alone decides.
    files = mime_lookup(write(tmp_path / "x.sgsave", '{"a": 1}\n'),
                        tmp_path / "not-written-yet.sgsave")["files"]
    assert files["x.sgsave"]["name"] == SAVE_TYPE
    assert files["x.sgsave"]["default"] == SAVE_TYPE
    assert files["not-written-yet.sgsave"]["name"] == SAVE_TYPE


def test_a_renamed_save_is_known_by_its_first_bytes(mime_lookup, tmp_path):
    save = SAVE_START + ',"format_version":1,"game":"struggle","scenario":"3","seed":1}'
    files = mime_lookup(write(tmp_path / "x.json", save), write(tmp_path / "backup", save))["files"]
    assert files["x.json"]["content"] == SAVE_TYPE
    assert files["backup"]["content"] == SAVE_TYPE
    assert files["backup"]["default"] == SAVE_TYPE    # no name to go by: the content decides


def test_other_json_is_not_a_save(mime_lookup, tmp_path):
    files = mime_lookup(
        write(tmp_path / "plain.json", '{"a": 1}\n'),
        write(tmp_path / "other-format.json", '{"format":"something-else","format_version":1}'),
        write(tmp_path / "later.json", '{"game":"struggle","format":"struggle-desktop-save"}'),
        write(tmp_path / "spaced.json", '{"format": "struggle-desktop-save"}'),
    )["files"]
    for name, kinds in files.items():
        assert SAVE_TYPE not in kinds.values(), (name, kinds)


# --- the icons -------------------------------------------------------------------------------

def test_the_master_icon_is_plain_svg_qt_renders():
    from PySide6.QtSvg import QSvgRenderer

    text = MASTER_ICON.read_text(encoding="utf-8")
    for banned in ("<text", "<filter", "<image", "href=", "<style", "<script"):
        assert banned not in text, f"{banned} in {MASTER_ICON.name}"
    renderer = QSvgRenderer(str(MASTER_ICON))
    assert renderer.isValid()
    assert renderer.viewBoxF().width() == renderer.viewBoxF().height() > 0


def test_the_scalable_icon_is_the_master():
    copy = THEME / "scalable" / "apps" / f"{APP_ID}.svg"
    assert copy.read_bytes() == MASTER_ICON.read_bytes(), (
        "the SVG changed since the icons were made: run python3 packaging/make_icons.py")


@pytest.mark.parametrize("size", ICON_SIZES)
def test_a_png_icon_per_size(size):
    from PySide6.QtGui import QImage

    path = THEME / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    image = QImage(str(path))
    assert not image.isNull(), f"{path} is missing or not an image"
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()
    alphas = [image.pixelColor(x, y).alpha() for y in range(size) for x in range(size)]
    opaque = sum(alpha == 255 for alpha in alphas)
    clear = sum(alpha == 0 for alpha in alphas)
    assert opaque >= size * size // 3, "mostly see-through: blank?"
    assert clear > 0, "no transparent pixel: the background was not cleared"


# --- the running program ---------------------------------------------------------------------

def test_the_window_carries_the_entrys_name_and_the_icon(qapp):
    """The desktop ties the window to its menu entry by this name (Wayland's app id), and the
    window shows the master icon (through Qt's SVG icon engine, which the bundle keeps)."""
    from struggle_desktop.ui.app import DESKTOP_ID, make_application

    app = make_application()
    assert DESKTOP_ID == APP_ID and app.desktopFileName() == APP_ID
    image = app.windowIcon().pixmap(32, 32).toImage()
    alphas = {image.pixelColor(x, y).alpha() for x in range(32) for y in range(32)}
    assert 255 in alphas and 0 in alphas


def test_the_entries_carry_the_programs_name_and_window_class(qapp):
    """The menu shows the program's name, not its package's; X11 desktops tie the window to
    the entry by its class, which Qt takes from the application name."""
    from struggle_desktop.ui.app import make_application

    app = make_application()
    for path in (DESKTOP, OPEN_DESKTOP):
        entry = desktop_entry(path)
        assert entry["Name"] == "Struggle Desktop"
        assert entry["StartupWMClass"] == app.applicationName()
