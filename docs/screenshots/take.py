"""Take the README's screenshots of the ways to play, headless (SDL's dummy driver draws the same
pixels as a real window): `python docs/screenshots/take.py` writes the PNGs beside this file."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))


def main() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.bot.greedy import greedy_move
    from cribtiles.rules import RuleOptions
    from cribtiles.rules.scoring import score_play
    from cribtiles.table import parse_players
    from cribtiles.table.joker import items_of
    from cribtiles.table.model import Table
    from cribtiles.ui.autopilot import post_click, post_key
    from cribtiles.ui.config import NoKeeper, Preferences
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.window import App

    def play_on(table: Table, turns: int) -> Table:
        for i in range(turns):
            move = greedy_move(table.view(table.state.current), random.Random(i))
            if table.person_to_move:
                table.play(move)
            else:
                table.play_bot(move)
        return table

    def frames(app: App, n: int = 8) -> None:
        for _ in range(n):
            app.frame(1 / 60)

    def shot(app: App, name: str) -> None:
        pygame.image.save(app.screen, str(HERE / name))
        print(f"wrote {HERE / name}")
        app.close()

    prefs = Preferences(speed="instant")
    # four at the table: two people and two bots, mid-game
    table = play_on(Table.new(parse_players("Ann,Ben,hard,easy"), seed=5), 10)
    while table.bot_to_move:
        play_on(table, 1)
    app = App(table, prefs, NoKeeper(), size=(1280, 800))
    frames(app)
    post_key(pygame.K_RETURN)  # the person is ready: the curtain lifts
    frames(app)
    shot(app, "four-players.png")
    # hot seat: the curtain between two people's turns
    app = App(play_on(Table.new(parse_players("Ann,Ben,medium"), seed=9), 4), prefs, NoKeeper(), size=(1280, 800))
    frames(app)
    shot(app, "hot-seat-curtain.png")
    # the Joker rule: counting a play by pointing at its combinations
    table = Table.new(parse_players("You,expert"), RuleOptions.parse("joker=on"), seed=2)
    while table.bot_to_move:
        play_on(table, 1)
    app = App(table, prefs, NoKeeper(), size=(1280, 800))
    frames(app)
    game = app.game
    board = game.state.board
    play = max(game.state.legal_plays(), key=lambda p: (len(items_of(score_play(board, p))), len(p.placements)))
    for p in play.placements:
        tid = next(i for i in game.draft.order if game.draft.tiles[i] == p.tile.rack_form)
        if game.draft.face(tid) != p.tile:
            game.flip(tid)
        game.draft.place(tid, board, p.square)
    game.refresh_preview()
    post_key(pygame.K_RETURN)
    frames(app)
    for square in sorted(items_of(score_play(board, play))[0].squares):
        post_click(centre(app.layout.square_rect(square)))
        frames(app, 2)
    shot(app, "joker-count.png")


if __name__ == "__main__":
    main()
