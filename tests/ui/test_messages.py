"""Messages (a pass, an exchange, a refused button) sit at the foot of the side panel's text box, and
the text and the turn list end above them: they cover no row the player reads."""

from __future__ import annotations

import random

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import new_game
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.panel import info_rows, toast_boxes
from cribtiles.ui.window import App


def test_messages_sit_below_every_row_of_the_panel() -> None:
    state = new_game(2, seed=4, names=("You", "Medium"))
    for k in range(14):  # turns enough to fill the turn list
        state = state.apply(greedy_move(state.view(state.current), random.Random(k)))
    a = App(state, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        game = a.game
        rows_before = info_rows(game.snapshot())
        assert rows_before[-1].left.startswith(("You", "Medium"))  # the turn list fills the panel
        game.toast("Animation speed: fast")
        game.toast("Medium passed, and this message is long enough to take two lines of the side panel.")
        snap = game.snapshot()
        boxes = toast_boxes(snap)
        assert len(boxes) == 2 and len(boxes[0][1]) == 2 and len(boxes[1][1]) == 1  # the newest lowest
        top = min(r[1] for r, _ in boxes)
        rows = info_rows(snap)
        assert all(r.rect[1] + r.rect[3] <= top for r in rows)  # no row under a message
        assert any(r.rect[1] + r.rect[3] > top for r in rows_before)  # without them the turns went there
        assert [r.left for r in rows] == [r.left for r in rows_before][: len(rows)]  # the list ends sooner
    finally:
        a.close()
