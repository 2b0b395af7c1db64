"""The Noble Houses map drawn from a board: every world and feature, owners' colours, the stacks
counted, the ships as tokens, the fight panel's data, and the offscreen image."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games import get_game
from struggle_desktop.ui.nobles.scene import HOUSE_COLOURS, HexItem, NoblesScene, render_image

TERRAIN = {"obstacles": 4, "jump_stations": 2, "empty_systems": 2, "stargate_pairs": 1}


def nobles():
    return get_game("nobles")


def random_position(seed: int = 3, houses: int = 4, turn: int = 4, seats=None,
                    stop=None) -> dict:
    """A position reached by random legal play (``random`` policy, no program needed), more
    often doing something than finishing a step: turn ``turn`` begins, or ``stop(state)``."""
    game = get_game("nobles")
    options = {"houses": houses, **TERRAIN}
    for i in range(houses):
        options[f"seat{i + 1}"] = (seats or ["human"] * houses)[i]
    state = game.advance(game.setup("standard", seed=seed, options=options))
    rng = Rng.from_seed(seed + 100)
    for _ in range(20000):
        if state["outcome"] is not None or state["turn"] >= turn or (stop and stop(state)):
            break
        role = state["pending"]["role"]
        legal = game.legal_actions(state, role)
        busy = [a for a in legal if a["verb"] != "done"]
        action = busy[rng.below(len(busy))] if busy and rng.below(4) else \
            legal[rng.below(len(legal))]
        state = game.apply(state, role, action, copy=False)
        game.advance(state)
    return state


@pytest.fixture(scope="module")
def position():
    return random_position()


@pytest.fixture(scope="module")
def board(position):
    return nobles().board(position, "A")


@pytest.fixture
def scene(qapp, board):
    from struggle_desktop.ui.map.render import ensure_fonts
    ensure_fonts()
    scene = NoblesScene(nobles().map_layout())
    scene.show_board(board)
    return scene


def texts(scene) -> list[str]:
    from PySide6.QtWidgets import QGraphicsSimpleTextItem
    return [i.text() for i in scene.items() if isinstance(i, QGraphicsSimpleTextItem)]


def test_every_hex_of_the_map_is_drawn_and_every_world_is_named(scene, position):
    """NH-MAP-1, NH-MAP-6: one hex item per hex of the W x H board; each of the 24 worlds
    carries its name (a homeworld with a crown), its type and its income."""
    game_map = position["map"]
    assert len(scene.hex_items) == game_map["width"] * game_map["height"]
    shown = texts(scene)
    for name, (x, y) in game_map["worlds"].items():
        assert f"{x},{y}" in scene.hex_items
        world = get_game("nobles").data.worlds[name]
        label = f"♛ {name}" if world.homeworld else name
        assert label in shown
        assert f"{world.type} {world.income}" in shown


def test_hexes_are_found_where_they_are_drawn(scene, position):
    """The scene's picking (HexGrid.hex_at) agrees with its drawing (HexGrid.center)."""
    for key in ("1,1", "2,2", "10,10", "5,6"):
        x, y = (int(v) for v in key.split(","))
        assert scene.hex_key_at(scene.centre((x, y))) == key
        assert scene.hex_items[key].contains(scene.centre((x, y)))


def test_controlled_worlds_wear_their_owners_colour(scene, position):
    """A world's border is its controller's colour; neutral worlds are grey."""
    owned = 0
    for name, row in position["worlds"].items():
        x, y = position["map"]["worlds"][name]
        item: HexItem = scene.hex_items[f"{x},{y}"]
        colour = item.pen().color()
        if row["controller"]:
            owned += 1
            assert colour == HOUSE_COLOURS[row["controller"]]
        else:
            assert colour not in HOUSE_COLOURS.values()
    assert owned >= 4


def test_terrain_is_drawn_by_kind(scene, position):
    """NH-MAP-15, NH-MAP-16: nebulae, black holes and supernovae are named on the map, jump
    stations and empty systems too, and each stargate pair is linked."""
    shown = texts(scene)
    features = position["map"]["features"].values()
    for f in features:
        if f["kind"] == "obstacle":
            assert {"nebula": "nebula", "black_hole": "black hole",
                    "supernova": "supernova"}[f["obstacle"]] in shown
    assert shown.count("jump station") == TERRAIN["jump_stations"]
    assert shown.count("empty system") == TERRAIN["empty_systems"]
    assert shown.count("stargate 1") == 2
    links = [i for i in scene.items() if i.toolTip().startswith("Stargate pair 1")]
    assert len(links) == 1


def test_every_unit_is_counted_in_a_stack_or_drawn_as_a_token(board, scene, position):
    """Per hex and house: armies counted by type (or in all, where the hex has no room),
    Nobles and nukes on the ground in the stack line, ships (with their cargo) as tokens; together they account for every unit."""
    counted = 0
    for entry in board["map"]["hexes"]:
        for stack in entry["stacks"]:
            counted += sum(stack["armies"].values()) + len(stack["nobles"]) + len(stack["nukes"])
            for ship in stack["ships"]:
                counted += 1 + len(board["units"][ship].get("cargo") or [])
                assert ship in scene.tokens
    assert counted == len(position["units"])
    busiest = max(board["map"]["hexes"], key=lambda h: len(h["stacks"][0]["units"])
                  if h["stacks"] else 0)
    stack = busiest["stacks"][0]
    words = " ".join(texts(scene))
    # Its armies by unit code, or, where a hex has no room for every code, their count (the
    # codes are in the stack's tooltip and the Hex panel).
    by_code = all(f"{n}{code}" in words for code, n in stack["armies"].items())
    armies = sum(stack["armies"].values())
    assert by_code or f"{stack['owner']} {armies} arm" in words \
        or any(t.startswith(f"{stack['owner']} {armies} ") or t == f"{stack['owner']} {armies}"
               for t in texts(scene))
    tips = [chip.toolTip() for chip in scene.stack_items[busiest["key"]]]
    assert any(stack["summary"] in tip for tip in tips)


def test_four_houses_mid_game_are_all_on_the_map(board, scene):
    owners = {u["owner"] for u in board["units"].values()}
    assert owners == {"A", "B", "C", "D"}
    chips = [i for i in scene.items() if i.toolTip()[:2] in ("A:", "B:", "C:", "D:")]
    assert {c.brush().color().name() for c in chips} <= {QColor(c).name()
                                                         for c in HOUSE_COLOURS.values()}


def test_every_legal_action_has_words(position):
    """The decision panel's labels: describe_action for every legal answer of the prompt."""
    game = nobles()
    role = position["pending"]["role"]
    prompt = game.board(position, role)["prompt"]
    assert prompt is not None and prompt["actions"]
    for entry in prompt["actions"]:
        assert entry["label"] and entry["label"] != entry["action"]["verb"]
        assert game.describe_action(position, entry["action"]) == entry["label"]
    assert game.board(position, "public")["prompt"] is None


def test_the_last_fight_keeps_its_dice_for_the_battle_panel():
    """NH-BAT-7, NH-NUK-4: after a fight the board still gives its volleys (each roll's dice
    and hits), psychic results and casualties."""
    state = random_position(seed=5, turn=6)
    fight = nobles().board(state, "A")["fight"]
    assert fight is not None
    assert fight["volleys"] and all(r["dice"] for v in fight["volleys"] for r in v["rolls"])
    for v in fight["volleys"]:
        for r in v["rolls"]:
            assert r["hits"] == sum(1 for f in r["dice"] if f == 1)


def test_render_image_draws_the_map(qapp, board):
    image = render_image(nobles().map_layout(), board, (800, 500))
    assert (image.width(), image.height()) == (800, 500)
    colours = {image.pixel(x, y) for x in range(0, 800, 9) for y in range(0, 500, 9)}
    assert len(colours) > 60


def test_before_the_map_is_drawn_the_scene_says_so(qapp):
    """NH-SETUP-2: human seats choose their homeworlds before the map exists."""
    game = get_game("nobles")
    state = game.advance(game.setup("standard", seed=1, options={"houses": 2}))
    board = nobles().board(state, "A")
    assert board["map"] is None and board["prompt"]["kind"] == "homeworld"
    scene = NoblesScene(nobles().map_layout())
    scene.show_board(board)
    assert "The map is drawn once every house has its homeworld." in texts(scene)


def test_render_draws_a_saved_game(qapp, tmp_path, capsys):
    """``render SAVE``: the screens table names the Noble Houses renderer, which draws the
    saved position offscreen; ``render --game`` stops its opening once the set-up is over."""
    from argparse import Namespace

    from PySide6.QtGui import QImage

    from struggle_desktop.engine.session import Session
    from struggle_desktop.ui.app import render_command
    from struggle_desktop.ui.screens import opening_reached, renderer

    game = get_game("nobles")
    session = Session.new(game, "standard", 4, {"houses": 3, **TERRAIN})
    rng = Rng.from_seed(9)
    while session.state["turn"] < 2:
        role = session.state["pending"]["role"]
        legal = game.legal_actions(session.state, role)
        session.perform(role, legal[rng.below(len(legal))])
    path = tmp_path / "nobles.sgsave"
    session.save(path)
    assert renderer("nobles") is render_image
    out = tmp_path / "map.png"
    assert render_command(Namespace(file=str(path), out=str(out), size=[800, 500], game=None,
                                    scenario=None, seed=None)) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 500)
    assert opening_reached("nobles", session.state)
    assert not opening_reached("nobles", game.setup("standard", 1, {"houses": 2}))
