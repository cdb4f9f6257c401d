"""Typing: the package is marked typed (PEP 561) and its Rust extension has stubs, so mypy
checks code using the whole API, and catches misuse."""

import subprocess
import sys
import textwrap
from pathlib import Path

import tripoley

_USE = textwrap.dedent('''
    import numpy as np
    import tripoley
    from tripoley import _tripoley
    from tripoley.pettingzoo import raw_env

    table = tripoley.Table("pagat", 4, seed=1)
    mask: np.ndarray = table.mask()
    steps: list[int] = tripoley.Bot("heuristic").steps(table)
    raw: _tripoley.Table = _tripoley.Table("{}", 3, 7, False)
    pairs: list[tuple[int, float]] = raw.chance_pairs()
    env = raw_env("pagat", 3)
    env.reset(seed=1)
    # The stubs' __new__ returns Self: the environment is a raw_env, not the
    # extension's Aec it is built on (issue 51: pyright flagged README's example).
    same: raw_env = raw_env("pagat", 4)
''')


def _mypy(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    script = tmp_path / "use.py"
    script.write_text(code)
    # One cache for both runs: the second checks only the script again.
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                           str(tmp_path / "cache"), "--follow-imports=silent",
                           "--ignore-missing-imports", str(script)],
                          capture_output=True, text=True, cwd=tmp_path)


def test_the_package_is_typed_and_mypy_checks_its_use(tmp_path):
    package = Path(tripoley.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_tripoley.pyi").exists()
    ok = _mypy(_USE, tmp_path)
    assert ok.returncode == 0, ok.stdout
    wrong = _mypy(_USE + "text: str = raw.legal()\nraw.step('a card')\n", tmp_path)
    assert "raw.legal()" in wrong.stdout or "list[int]" in wrong.stdout, wrong.stdout
    assert wrong.stdout.count("error:") == 2, wrong.stdout
