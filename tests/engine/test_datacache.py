"""The per-user cache of checked data (engine/datacache.py)."""

from struggle_desktop.engine import datacache
from struggle_desktop.engine.paths import user_cache_dir


def counting_builder(value):
    calls = []

    def build():
        calls.append(1)
        return dict(value)
    return build, calls


def test_a_result_is_reused_for_the_same_bytes_and_rebuilt_when_they_change(tmp_path):
    source = tmp_path / "table.yaml"
    source.write_text("a: 1\n")
    build, calls = counting_builder({"a": 1})
    assert datacache.cached("t", [source], build) == {"a": 1}
    assert datacache.cached("t", [source], build) == {"a": 1}
    assert len(calls) == 1
    source.write_text("a: 2\n")
    datacache.cached("t", [source], build)
    assert len(calls) == 2
    assert len(list((user_cache_dir() / "data").glob("t-*.pickle"))) == 1


def test_a_damaged_cache_file_is_rebuilt(tmp_path):
    source = tmp_path / "table.yaml"
    source.write_text("a: 1\n")
    build, calls = counting_builder({"a": 1})
    datacache.cached("t", [source], build)
    for entry in (user_cache_dir() / "data").glob("t-*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert datacache.cached("t", [source], build) == {"a": 1}
    assert len(calls) == 2


def test_errors_are_not_cached(tmp_path):
    source = tmp_path / "table.yaml"
    source.write_text("a: 1\n")
    attempts = []

    def failing():
        attempts.append(1)
        raise ValueError("broken")
    for _ in range(2):
        try:
            datacache.cached("t", [source], failing)
        except ValueError:
            pass
    assert len(attempts) == 2


def test_the_cache_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv(datacache.ENV_SWITCH, "0")
    source = tmp_path / "table.yaml"
    source.write_text("a: 1\n")
    build, calls = counting_builder({"a": 1})
    datacache.cached("t", [source], build)
    datacache.cached("t", [source], build)
    assert len(calls) == 2
