"""What the package declares (issue 51): each module's extra named when its library is
missing, and the pool's threads defaulting to the machine's idle cores."""

import os
import subprocess
import sys

import pytest

import tripoley.vector
from tripoley.vector import TripoleyEnvPool


@pytest.mark.parametrize("module, missing, extra", [
    ("tripoley.vector", "gymnasium", "gymnasium"),
    ("tripoley.gym", "gymnasium", "gymnasium"),
    ("tripoley.pettingzoo", "pettingzoo", "pettingzoo"),
    ("tripoley.openspiel", "pyspiel", "openspiel"),
])
def test_a_module_whose_library_is_missing_names_its_extra(module, missing, extra):
    # A fresh interpreter in which the library cannot be imported (None in sys.modules).
    code = f"import sys; sys.modules[{missing!r}] = None; import {module}"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError:"), run.stderr
    assert f"tripoley[{extra}]" in last and missing in last, last


def test_the_idle_cores_are_the_cores_allowed_less_the_load(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    for load, idle in [(0.0, 8), (2.6, 5), (7.4, 1), (30.0, 1)]:
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert tripoley.vector.free_cores() == idle, load


def test_the_pools_threads_default_to_the_idle_cores(monkeypatch):
    # Not 2 whatever the machine: a busy machine's threads wait for cores.
    monkeypatch.setattr(tripoley.vector, "free_cores", lambda: 3)
    assert TripoleyEnvPool(8, 4, opponents="random").threads == 3
    assert TripoleyEnvPool(8, 4, opponents="random", threads=2).threads == 2
