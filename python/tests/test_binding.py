"""The binding: rules, games, views, records, bots, the evaluator and the simulator."""

import json

import pytest
from conftest import play_game_randomly

import tripoley
from tripoley import Bot, Game, TripoleyError


def test_rules_from_a_preset_a_dict_and_a_house_rule_file():
    assert tripoley.rules("michigan-casino")["dealer_ante"] == 2
    assert tripoley.rules("pagat", bet_limit=5)["bet_limit"] == 5
    toml = tripoley.rules_to_toml({"preset": "rummoli", "deals": 2})
    assert tripoley.rules_from_toml(toml) == tripoley.rules("rummoli", deals=2)


def test_bad_rules_raise_with_the_engines_message():
    with pytest.raises(TripoleyError, match="unknown preset \"poker\""):
        tripoley.rules("poker")
    with pytest.raises(TripoleyError, match="bet_limit"):
        tripoley.rules("pagat", bet_limit=0)
    with pytest.raises(TripoleyError, match="these rules are for 3 to 8 players, not 9"):
        Game("michigan-casino", 9)


def test_t7_a_random_game_of_every_preset_conserves_chips(preset):
    game = Game(preset, 4)
    total = sum(game.stacks())

    def layout(g):
        return sum(chips for _, chips in g.view()["layout"])

    play_game_randomly(game, 1, each=lambda g: _assert(sum(g.stacks()) + layout(g) == total))
    assert sum(game.stacks()) + layout(game) == total


def _assert(ok):
    assert ok


def test_a_game_replayed_through_python_equals_its_record_replayed_in_rust(preset):
    game = play_game_randomly(Game(preset, 3), 7)
    record = game.record()
    assert json.loads(record)["version"] == tripoley._tripoley.Game.record_version()
    replayed = Game.from_record(record)
    for seat in [None, 0, 1, 2]:
        assert replayed.view(seat) == game.view(seat)
    assert replayed.stacks() == game.stacks()


def test_views_never_hold_a_hidden_card(preset):
    def check(game):
        hands, spare, _ = game.card_locations()
        assert game.view(None)["hand"] == []
        for seat in range(game.players):
            view = game.view(seat)
            assert sorted(view["hand"]) == sorted(hands[seat])
            for other, known in enumerate(view["known_cards"]):
                assert set(known) <= set(hands[other])
            assert set(view["spare_known"]) <= set(spare)
    play_game_randomly(Game(preset, 4), 3, each=check)


def test_an_illegal_action_raises_and_changes_nothing():
    game = Game("pagat", 4)
    while game.needs_chance():
        game.chance(seed=5)
    seat = game.to_act()
    before = game.view(seat)
    with pytest.raises(TripoleyError, match="not legal now"):
        game.apply(seat, {"bid": 100000})
    with pytest.raises(TripoleyError, match="turn"):
        game.apply((seat + 1) % 4, "keep")
    assert game.view(seat) == before


def test_d1_an_explicit_deck_is_dealt_as_given():
    deck = list(tripoley.CARDS)
    game = Game({"preset": "tripoley", "first_dealer": {"seat": 0}}, 4)
    game.chance(deck=deck)
    hands, spare, _ = game.card_locations()
    dealt = sorted(c for h in hands for c in h) + sorted(spare)
    assert sorted(dealt) == sorted(deck)
    with pytest.raises(TripoleyError):
        Game("pagat", 4).chance(deck=deck[:51])


def test_a_clone_is_independent():
    game = Game("pagat", 4)
    game.chance(seed=1)
    copy = game.clone()
    while copy.needs_chance():
        copy.chance(seed=2)
    assert game.pending() != copy.pending()


def test_p2_best_five():
    five, name, value = tripoley.best_five(["AS", "KS", "QS", "JS", "10S", "2C", "2D"])
    assert name == "royal flush"
    assert sorted(five) == sorted(["AS", "KS", "QS", "JS", "10S"])
    _, pair, low = tripoley.best_five(["2C", "2D", "5H", "9S", "JC"])
    assert low < value and "pair" in pair
    with pytest.raises(TripoleyError):
        tripoley.best_five(["AS", "KS"])


def test_simulate_returns_the_simulators_statistics():
    summary = tripoley.simulate("pagat", ["heuristic", "random", "random", "random"], deals=40, seed=3)
    # Exactly the deals asked: games that end early (T6) leave room for more.
    assert summary["deals"] == 40
    assert summary["games"] >= 10
    heuristic = next(b for b in summary["bots"] if b["bot"] == "heuristic")
    assert "mean" in heuristic["chips_per_deal"]


@pytest.mark.parametrize("kind", ["random", "heuristic", "expert"])
def test_our_bots_play_legal_actions(kind):
    bot = Bot(kind, "pagat", playouts=200)
    game = Game("pagat", 4)
    for step in range(60):
        if game.is_over():
            break
        if game.needs_chance():
            game.chance(seed=step)
            continue
        seat = game.to_act()
        action = bot.act(game, seat, seed=step)
        game.apply(seat, action)  # raises if illegal
        if step == 30:
            view = game.view(game.to_act()) if game.to_act() is not None else None
            if view is not None:
                game.apply(game.to_act(), bot.act_on_view(view, seed=1))


def test_napalm_plays_to_the_end_with_our_bots_and_replays():
    game = Game(napalm=True, players=3)
    bots = [Bot("heuristic", napalm=True), Bot("random", napalm=True), Bot("heuristic", napalm=True)]
    k = 0
    while not game.is_over():
        if game.needs_chance():
            game.chance(seed=k)
        else:
            seat = game.to_act()
            game.apply(seat, bots[seat].act(game, seat, seed=k))
        k += 1
    assert sum(game.stacks()) == 300
    replayed = Game.from_record(game.record())
    assert replayed.stacks() == game.stacks()
    assert replayed.view(1) == game.view(1)


def test_a_sampled_world_looks_the_same_from_the_seat():
    game = Game("pagat", 4)
    while game.needs_chance():
        game.chance(seed=9)
    seat = game.to_act()
    world = game.sample_world(seat, 4)
    assert world.view(seat) == game.view(seat)
    with pytest.raises(TripoleyError, match="no record"):
        world.record()


def test_d1_a_viewer_gets_only_its_own_hand_among_the_events():
    game = Game({"preset": "pagat", "first_dealer": {"seat": 0}}, 4)
    mine = game.chance(seed=3, viewer=2)
    dealt = [e for e in mine if e["event"] == "dealt"]
    assert [d["seat"] for d in dealt] == [2]
    assert sorted(dealt[0]["cards"]) == sorted(game.view(2)["hand"])
    everyone = Game({"preset": "pagat", "first_dealer": {"seat": 0}}, 4).chance(seed=3)
    assert sorted(e["seat"] for e in everyone if e["event"] == "dealt") == [0, 1, 2, 3]


def test_a_record_of_another_version_is_refused_with_the_engines_message():
    game = play_game_randomly(Game("tripoley", 3), 2)
    record = json.loads(game.record())
    record["version"] = 99
    with pytest.raises(TripoleyError, match="record version 99 is not supported"):
        Game.from_record(record)
    with pytest.raises(TripoleyError, match="not a game record"):
        Game.from_record("{}")


def test_one_bot_asked_from_two_threads_answers_both():
    import threading
    bot = Bot("expert", "pagat", playouts=2000)
    game = Game("pagat", 4)
    while game.needs_chance():
        game.chance(seed=4)
    seat, answers = game.to_act(), []
    threads = [threading.Thread(target=lambda: answers.append(bot.act(game, seat, seed=1)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "the bot's lock and the GIL deadlocked"
    assert len(answers) == 2 and answers[0] == answers[1]
