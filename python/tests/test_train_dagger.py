"""The imitation example (examples/train_dagger.py) runs, and its learning shows."""

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")


def _example():
    path = Path(__file__).parent.parent / "examples" / "train_dagger.py"
    spec = importlib.util.spec_from_file_location("train_dagger", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def test_the_dagger_example_learns_to_play_the_experts_moves():
    example = _example()
    policy, history, results, seconds = example.main([
        "--tables", "32", "--rounds", "2", "--steps", "24", "--epochs", "4", "--hidden", "64",
        "--teacher-playouts", "10", "--playouts", "10", "--eval-tables", "8", "--eval-games", "1"])
    # The share of the expert's moves it plays on positions it has not learned from: an
    # untrained network plays few of them (about 0.3), a taught one most.
    agreement = [seen for seen, _ in history]
    assert agreement[0] < 0.45
    assert agreement[-1] > agreement[0] + 0.15
    assert set(results["heuristic"]) == {"learner", "heuristic", "expert"}
    assert results["heuristic"]["learner"].shape == (8, 1)
    assert seconds < 60
