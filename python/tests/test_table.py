"""The integer interface: the mask is exactly the engine's legal actions."""

import random

import pytest

import tripoley
from tripoley import Bot, Table


def _fives(table: Table) -> set:
    """Every five reachable through the picks the masks allow, as engine actions."""
    found = set()
    stack = [table]
    while stack:
        t = stack.pop()
        for a in t.legal():
            action = t.engine_action(a)
            if "pick" in action:
                nxt = t.clone()
                nxt.step(a)
                stack.append(nxt)
            else:
                found.add(tuple(sorted(action[tripoley.CHOOSE_FIVE_KEY])))
    return found


def _check_mask(table: Table) -> None:
    mask = table.mask()
    legal = [a for a in range(table.num_actions) if mask[a]]
    assert legal == table.legal()
    engine = table.engine_legal()
    picks = [table.engine_action(a) for a in legal]
    if table.picked():
        return  # in the middle of a five: checked whole at its first pick
    if picks and "pick" in picks[0]:
        assert _fives(table) == {tuple(sorted(a[tripoley.CHOOSE_FIVE_KEY])) for a in engine}
        return
    decoded = sorted(map(repr, picks))
    assert decoded == sorted(map(repr, engine))


@pytest.mark.parametrize("preset", tripoley.presets())
def test_the_mask_is_always_the_engines_legal_actions(preset):
    rng = random.Random(5)
    table = Table(preset, 4, seed=2)
    while table.current() >= 0:
        _check_mask(table)
        table.step(rng.choice(table.legal()))
    assert table.current() == Table.TERMINAL
    # T7: every chip is in a stack or on the layout (cosmo keeps its last chips there).
    assert sum(table.returns()) + sum(chips for _, chips in table.view()["layout"]) == 0


def test_p1_the_five_is_picked_in_increasing_card_order_and_out_of_order_picks_raise():
    table = Table("pagat", 3, seed=4)
    rng = random.Random(1)
    while table.current() >= 0:
        legal = table.legal()
        first = table.engine_action(legal[0])
        if isinstance(first, dict) and "pick" in first and table.view(table.current())["decision"]:
            hand = table.view(table.current())["hand"]
            assert all(a < 52 for a in legal)
            table.step(legal[-1])
            with pytest.raises(tripoley.TripoleyError, match="not legal"):
                table.step(legal[0])
            return
        table.step(rng.choice(legal))
    pytest.fail("no poker five was chosen")


def test_the_table_record_replays_in_rust():
    table = Table("rummoli", 4, seed=8)
    rng = random.Random(3)
    while table.current() >= 0:
        table.step(rng.choice(table.legal()))
    game = tripoley.Game.from_record(table.record())
    assert game.stacks() == table.stacks()


def test_our_bots_play_a_table_in_integers():
    table = Table("pagat", 4, seed=3)
    bots = [Bot("heuristic", "pagat"), Bot("random", "pagat"), Bot("expert", "pagat", playouts=100),
            Bot("heuristic", "pagat")]
    while table.current() >= 0:
        for a in bots[table.current()].steps(table):
            table.step(a)
    assert sum(table.returns()) == 0


def test_chance_from_outside_deals_card_by_card():
    table = Table("pagat", 4, seed=None)
    assert table.current() == Table.CHANCE
    outcomes = table.chance_outcomes()
    assert outcomes == list(range(52))
    table.apply_chance(10)
    assert 10 not in table.chance_outcomes()
    with pytest.raises(tripoley.TripoleyError):
        table.apply_chance(10)


def test_observations_are_the_seats_view_only():
    table = Table("pagat", 4, seed=6)
    obs = table.observation(0)
    assert obs.shape == (table.observation_size,) and obs.dtype.name == "float32"
    hand = set(table.view(0)["hand"])
    assert {tripoley.CARDS[i] for i in range(52) if obs[i] == 1.0} == hand
    with pytest.raises(tripoley.TripoleyError, match="no seat 4"):
        table.observation(4)


@pytest.mark.parametrize("preset", ["pagat", "michigan-casino"])
def test_an_observation_is_unchanged_when_every_hidden_card_is_dealt_again(preset):
    table = Table(preset, 4, seed=12)
    rng = random.Random(4)
    checked = 0
    while table.current() >= 0:
        seat = table.current()
        world = table.resample(seat, rng.getrandbits(32))
        assert (world.observation(seat) == table.observation(seat)).all()
        assert world.information(seat) == table.information(seat)
        checked += 1
        table.step(rng.choice(table.legal()))
    assert checked > 50
