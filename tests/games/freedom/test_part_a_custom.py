"""Scenario ``custom``: the players' own environs (FIG-CTX), given as the option ``context``
(the window's New Environs form, or ``--option context=FILE.yaml``), checked before play
(FIG-CTX-13) and kept in the save."""

from __future__ import annotations

import yaml
import pytest

from struggle_desktop import cli
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.data import default_data

A2 = default_data().scenarios["a2"]["context"]


def play_out(session: Session) -> None:
    rng = Rng.from_seed(4, stream=99)
    while GAME.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "simple", rng))


def test_a_custom_environs_plays_like_the_scenario_it_copies():
    """The same context and seed give the same rolls and the same report as scenario a2."""
    mine = Session.new(GAME, "custom", 7, {"context": A2})
    theirs = Session.new(GAME, "a2", 7, {})
    play_out(mine)
    play_out(theirs)
    assert GAME.outcome(mine.state) == GAME.outcome(theirs.state)
    assert mine.state["environs"] == theirs.state["environs"]


def test_the_context_file_is_read_once_and_the_save_needs_it_no_more(tmp_path):
    """The command line reads the file the person names; the save holds the document."""
    path = tmp_path / "environs.yaml"
    path.write_text(yaml.safe_dump(A2), encoding="utf-8")
    session = Session.new(GAME, "custom", 3, cli.read_option_files(GAME, {"context": str(path)}))
    session.perform(session.state["pending"]["role"],
                    GAME.choose_action(session.state, session.state["pending"]["role"], "simple",
                                       Rng.from_seed(1)))
    save = tmp_path / "game.json"
    session.save(save)
    path.unlink()
    loaded, report = Session.load({"freedom": GAME}, save)
    assert report.ok and GAME.digest(loaded.state) == GAME.digest(session.state)
    assert loaded.state["options"]["context"] == A2


@pytest.mark.parametrize("change, field", [
    ({"size": 12}, "size"),
    ({"phasing_side": "pirates"}, "phasing_side"),
])
def test_a_bad_custom_environs_is_refused_naming_the_field(change, field):
    """FIG-CTX-13: one clear message that names the field; nothing is set up."""
    with pytest.raises(BadOption) as refused:
        GAME.setup("custom", 1, {"context": {**A2, **change}})
    assert str(refused.value).startswith("option context: ") and field in str(refused.value)


def test_without_a_context_custom_plays_its_example_environs():
    example = default_data().scenarios["custom"]["context"]
    session = Session.new(GAME, "custom", 2, {})
    assert session.options == {}
    assert [c["name"] for c in session.state["environs"]["characters"]] == [
        c["name"] for c in example["characters"]]
    play_out(session)
    assert GAME.outcome(session.state) is not None


def test_the_context_option_belongs_to_scenario_custom_only(tmp_path, capsys):
    with pytest.raises(BadOption, match="only to scenario custom"):
        GAME.setup("a1", 1, {"context": A2})
    missing = tmp_path / "nothing.yaml"
    code = cli.main(["simulate", "--game", "freedom", "--scenario", "custom", "--games", "1",
                     "--seed", "1", "--option", f"context={missing}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error: option context: ")
    assert err[0].endswith("no such file")
