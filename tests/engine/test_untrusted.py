"""The one loader of untrusted files (engine/untrusted.py): regular files only, a byte limit,
a nesting limit, a node limit that counts YAML aliases as expanded, and short messages.

Each hostile file here once crashed, hung or flooded the program (a FIFO or a symlink to
/dev/zero read forever, 1,000 levels of brackets gave a RecursionError, 456 bytes of YAML
aliases took 3 GB); now each gives one short DataError, quickly.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import MAX_MESSAGE, DataError, SaveError, excerpt
from tests.hostile import billion_laughs

needs_posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(DataError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message and "\n" not in message and len(message) <= MAX_MESSAGE
    return message


# ------------------------------------------------------------------------------ bytes
def test_a_regular_file_is_read(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b'{"a": 1}')
    assert untrusted.read_bytes(path, 100) == b'{"a": 1}'
    assert untrusted.read_json(path) == {"a": 1}


@needs_posix
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result: list = []
    # Run in a thread so that a regression hangs one thread, not the test run.
    worker = threading.Thread(target=lambda: result.append(
        refusal(untrusted.read_json, fifo)), daemon=True)
    worker.start()
    worker.join(10)
    assert result and "not a regular file" in result[0]


@needs_posix
def test_a_symlink_to_a_device_is_refused(tmp_path):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    assert "not a regular file" in refusal(untrusted.read_json, link)


def test_a_folder_and_a_missing_file(tmp_path):
    assert "folder" in refusal(untrusted.read_json, tmp_path)
    assert "no such file" in refusal(untrusted.read_yaml, tmp_path / "missing.yaml")


def test_the_byte_limit_holds_whatever_the_size_claims(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    assert "too large" in refusal(untrusted.read_bytes, path, 100)
    assert untrusted.read_bytes(path, 101) == b" " * 101


def test_the_error_class_is_the_callers(tmp_path):
    with pytest.raises(SaveError):
        untrusted.read_json(tmp_path / "missing.json", error=SaveError)


# ------------------------------------------------------------------------------ JSON
@pytest.mark.parametrize("depth", [51, 1_000, 100_000])
def test_deep_json_is_refused_before_parsing(depth):
    for opening, closing in ("[]", "{}"):
        raw = (('{"k":' if opening == "{" else "[") * depth + "1"
               + ("}" if opening == "{" else "]") * depth).encode()
        assert "nested too deeply" in refusal(untrusted.parse_json, raw, "deep.json")


def test_nesting_up_to_the_limit_is_fine_and_brackets_in_strings_do_not_count():
    raw = ("[" * untrusted.MAX_DEPTH + "1" + "]" * untrusted.MAX_DEPTH).encode()
    assert untrusted.parse_json(raw, "x") is not None
    text = json.dumps({"log": "[" * 500 + "\\\"[{" * 300})
    assert untrusted.parse_json(text.encode(), "x")["log"].startswith("[[[")


def test_json_given_as_bytes_has_the_same_byte_limit():
    limits = untrusted.Limits(max_bytes=10, max_nodes=100)
    assert "too large" in refusal(untrusted.parse_json, b"[1, 2, 3, 4, 5]", "x", limits)


def test_too_many_values_are_refused():
    limits = untrusted.Limits(max_bytes=10**6, max_nodes=1_000)
    raw = json.dumps([0] * 2_000).encode()
    assert "too many values" in refusal(untrusted.parse_json, raw, "x", limits)
    assert untrusted.parse_json(json.dumps([0] * 900).encode(), "x", limits) == [0] * 900


@pytest.mark.parametrize("raw", [b"[NaN]", b"[Infinity]", b"[-Infinity]", b"[1e400]",
                                 b"[" + b"9" * 5000 + b"]", b"\xff\xfe{}", b"{\"a\": 1"])
def test_numbers_json_does_not_allow_and_broken_text(raw):
    assert "not a JSON file" in refusal(untrusted.parse_json, raw, "x")


# ------------------------------------------------------------------------------ YAML
def test_billion_laughs_is_refused_before_anything_expands_it(tmp_path):
    path = tmp_path / "laughs.yaml"
    path.write_text(billion_laughs(), encoding="utf-8")
    assert len(path.read_bytes()) < 1000
    assert "aliases are expanded" in refusal(untrusted.read_yaml, path)


def test_a_few_aliases_are_fine():
    assert untrusted.parse_yaml(billion_laughs(2), "x")["b"][0] == ["lol"] * 9


@pytest.mark.parametrize("text", ["[" * 100_000, "- " * 100_000 + "x", "{a: " * 100_000,
                                  "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 80))])
def test_deep_yaml_is_refused_before_a_parser_recurses(text):
    # libyaml's own composer crashes the process (segmentation fault) on the first three.
    assert "nested too deeply" in refusal(untrusted.parse_yaml, text, "deep.yaml")


def test_brackets_in_text_are_not_nesting():
    # Only brackets where a node may start open a flow collection; the depth check on the raw
    # text must not count those inside plain or quoted scalars, or in comments.
    text = ("a: 'x" + "[" * 80 + "'\n" + 'b: "y' + "{" * 80 + '\\" ["\n' + "c: z" + "[" * 80
            + "\n# " + "[" * 80 + "\nd: [1, [2, {e: [3]}]]\n")
    assert untrusted.parse_yaml(text, "x") == yaml.safe_load(text)


def test_yaml_runs_nothing():
    text = '!!python/object/apply:os.system ["echo owned"]'
    assert "not valid YAML" in refusal(untrusted.parse_yaml, text, "x.yaml")


def test_yaml_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("a: caf\xe9".encode("latin-1"))
    assert "UTF-8" in refusal(untrusted.read_yaml, path)


def test_every_shipped_yaml_file_loads_as_before():
    root = Path(__file__).resolve().parents[2]
    files = [*root.joinpath("assets").rglob("*.yaml"), *root.joinpath("scenarios").rglob("*.yaml"),
             *root.joinpath("struggle_desktop").rglob("*.yaml")]
    assert len(files) > 50
    for path in files:
        assert untrusted.read_yaml(path) == yaml.safe_load(path.read_text(encoding="utf-8")), path


# ------------------------------------------------------------------------------ messages
def test_messages_quote_only_an_excerpt():
    assert len(excerpt("x" * 50_000_000)) < 100
    assert len(excerpt({"a": [1] * 10**6, "b": "y" * 10**6})) < 200
    assert len(str(DataError("unknown game " + repr("g" * 1_000_000)))) <= MAX_MESSAGE
