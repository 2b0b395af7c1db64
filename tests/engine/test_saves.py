"""Save files (engine/saves.py): atomic writes, clean errors for bad files, migrations, and the
rule that loading never modifies the file.

Every bad file must give one SaveError with a one-line message naming the file: the command
line prints it after ``error:`` and the UI shows it in a dialog.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import SaveError

DATA = Path(__file__).resolve().parent / "data"


def document(**changes) -> dict:
    doc = saves.make_document(
        game="struggle", rules_version="r1", data_digest="d" * 64, overrides={},
        scenario="3", options={"nexus": True}, seed=7,
        actions=[{"role": "imperial", "action": {"verb": "auto_place"}}],
        digests=[{"after": 1, "digest": "a" * 64}], snapshot={"turn": 1})
    doc.update(changes)
    return doc


def write_text(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    with pytest.raises(SaveError) as info:
        saves.read_document(path)
    message = str(info.value)
    assert "\n" not in message and message, "one clear line"
    return message


# ------------------------------------------------------------------------------ writing
def test_round_trip(tmp_path):
    path = tmp_path / "game.json"
    saves.write_atomic(path, document())
    loaded = saves.read_document(path)
    assert loaded == document()
    assert loaded["format"] == saves.FORMAT and loaded["format_version"] == saves.FORMAT_VERSION


def test_a_save_begins_with_the_bytes_that_identify_it(tmp_path):
    """The MIME type's magic match (packaging/linux) recognises a save by its first bytes,
    whatever the keys sort to; the rest of the file is the same JSON, keys sorted."""
    path = tmp_path / "game.sgsave"
    doc = document(actions=[{"role": "imperial", "action": {"verb": "x", "a": 1}}])
    saves.write_atomic(path, doc)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(saves.SAVE_MAGIC + ',"format_version":1,')
    assert json.loads(text) == doc
    assert '{"a":1,"verb":"x"}' in text


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "sub" / "game.json"
    saves.write_atomic(path, document())
    saves.write_atomic(path, document(seed=8))   # replacing an existing file
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json"]
    assert saves.read_document(path)["seed"] == 8


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failure_mid_write_keeps_the_old_file(tmp_path, monkeypatch, failing):
    path = tmp_path / "game.json"
    saves.write_atomic(path, document(seed=1))
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(saves.os, failing, boom)
    with pytest.raises(OSError, match="disk full"):
        saves.write_atomic(path, document(seed=2))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_unserialisable_document_fails_before_touching_the_file(tmp_path):
    path = tmp_path / "game.json"
    saves.write_atomic(path, document())
    before = path.read_bytes()
    with pytest.raises(TypeError):
        saves.write_atomic(path, document(snapshot={"bad": object()}))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_saving_over_a_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "game.sgsave"
    saves.write_atomic(path, document())
    os.chmod(path, 0o640)
    saves.write_atomic(path, document(seed=8))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_save_gets_the_usual_permissions_not_a_temporary_files(tmp_path):
    path = tmp_path / "game.sgsave"
    old = os.umask(0o022)
    try:
        saves.write_atomic(path, document())
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644      # mkstemp alone gives 0600


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_saving_to_a_symlink_writes_the_file_it_names(tmp_path):
    real = tmp_path / "games" / "real.sgsave"
    saves.write_atomic(real, document(seed=1))
    link = tmp_path / "link.sgsave"
    link.symlink_to(real)
    saves.write_atomic(link, document(seed=2))
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert saves.read_document(real)["seed"] == 2
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.sgsave"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_save_over_something_that_is_not_a_file_is_refused(tmp_path):
    fifo = tmp_path / "pipe.sgsave"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match="not a regular file"):
        saves.write_atomic(fifo, document())
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(SaveError, match="not a regular file"):
        saves.write_atomic(tmp_path, document())


def leftover(folder: Path, name: str, age: float) -> Path:
    path = folder / f".{name}.ab12cd_9.tmp"
    path.write_text("half a save")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_stale_temporaries_of_our_saves_are_cleaned_and_nothing_else(tmp_path):
    stale = [leftover(tmp_path, "game.sgsave", 3600), leftover(tmp_path, "autosave.sgsave", 120)]
    fresh = leftover(tmp_path, "other.sgsave", 0)          # perhaps a save in progress
    foreign = [leftover(tmp_path, "bashrc", 3600), tmp_path / "notes.tmp"]
    foreign[1].write_text("mine")
    assert saves.clean_stale_temporaries(tmp_path) == 2
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and all(p.exists() for p in foreign)


def test_saving_a_file_cleans_its_own_leftovers_only(tmp_path):
    mine = leftover(tmp_path, "game.sgsave", 3600)
    other = leftover(tmp_path, "other.sgsave", 3600)
    saves.write_atomic(tmp_path / "game.sgsave", document())
    assert not mine.exists() and other.exists()


#: A child that saves two different documents over one file, alternately, forever.
SAVING_CHILD = """
import sys
from struggle_desktop.engine import saves
path, size = sys.argv[1], int(sys.argv[2])
docs = [saves.make_document(game="struggle", rules_version="r", data_digest="d", overrides={},
                            scenario="3", options={}, seed=seed, actions=[],
                            digests=[{"after": 0, "digest": "x" * size}], snapshot={})
        for seed in (1, 2)]
print("ready", flush=True)
k = 0
while True:
    saves.write_atomic(path, docs[k % 2])
    k += 1
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_while_saving_the_file_is_old_or_new_and_leftovers_go_at_the_next_start(
        tmp_path):
    """Kill a process in the middle of saving, 25 times: the file is always one whole save,
    never a torn one; the temporaries the kills leave are removed at the next start."""
    path = tmp_path / "game.sgsave"
    root = Path(__file__).resolve().parents[2]
    rng = random.Random(5)
    for _ in range(25):
        child = subprocess.Popen([sys.executable, "-c", SAVING_CHILD, str(path), "3000000"],
                                 cwd=root, stdout=subprocess.PIPE)
        assert child.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.3))
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        child.stdout.close()
        if path.exists():
            assert saves.read_document(path)["seed"] in (1, 2)
    assert path.exists()
    # Age whatever the kills left, as the next start would find it some time later.
    temporaries = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    for p in temporaries:
        os.utime(p, (time.time() - 3600, time.time() - 3600))
    saves.clean_stale_temporaries(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.sgsave"]
    assert saves.read_document(path)["seed"] in (1, 2)


# ------------------------------------------------------------------------------ bad files
def test_missing_file_and_folder(tmp_path):
    assert "no such file" in load_error(tmp_path / "nothing.json")
    assert "folder" in load_error(tmp_path)


@pytest.mark.parametrize("content", [
    "",                                   # empty
    "{\"format\": \"struggle-desktop-save\", \"form",   # truncated
    "this is not json",
    b"\xff\xfe\x00garbage",               # not UTF-8
    "[1, 2, 3]",                          # JSON, but not an object
])
def test_damaged_truncated_or_non_json(tmp_path, content):
    path = write_text(tmp_path / "bad.json", content)
    message = load_error(path)
    assert str(path) in message


def test_truncated_real_save(tmp_path):
    path = tmp_path / "game.json"
    saves.write_atomic(path, document())
    raw = path.read_bytes()
    write_text(path, raw[: len(raw) // 2])
    assert "damaged, truncated or not JSON" in load_error(path)


def test_foreign_json_file(tmp_path):
    path = write_text(tmp_path / "package.json", json.dumps({"name": "x", "version": "1"}))
    assert "not a struggle_desktop save file" in load_error(path)


def test_hand_edited_file_names_the_broken_key(tmp_path):
    doc = document()
    doc["actions"][0]["role"] = 5
    path = write_text(tmp_path / "edited.json", json.dumps(doc))
    message = load_error(path)
    assert "damaged" in message and "actions/0/role" in message


def test_missing_required_key(tmp_path):
    doc = document()
    del doc["snapshot"]
    assert "snapshot" in load_error(write_text(tmp_path / "x.json", json.dumps(doc)))


def test_newer_format_version(tmp_path):
    path = write_text(tmp_path / "new.json", json.dumps(document(format_version=99)))
    message = load_error(path)
    assert "newer version" in message and "99" in message


@pytest.mark.parametrize("version", [0, -1, "1", None, 1.5])
def test_unknown_format_version(tmp_path, version):
    path = write_text(tmp_path / "v.json", json.dumps(document(format_version=version)))
    assert "format version" in load_error(path)


def test_huge_file_is_refused_before_parsing(tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    saves.write_atomic(path, document())
    monkeypatch.setattr(saves, "SAVE_LIMITS", saves.untrusted.Limits(100, 1000))
    parsed = []
    monkeypatch.setattr(saves.json, "loads", lambda *a, **k: parsed.append(1))
    assert "too large" in load_error(path)
    assert not parsed


def test_loading_never_modifies_the_file(tmp_path):
    path = tmp_path / "game.json"
    saves.write_atomic(path, document())
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    saves.read_document(path)
    saves.read_document(path)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ------------------------------------------------------------------------------ migrations
def test_migration_hook_brings_an_old_file_up_to_date(monkeypatch):
    """A format change comes with a migration: pretend the program writes format 2, register
    a migration 1 -> 2 on a copy of MIGRATIONS, and load a stored format-1 file."""
    old = DATA / "save-format-1.json"
    before = old.read_bytes()

    def one_to_two(doc: dict) -> dict:
        doc = dict(doc)
        doc["options"] = {key: bool(value) for key, value in doc["options"].items()}
        doc["migrated_from"] = 1
        return doc

    monkeypatch.setattr(saves, "FORMAT_VERSION", 2)
    monkeypatch.setattr(saves, "MIGRATIONS", {**saves.MIGRATIONS, 1: one_to_two})
    doc = saves.read_document(old)
    assert doc["format_version"] == 2
    assert doc["migrated_from"] == 1
    assert doc["options"] == {"nexus": True, "stargates": False}
    assert old.read_bytes() == before, "migration happens in memory, never in the file"


def test_migrations_chain_in_order(monkeypatch):
    steps = []

    def step(k):
        def migrate(doc):
            steps.append(k)
            return dict(doc)
        return migrate

    monkeypatch.setattr(saves, "FORMAT_VERSION", 3)
    monkeypatch.setattr(saves, "MIGRATIONS", {1: step(1), 2: step(2)})
    assert saves.read_document(DATA / "save-format-1.json")["format_version"] == 3
    assert steps == [1, 2]


def test_missing_migration_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(saves, "FORMAT_VERSION", 3)
    monkeypatch.setattr(saves, "MIGRATIONS", {1: dict})
    assert "no migration from save format 2" in load_error(DATA / "save-format-1.json")


def test_the_stored_old_file_is_a_valid_format_1_save():
    doc = saves.read_document(DATA / "save-format-1.json")
    assert doc["format_version"] == 1 == saves.FORMAT_VERSION


# ------------------------------------------------------------------------------ fuzzing
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=10_000), flips=st.lists(
    st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=255)),
    max_size=4))
def test_mutated_files_load_or_fail_cleanly(tmp_path, cut, flips):
    """A save-file fuzzer: truncated or byte-flipped files either load or give SaveError."""
    raw = bytearray(json.dumps(document(), separators=(",", ":")).encode())
    for where, value in flips:
        raw[where % len(raw)] = value
    if cut % 3 == 0:   # one case in three is also truncated
        del raw[cut % (len(raw) + 1):]
    path = tmp_path / "fuzz.json"
    path.write_bytes(bytes(raw))
    try:
        assert isinstance(saves.read_document(path), dict)
    except SaveError as exc:
        assert "\n" not in str(exc)
