"""Every ``>>>`` example under faucet_core runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import faucet_core

ROOT = Path(faucet_core.__file__).parent
MODULES = sorted(
    ".".join(("faucet_core", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(
        ".__init__"
    )
    for path in ROOT.rglob("*.py")
)


@pytest.mark.parametrize("name", MODULES, ids=MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0


def test_the_profiler_example_is_found() -> None:
    from faucet_core.profile import profiler

    finder = doctest.DocTestFinder()
    names = [t.name for t in finder.find(profiler) if t.examples]
    assert "faucet_core.profile.profiler.Profiler" in names
    result = doctest.testmod(profiler)
    assert result.attempted >= 4
    assert result.failed == 0
