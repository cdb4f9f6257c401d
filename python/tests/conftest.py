"""Shared helpers: random play through each interface."""

import random

import pytest

import tripoley

PRESETS = tripoley.presets()


def play_game_randomly(game: tripoley.Game, seed: int, each=None) -> tripoley.Game:
    """Plays ``game`` to the end with uniformly random legal actions (a random five for a
    poker hand), chance from seeds; calls ``each(game)`` before every step."""
    rng = random.Random(seed)
    while not game.is_over():
        if each:
            each(game)
        if game.needs_chance():
            game.chance(seed=rng.getrandbits(63))
            continue
        seat = game.to_act()
        decision = game.pending()["decide"]["decision"]
        if isinstance(decision, dict) and "choose_five" in decision:
            action = {tripoley.CHOOSE_FIVE_KEY: rng.sample(decision["choose_five"]["from"], 5)}
        else:
            action = rng.choice(game.legal(seat))
        game.apply(seat, action)
    return game


@pytest.fixture(params=PRESETS)
def preset(request):
    return request.param
