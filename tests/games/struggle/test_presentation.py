"""The plain-data picture of a position that the desktop window draws (presentation.py)."""

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from tests.games.struggle.helpers import bot_session as played


def test_every_counter_on_the_map_is_one_piece_in_its_sector(game):
    session = played(game)
    state = session.state
    board = game.board(state, "imperial")
    on_map = [uid for uid, u in state["units"].items() if u["loc"] is not None]
    assert sorted(p for p in board["pieces"] if board["pieces"][p]["kind"] == "unit") == sorted(on_map)
    for uid in on_map:
        assert uid in board["sectors"][state["units"][uid]["loc"]]["pieces"]
    for key, system in state["systems"].items():
        piece = board["pieces"][f"system:{key}"]
        assert piece["side"] == system["side"] and piece["sector"] == int(key)
    listed = [pid for sec in board["sectors"].values() for pid in sec["pieces"]]
    assert sorted(listed) == sorted(board["pieces"])


def test_board_never_changes_the_state(game):
    session = played(game, actions=30)
    before = game.digest(session.state)
    log_size = len(session.state["log"])
    game.board(session.state, "imperial")
    for entry in game.legal_actions(session.state, "imperial"):
        game.describe_action(session.state, entry)
        game.preview(session.state, entry)
    assert game.digest(session.state) == before and len(session.state["log"]) == log_size


def test_prompt_lists_every_legal_action_with_a_label(game):
    session = played(game, actions=10)
    board = game.board(session.state, "imperial")
    legal = game.legal_actions(session.state, "imperial")
    assert [a["action"] for a in board["prompt"]["actions"]] == legal
    assert all(a["label"] and a["label"] != a["action"]["verb"] for a in board["prompt"]["actions"])


def test_combat_preview_probabilities_add_up_to_one(game):
    """SGE-CMB-15: the odds of each result before the roll."""
    for seed in range(6):
        session = Session.new(game, "4", seed, {}, record_digests=False)
        rng = Rng.from_seed(seed, 5)
        while game.outcome(session.state) is None:
            if session.state["pending"]["kind"] == "combat":
                attacks = [a for a in game.legal_actions(session.state, "imperial") if a["verb"] == "attack"]
                if attacks:
                    odds = game.preview(session.state, attacks[0])
                    assert abs(sum(odds["results"].values()) - 1) < 1e-9
                    assert odds["sector"] == attacks[0]["at"]
                    assert game.preview(session.state, {"verb": "attack", "at": 99,
                                                        "type": "mil"}) is None
                    return
            session.perform("imperial",
                            game.choose_action(session.state, "imperial", "bot", rng))
    raise AssertionError("no combat prompt with an attack in six games")


def test_map_layout_has_every_sector_with_a_polygon(game):
    """SGE-MAP-16: the layout the window draws gives every sector its number, name, arm and
    system symbol, marks the Core, lists the Void cells, and names each sector's neighbours:
    exactly the map's adjacency."""
    layout = game.map_layout()
    galaxy = game.data.galaxy
    assert [s["number"] for s in layout["sectors"]] == list(range(1, 77))
    assert all(len(s["polygon"]) >= 3 for s in layout["sectors"])
    assert layout["core"] == 1 and layout["voids"]
    assert len(layout["voids"]) == len(galaxy.void_cells)
    for s in layout["sectors"]:
        n = s["number"]
        assert (s["name"], s["arm"], s["system"]) == (galaxy.name[n], galaxy.arm[n],
                                                       galaxy.is_system[n]), n
        assert s["core"] is (n == 1), n
        assert sorted(s["neighbours"]) == sorted(galaxy.neighbours[n]), n


def test_manual_adjustment_moves_a_unit_logs_it_and_keeps_the_prompt(game):
    session = played(game, actions=12)
    state = session.state
    prompt = state["pending"]
    uid = next(u for u, v in state["units"].items() if v["side"] == "imp" and v["loc"])
    old = state["units"][uid]["loc"]
    to = next(n for n in range(2, 77) if n != old)
    session.perform("imperial", {"verb": "adjust", "unit": uid, "to": to})
    assert session.state["units"][uid]["loc"] == to
    assert session.state["pending"] == prompt
    assert session.state["log"][-1]["kind"] == "adjust" and "by hand" in session.state["log"][-1]["text"]
    # The adjustment is an action like the others: a save replays it.
    from struggle_desktop.engine.session import Session as S
    again, report = S.from_document(game, session.to_document())
    assert report.ok and again.state["units"][uid]["loc"] == to


def test_manual_adjustment_refuses_bad_targets(game):
    session = played(game, actions=12)
    state = session.state
    uid = next(u for u, v in state["units"].items() if v["side"] == "imp" and v["loc"])
    assert "not a sector" in game.check_action(state, "imperial", {"verb": "adjust", "unit": uid, "to": 99})
    assert "already in" in game.check_action(state, "imperial", {"verb": "adjust", "unit": uid,
                                                                 "to": state["units"][uid]["loc"]})
    assert "not a mobile unit" in game.check_action(state, "imperial", {"verb": "adjust",
                                                                       "unit": "XX-1", "to": 3})


def test_every_map_answer_says_where_it_is_given(game):
    """The prompt tells the window where each answer is given on the map, so the window
    knows no action's shape: a move or placement is a drop of its counter, an attack or a
    purchase a click on its sector, an alliance move both, Continue neither."""
    from struggle_desktop.games.struggle.presentation import map_target

    pending = {"actor": {"force": "F2"}}
    assert map_target(pending, {"verb": "move", "unit": "SF-01", "to": 12}) == {
        "drop": {"piece": "SF-01", "sector": 12}}
    assert map_target(pending, {"verb": "place", "unit": "CG-02", "at": 3}) == {
        "drop": {"piece": "CG-02", "sector": 3}}
    assert map_target(pending, {"verb": "attack", "at": 20, "type": "mil"}) == {"sector": 20}
    assert map_target(pending, {"verb": "buy_unit", "at": 5, "type": "SF"}) == {"sector": 5}
    assert map_target(pending, {"verb": "alliance_move", "to": 75}) == {
        "sector": 75, "drop": {"piece": "force:F2", "sector": 75}}
    assert map_target(pending, {"verb": "done"}) == {}
    # The boards of a real game carry them, each naming a sector of the map.
    session = played(game, "3", 4, 0)
    seen = 0
    while game.outcome(session.state) is None and seen < 40:
        board = game.board(session.state, "imperial")
        for entry in board["prompt"]["actions"]:
            if "drop" in entry:
                assert entry["drop"]["sector"] in board["sectors"]
                seen += 1
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot",
                                                        Rng.from_seed(seen, 5)))
    assert seen >= 40


def test_the_game_prices_a_purchase_without_making_it(game):
    """SGE-REC-8: what a purchase costs now is what making it takes from the RP; the position
    itself is untouched, and a purchase that is not legal has no price."""
    session = played(game, "3", 4, 0)
    while session.state["pending"]["kind"] != "recruitment":
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot",
                                                        Rng.from_seed(1, 5)))
    state = session.state
    buy = next(a for a in game.legal_actions(state, "imperial") if a["verb"] == "buy_unit")
    rp = state["rp"]
    cost = game.purchase_cost(state, buy)
    assert cost is not None and cost > 0 and state["rp"] == rp
    session.perform("imperial", buy)
    assert session.state["rp"] == rp - cost
    assert game.purchase_cost(session.state, {"verb": "buy_unit", "type": "SF", "at": 999}) is None
