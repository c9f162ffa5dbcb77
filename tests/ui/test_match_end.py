"""The end of a round and of a match at the window: the Servant's badge and pewter pegs, the running
totals and the match's winner on the end card, and Solitaire's colour and margin."""

from __future__ import annotations

import random
import re

import pygame

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.options import RuleOptions
from cribtiles.table import parse_players
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.table import Table
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.paint import SERVANT
from cribtiles.ui.pegboard import score_point, tracks
from cribtiles.ui.tiles import endcard
from cribtiles.ui.tiles.end_scene import EndScene
from cribtiles.ui.tiles.panel import servants
from cribtiles.ui.tiles.table import TableView
from cribtiles.ui.window import App


def play_round(table: Table) -> None:
    n = 0
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(n))
        table.play_bot(move) if table.bot_to_move else table.play(move)
        n += 1


def frames(app: App, n: int = 4, dt: float = 1 / 60) -> None:
    for _ in range(n):
        app.frame(dt)


def test_after_a_round_the_lowest_total_is_the_servant_with_a_badge_and_pewter_pegs() -> None:
    table = Table.new(parse_players("Ann,Ben,hard"), RuleOptions.parse("rounds=3"), seed=5)
    play_round(table)
    final = table.state.final_scores()
    low = tuple(p for p, s in enumerate(final) if s == min(final))
    assert table.match.servant == low == (0,)  # Ann, with 120 after the racks are counted
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        assert isinstance(app.scenes[-1], EndScene)
        snap = app.game.snapshot()
        assert servants(snap) == (0,)
        assert endcard.title(snap) == f"{snap.state.names[table.state.outcome.winners[0]]} won round 1 of 3"
        assert endcard.match_line(snap) == "Ann is the Servant: the lowest total after round 1."
        surf = pygame.Surface(app.screen.get_size())
        TableView().draw(surf, snap, full=True)  # the table under the card
        for p, (track, _, by) in enumerate(tracks(snap.layout.pegboard, snap.state.players)):
            x, y = score_point(track, snap.pegs[p].shown)
            colour = tuple(surf.get_at((round(x) + 1, round(y) + 1)))[:3]
            assert (colour == SERVANT) == (p == 0)  # the Servant's front peg is pewter, the others are not
            band = pygame.Rect(snap.layout.pegboard[0], round(by), snap.layout.pegboard[2], track[3])
            pewter = sum(
                1
                for px in range(band.left, band.right)
                for py in range(band.top, band.bottom)
                if tuple(surf.get_at((px, py)))[:3] == SERVANT
            )
            assert (pewter > 150) == (p == 0)  # the badge (and the pegs) in the Servant's band only
    finally:
        app.close()


def test_the_last_round_names_the_match_winner_and_every_total() -> None:
    table = Table.new(parse_players("Ann,Ben,hard"), RuleOptions.parse("rounds=2"), seed=5)
    play_round(table)
    first = table.state.final_scores()
    table.next_round()
    play_round(table)
    second = table.state.final_scores()
    totals = tuple(a + b for a, b in zip(first, second, strict=True))
    assert table.match.is_over and table.match.totals == totals
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        snap = app.game.snapshot()
        best = max(totals)
        winners = [snap.state.names[p] for p, t in enumerate(totals) if t == best]
        assert endcard.title(snap) == f"{winners[0]} won the match" and len(winners) == 1
        low = [snap.state.names[p] for p, t in enumerate(totals) if t == min(totals)]
        assert endcard.match_line(snap) == f"After 2 rounds. {low[0]} is the Servant: the lowest total."
        assert not snap.next_is_round
    finally:
        app.close()


def test_solitaire_says_which_colour_won_and_by_how_much() -> None:
    table = Table.new(parse_players("Ann,hard"), RuleOptions.parse("mode=solitaire"), seed=5)
    play_round(table)
    o = table.state.outcome
    assert o is not None and table.state.names == ("Dark", "Light")
    app = App(table, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        frames(app)
        title = endcard.title(app.game.snapshot())
        assert title == "Light won by 5"  # Light 270, Dark 265 once the racks are counted
        assert o.final_scores == (265, 270) and o.winners == (1,)
        assert re.fullmatch(r"(Dark|Light) won by \d+", title)
    finally:
        app.close()
