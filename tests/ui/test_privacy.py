"""Hot seat privacy through posted events: after a person plays with the coach's note on, nothing drawn
or snapshotted while the curtain is down, nor once the next person's rack is uncovered, names a tile of
the first person's rack; the hint, the best plays and the tiles still out are the uncovered person's;
the note on a play waits for its player's next uncovered turn."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pygame
import pytest

from cribtiles.bot.coach import after_play_note, tiles_out
from cribtiles.bot.opens import opens_note
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.board import parse_square
from cribtiles.rules.moves import Play
from cribtiles.rules.scoring import score_play
from cribtiles.rules.tiles import parse_tile
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui import art
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.tiles.autopilot import post_key
from cribtiles.ui.window import App

ANN, BEN = 0, 1
#: a tile named alone ("keeps 6L 7D") and a tile on a square ("b10=6L")
ALONE = re.compile(r"(?<![\w=])(?:[A2-9TJQK]|10)[LD](?!\w)")
PLACED = re.compile(r"\b([a-m](?:1[0-3]|[1-9]))=((?:[A2-9TJQK]|10)[LD])\b")


def frames(app: App, n: int = 3) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def ann_to_move(players: str, seed: int, turns: int) -> Table:
    """A table after at least `turns` greedy turns, with Ann (seat 0) to move."""
    table = Table.new(parse_players(players), seed=seed)
    i = 0
    while i < turns or table.state.current != ANN:
        i += 1
        move = greedy_move(table.view(table.state.current), random.Random(i))
        if table.person_to_move:
            table.play(move)
        else:
            table.play_bot(move)
    assert not table.round_over
    return table


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn, as the window renders it (cleared by the test between moments)."""
    said: list[str] = []
    real = art.text

    def text(s: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        said.append(s)
        return real(s, size, colour)

    monkeypatch.setattr(art, "text", text)
    yield said


def look(app: App, drawn: list[str]) -> list[str]:
    """The texts of one whole frame drawn now."""
    drawn.clear()
    app.game.draw(app.screen, full=True)
    return list(drawn)


def named_only_public(app: App, texts: list[str]) -> None:
    """Every tile the texts name lies on the board, or on the rack uncovered now (none under the curtain)."""
    game = app.game
    board = game.state.board
    uncovered = game.uncovered
    mine = set() if uncovered is None else {t.rack_form for t in game.session.table.state.racks[uncovered]}
    for text in texts:
        for square, tile in PLACED.findall(text):
            named = parse_tile(tile)
            assert board[parse_square(square)] == named or named.rack_form in mine, text
        for tile in ALONE.findall(PLACED.sub("", text)):
            assert parse_tile(tile).rack_form in mine, text


def worst_play(table: Table) -> Play:
    state = table.state
    return min(state.legal_plays(), key=lambda p: (score_play(state.board, p).total, str(p)))


def best_play(table: Table) -> Play:
    state = table.state
    return max(state.legal_plays(), key=lambda p: (score_play(state.board, p).total, str(p)))


def test_nothing_of_anns_rack_reaches_bens_screen(drawn: list[str]) -> None:
    table = ann_to_move("Ann,Ben,hard", 1, 4)
    state = table.state
    worst = worst_play(table)
    note = after_play_note(state.board, state.racks[ANN], worst, state.scorer)
    assert note == "best was b10=6L c10=6L for 8 (you scored 2)"
    app = App(table, Preferences(speed="instant", coach_notes=True, tiles_out=True), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        assert game.curtain == ANN
        post_key(pygame.K_RETURN)  # Ann is ready
        post_key(pygame.K_b)  # and opens her best plays
        frames(app)
        snap = game.snapshot()
        assert snap.coach is not None and snap.coach.candidates and snap.coach.tiles_out == tiles_out(table.view(ANN))
        game.coaching.lay(worst)  # as a click on a candidate lays it; then played with Enter
        post_key(pygame.K_RETURN)
        frames(app)
        assert table.state.turns[-1].move == worst and table.state.current == BEN
        assert parse_tile("6L") in table.state.racks[ANN]  # named by the note, still on Ann's rack
        assert parse_tile("6L") not in table.state.racks[BEN]

        # the curtain is down for Ben: no rack, no note, no coach's panel, no tiles still out
        assert game.curtain == BEN and game.uncovered is None
        snap = game.snapshot()
        assert snap.draft.tiles == () and snap.live is None
        assert snap.coach is not None and snap.coach.candidates is None and snap.coach.tiles_out is None
        assert not any("Coach" in t for t in snap.toasts)
        texts = look(app, drawn)
        assert "Pass to Ben" in texts
        assert not any("best was" in t or "Coach" in t or "Tiles still out" in t for t in texts)
        named_only_public(app, texts)

        # Ben's rack uncovered: the tiles still out and the best plays are his
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.uncovered == BEN and game.my_turn
        snap = game.snapshot()
        assert snap.coach is not None and snap.coach.tiles_out == tiles_out(table.view(BEN))
        assert tiles_out(table.view(BEN)) != tiles_out(table.view(ANN))
        assert snap.draft.tiles == tuple(t.rack_form for t in table.state.racks[BEN])
        post_key(pygame.K_b)
        frames(app)
        found = game.snapshot().coach.candidates  # type: ignore[union-attr]
        assert found
        for s in found:
            rack = [t.rack_form for t in table.state.racks[BEN]]
            for p in s.move.placements if isinstance(s.move, Play) else ():
                rack.remove(p.tile.rack_form)  # every candidate is made of Ben's tiles
        texts = look(app, drawn)
        assert not any("best was" in t or "Coach" in t for t in texts)
        assert any(t.startswith("Tiles still out") for t in texts)
        named_only_public(app, texts)
        post_key(pygame.K_b)  # the best plays put away
        post_key(pygame.K_i)  # and the hint: Hard's choice for Ben's rack
        frames(app)
        hint = game.snapshot().coach.hint  # type: ignore[union-attr]
        assert hint is not None and isinstance(hint.move, Play)
        rack = [t.rack_form for t in table.state.racks[BEN]]
        for p in hint.move.placements:
            rack.remove(p.tile.rack_form)
        named_only_public(app, look(app, drawn))  # its "keeps ..." names Ben's tiles only
        post_key(pygame.K_i)  # put away

        # Ben plays his best: the curtain falls at once for Ann, even while Hard moves first
        ben = best_play(table)
        game.coaching.lay(ben)
        post_key(pygame.K_RETURN)
        frames(app)
        assert table.state.turns[-1].move == ben
        assert game.curtain == ANN and game.snapshot().draft.tiles == ()
        while table.state.current != ANN:
            frames(app)
            assert game.curtain == ANN
            texts = look(app, drawn)
            assert not any("best was" in t or "Coach" in t for t in texts)
            named_only_public(app, texts)

        # Ann's rack uncovered: the coach's note on her last play is hers to read now
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.uncovered == ANN
        said = [t for t in game.snapshot().toasts if t.startswith("Coach")]
        assert said == [f"Coach, on your last play: {note}."]
        assert any(t.startswith("Coach, on your last play") or "best was" in t for t in look(app, drawn))
    finally:
        app.close()


def test_two_people_alone_the_note_waits_for_its_player(drawn: list[str]) -> None:
    table = ann_to_move("Ann,Ben", 1, 4)
    state = table.state
    worst = worst_play(table)
    note = after_play_note(state.board, state.racks[ANN], worst, state.scorer)
    assert note.startswith("best was ")
    opens = opens_note(table.view(ANN), worst)  # what it opens, from Ann's view: hers to read too
    if opens:
        note += ". " + opens.removesuffix(".")
    app = App(table, Preferences(speed="instant", coach_notes=True), NoKeeper(), size=(1280, 800))
    try:
        game = app.game
        frames(app)
        post_key(pygame.K_RETURN)
        frames(app)
        game.coaching.lay(worst)
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.curtain == BEN
        assert not any("Coach" in t for t in look(app, drawn))
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.uncovered == BEN
        assert not any("Coach" in t for t in game.snapshot().toasts)
        assert not any("best was" in t for t in look(app, drawn))
        game.coaching.lay(best_play(table))
        post_key(pygame.K_RETURN)
        frames(app)
        assert game.curtain == ANN
        assert not any("Coach" in t for t in look(app, drawn))
        post_key(pygame.K_RETURN)
        frames(app)
        assert [t for t in game.snapshot().toasts if "Coach" in t] == [f"Coach, on your last play: {note}."]
    finally:
        app.close()
