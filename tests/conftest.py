"""Options shared by the whole suite: `--thorough` runs the long random-game checks in full (CI and a
plain `pytest` play a fixed sample of them, to keep the suite's time within CI's)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--thorough",
        action="store_true",
        default=False,
        help="play the random-game checks in full (thousands of games) rather than their sample",
    )


@pytest.fixture
def thorough(request: pytest.FixtureRequest) -> bool:
    """True under `pytest --thorough`."""
    return bool(request.config.getoption("--thorough"))
