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


def _first_hand_of_next_deal(table: Table, seat: int) -> list:
    """Plays the first legal integer until the next deal is dealt; ``seat``'s hand then."""
    done = table.deals_done()
    while table.current() >= 0 and table.deals_done() == done:
        table.step(table.legal()[0])
    assert table.current() >= 0, "the game lasts past this deal"
    return table.view(seat)["hand"]


def test_a_resampled_world_deals_futures_independent_of_the_real_one():
    # A search over a multi-deal game must not see future cards: the deck of
    # every later deal in a resampled world is drawn afresh.
    real = Table("pagat", 4, seed=21)
    for _ in range(6):
        real.step(real.legal()[0])
    seat = real.current()
    worlds = [real.resample(seat, s) for s in range(20)]
    future = _first_hand_of_next_deal(real.clone(), seat)
    sampled = [_first_hand_of_next_deal(w, seat) for w in worlds]
    assert sum(h == future for h in sampled) <= 1
    assert len({tuple(h) for h in sampled}) >= 19


def test_asking_a_bot_never_changes_the_game():
    asked, alone = Table("pagat", 4, seed=5), Table("pagat", 4, seed=5)
    bot = Bot("random", "pagat")
    for _ in range(8):
        if not asked.picked():
            bot.steps(asked)  # no seed: a bot's randomness is its own
        action = asked.legal()[0]
        asked.step(action)
        alone.step(action)
    assert _first_hand_of_next_deal(asked, 0) == _first_hand_of_next_deal(alone, 0)


@pytest.mark.parametrize("kind", ["heuristic", "expert"])
def test_p1_a_bot_finishes_a_five_another_policy_started(kind):
    bot = Bot(kind, "pagat", playouts=20)
    finished = 0
    for seed in range(12):
        table, rng = Table("pagat", 4, seed=seed), random.Random(seed)
        while table.current() >= 0:
            first = table.engine_action(table.legal()[0])
            if isinstance(first, dict) and "pick" in first and not table.picked():
                break
            table.step(rng.choice(table.legal()))
        else:
            continue
        table.step(rng.choice(table.legal()))  # another policy picks a first card
        picked = table.picked()
        steps = bot.steps(table, seed=seed)
        for a in steps:
            table.step(a)
        assert len(picked) == 1 and len(steps) == 4
        assert not table.picked(), "the five is chosen: its picks are done"
        finished += 1
    assert finished >= 10


def test_t5_space_antes_play_a_whole_game_from_python_and_replay_in_rust():
    """The boxed game's chips of different values (T5, house rule space_antes): every
    player puts 2 on the Pot and the Kitty and 1 elsewhere; the game plays to its
    end, chips are conserved, and its record replays in Rust to the same stacks."""
    rules = tripoley.rules("pagat", space_antes={"pot": 2, "kitty": 2})
    assert rules["space_antes"] == {"pot": 2, "kitty": 2}
    game = tripoley.Game(rules, 4)
    game.chance(seed=5)
    layout = dict(game.view()["layout"])
    assert layout["pot"] == 8 and layout["kitty"] == 8 and layout["ace"] == 4
    assert sum(game.stacks()) + sum(layout.values()) == 4 * rules["starting_chips"]
    table = Table(rules, 4, seed=11)
    rng = random.Random(7)
    while table.current() >= 0:
        table.step(rng.choice(table.legal()))
    assert sum(table.returns()) == 0
    replayed = tripoley.Game.from_record(table.record())
    assert replayed.rules()["space_antes"] == {"pot": 2, "kitty": 2}
    assert replayed.stacks() == table.stacks()


def test_t5_space_antes_name_only_spaces_of_the_layout():
    with pytest.raises(tripoley.TripoleyError, match="king_queen"):
        tripoley.rules("pagat", space_antes={"pott": 2})
