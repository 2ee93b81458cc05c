"""The ``>>>`` examples of the public API run: the Verifier, the formula parser, the prover
factory, the one play path and the conformance suites."""

from __future__ import annotations

import doctest
import importlib

import pytest

DOCUMENTED = (
    "reasoning.verifier",
    "reasoning.syntax",
    "provers.registry",
    "provers.conformance",
    "games.core.play",
    "games.core.conformance",
)


@pytest.mark.parametrize("module", DOCUMENTED)
def test_the_examples_run(module: str) -> None:
    found = doctest.testmod(
        importlib.import_module(module), optionflags=doctest.ELLIPSIS, raise_on_error=False
    )
    assert found.attempted > 0, f"{module} shows no example"
    assert found.failed == 0
