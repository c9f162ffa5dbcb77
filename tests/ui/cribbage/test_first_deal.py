"""The first deal of a cribbage game tells who deals and why (the cut for deal) all through it, in every
variant, under what came after (issue 44, defect 19: the six-card game's first deal showed no cut once the
bot had laid its crib cards). Headless (SDL's dummy driver), the game opened from the title."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cribtiles.cribbage.options import CribbageOptions, Variant
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui.window import App
from tests.ui.cribbage.test_scene import at_table, drive, frames, open_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


@pytest.mark.parametrize("variant", [Variant.SIX_CARD, Variant.FIVE_CARD, Variant.THREE])
def test_the_cut_for_deal_is_told_through_the_first_deal(app: App, variant: Variant) -> None:
    table = CribbageTable.new(1, "medium", CribbageOptions(variant=variant))
    told = table.state.names
    cut = [line for line in _lines_of(app, table) if " cut " in line]
    assert cut and cut[-1].endswith(f"card deals, {told[table.state.dealer]}"), cut
    while table.state.deal_number == 1 and not table.person_to_move:  # the bots' crib cards laid
        table.bot_move()
    if table.person_to_move:
        drive(table, "discard " + " ".join(str(c) for c in table.view().hand[: variant.to_crib]))
    assert table.story  # moves made: the cut still told, below them
    assert [line for line in _lines_of(app, table) if " cut " in line] == cut


def _lines_of(app: App, table: CribbageTable) -> list[str]:
    scene = at_table(app, table)
    frames(app)
    lines = [line.text for line in scene.snapshot().lines]
    app.close_top()
    frames(app)
    return lines
