"""Take the screenshots of the ways to play (README.md and docs/), headless (SDL's dummy driver draws the same
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

    from cribtiles.bot.tiles.greedy import greedy_move
    from cribtiles.rules import RuleOptions
    from cribtiles.rules.scoring import score_play
    from cribtiles.table import parse_players
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.joker import items_of
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.tiles.autopilot import post_click, post_key
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
    play = max(table.state.legal_plays(), key=lambda p: (len(items_of(score_play(board, p))), len(p.placements)))
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
    around_the_game(play_on, frames, shot)


def cribbage_played(seed: int, level: str, counting: str = "auto"):  # type: ignore[no-untyped-def]
    """A finished game of cribbage, seat 0 played by the Hard bot (for "you"), seat 1 by `level`; counted
    by the table, by hand ("manual": "you" count every third hand of yours 2 short, corrected) or with
    muggins ("you" as the Easy bot counts, with its slips)."""
    from cribtiles.bot.cribbage.bots import CountingManners
    from cribtiles.bot.cribbage.levels import make_cribbage_bot
    from cribtiles.cribbage import Count, CribbageOptions, new_game, show_total

    options = CribbageOptions(muggins=counting == "muggins", manual_count=counting == "manual")
    bots = (make_cribbage_bot("hard"), make_cribbage_bot(level))
    slips = CountingManners(miscount=0.25, oversight=0.4)
    state = new_game(seed, options=options)
    rng = random.Random(seed)
    counted = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        move = bots[seat].choose(view, rng)
        if seat == 0 and isinstance(move, Count) and state.starter is not None:
            cards, crib = state.show_cards(state.show_step)
            if counting == "manual":
                counted += 1
                worth = show_total(cards, state.starter, crib)
                move = Count(max(0, worth - 2) if counted % 3 == 0 else worth)
            elif counting == "muggins":
                move = Count(slips.count(view, rng))
        state = state.apply(move)
    return state


def around_the_game(play_on, frames, shot) -> None:  # type: ignore[no-untyped-def]
    """The screens around the table: title, settings, rules pages, tutorial, history, statistics,
    a replay, undo and the question before a play."""
    import pygame

    from cribtiles.table import parse_players
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    prefs = Preferences(speed="instant", tutorial_offered=True)
    keeper = NoKeeper()
    for seed, players in ((21, "You,easy"), (22, "You,medium"), (23, "You,hard"), (24, "You,hard"), (25, "You,medium")):
        table = Table.new(parse_players(players), seed=seed)
        while not table.round_over:
            play_on(table, 1)
        if seed == 24:
            table.undos = 2
        keeper.record_game(table)
    match = Table.new(parse_players("You,hard"), __import__("cribtiles").rules.RuleOptions.parse("rounds=2"), seed=26)
    while not match.match_over:
        while not match.round_over:
            play_on(match, 1)
        if match.next_is_round:
            match.next_round()
    keeper.record_game(match)
    unfinished = play_on(Table.new(parse_players("You,hard"), seed=27), 6)

    import tempfile
    from pathlib import Path

    from cribtiles.app.online_games import OnlineGames
    from cribtiles.ui.online.services import OnlineServices

    # as the program starts: Online and Your online games on the title from the first frame (issue 44)
    online = OnlineServices(OnlineGames(Path(tempfile.mkdtemp())))
    app = App(unfinished, Preferences(speed="instant"), keeper, size=(1280, 800), title=True, online=online)
    frames(app)
    shot(app, "title.png")
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.menus.open_settings()
    post_key(pygame.K_DOWN)
    frames(app)
    shot(app, "settings.png")
    for page, name in ((5, "rules-runs.png"), (7, "rules-legal.png")):
        app = App(unfinished, prefs, keeper, size=(1280, 800))
        app.menus.open_rules(page)
        frames(app)
        shot(app, name)
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.menus.open_history()
    post_key(pygame.K_DOWN)
    frames(app)
    shot(app, "history.png")
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.menus.open_statistics()
    frames(app)
    shot(app, "statistics.png")
    games = ((31, "easy", "auto"), (32, "medium", "muggins"), (33, "hard", "manual"), (34, "hard", "auto"))
    for seed, level, counting in (*games, (35, "medium", "muggins"), (36, "easy", "manual")):
        keeper.record_cribbage(cribbage_played(seed, level, counting), 0, level)
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.menus.open_statistics()
    post_key(pygame.K_TAB)
    frames(app)
    shot(app, "statistics-cribbage.png")
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.open_replay(keeper.past_table(3))
    for _ in range(9):
        post_key(pygame.K_RIGHT)
    frames(app)
    shot(app, "replay.png")
    app = App(unfinished, prefs, keeper, size=(1280, 800))
    app.menus.open_tutorial()
    frames(app)
    shot(app, "tutorial.png")
    coach(play_on, frames, shot, keeper)


def coach(play_on, frames, shot, keeper) -> None:  # type: ignore[no-untyped-def]
    """The coach: a hint ghosted on the board, the best plays with the Expert's evaluation, the tiles
    still out, a game's review with its chart, a puzzle answered."""
    import time

    import pygame

    from cribtiles.table import parse_players
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    prefs = Preferences(speed="instant", tutorial_offered=True)
    table = play_on(Table.new(parse_players("You,hard"), seed=31), 12)
    while table.bot_to_move:
        play_on(table, 1)
    app = App(table, prefs, keeper, size=(1280, 800))
    frames(app)
    app.game.coaching.ask_hint()
    frames(app)
    shot(app, "coach-hint.png")
    app = App(table, prefs, keeper, size=(1280, 800))
    frames(app)
    app.game.coaching.toggle_candidates()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not app.game.snapshot().coach.expert_ran:
        frames(app, 2)
        time.sleep(0.05)
    frames(app)
    shot(app, "coach-best-plays.png")
    app = App(table, prefs, keeper, size=(1280, 800))
    frames(app)
    app.game.coaching.toggle_tiles_out()
    frames(app)
    shot(app, "coach-tiles-out.png")
    app = App(table, prefs, keeper, size=(1280, 800))
    app.open_review(keeper.past_table(3))
    scene = app.scenes[-1]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and getattr(scene, "review", None) is None:
        frames(app, 2)
        time.sleep(0.1)
    frames(app)
    shot(app, "review.png")
    app = App(table, prefs, keeper, size=(1280, 800))
    app.open_review(keeper.past_table(3))
    scene = app.scenes[-1]
    while time.monotonic() < deadline and getattr(scene, "review", None) is None:
        frames(app, 2)
        time.sleep(0.1)
    post_key(pygame.K_RETURN)  # the biggest miss: played and best side by side
    frames(app)
    shot(app, "review-turn.png")
    app = App(table, prefs, keeper, size=(1280, 800))
    app.menus.open_puzzles()
    frames(app)
    post_key(pygame.K_RETURN)  # the first puzzle
    frames(app)
    post_key(pygame.K_a)  # its answer, laid and lit
    frames(app)
    shot(app, "puzzle.png")


def cribbage(folder: Path = HERE, size: tuple[int, int] = (1280, 800)) -> None:
    """Classic cribbage: the discard with two cards chosen, the play with its count and a scoring
    explained (its cards lit), the show with a combination lit, the end. Your seat is played by posted
    events (the Medium bot's choices), as a person would."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from collections.abc import Callable

    import pygame

    from cribtiles.cribbage import PegKind
    from cribtiles.table import Seat
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.cribbage.paint import line_rects
    from cribtiles.ui.cribbage.pilot import CribbagePilot
    from cribtiles.ui.cribbage.scene import CribbageScene, Mode
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.tiles.autopilot import post_click
    from cribtiles.ui.window import App

    def table_app(table: CribbageTable) -> tuple[App, CribbageScene]:
        keeper = NoKeeper()
        keeper.save_cribbage(table)
        tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
        app = App(tiles, Preferences(speed="instant", tutorial_offered=True), keeper, size=size, title=True)
        app.menus.open_game("cribbage")
        app.frame(1 / 60)
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene)
        return app, scene

    def point_at(app: App, scene: CribbageScene, line: int) -> None:
        at = centre(line_rects(scene.layout, scene.snapshot().lines)[line])
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(3):
            app.frame(1 / 60)

    def until(app: App, scene: CribbageScene, wanted: Callable[[], bool]) -> None:
        pilot = CribbagePilot(scene, "medium", seed=scene.session.table.state.seed)
        for _ in range(20000):
            if wanted() or scene.ended:
                break
            pilot.step()
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0)))
            app.frame(1 / 60)
            app.frame(1 / 60)
        assert wanted(), "the moment wanted never came"

    def save(app: App, name: str) -> None:
        pygame.image.save(app.screen, str(folder / name))
        print(f"wrote {folder / name}")
        app.close()

    # the discard: two cards chosen for the crib, raised
    app, scene = table_app(CribbageTable.new(6, "hard"))  # you deal: 3H 4H 6C 9C TD KS
    for card in ("9C", "KS"):
        post_click(centre(scene.hand_rects()[[str(c) for c in scene.hand].index(card)]))
        app.frame(1 / 60)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(4):
        app.frame(1 / 60)
    save(app, "cribbage-discard.png")

    # the play: the count and a run (or a pair) just scored, its cards lit from the panel
    def scored_in_the_play() -> bool:
        story = scene.session.table.story
        kinds = {e.kind for e in story[-1].events} if story else set()
        return (
            scene.mode is Mode.PLAY
            and scene.session.table.person_to_move
            and len(scene.session.table.state.pile) >= 3
            and bool(kinds & {PegKind.RUN, PegKind.PAIR, PegKind.PAIR_ROYAL})
        )

    app, scene = table_app(CribbageTable.new(12, "hard"))
    until(app, scene, scored_in_the_play)
    lines = scene.snapshot().lines
    point_at(app, scene, next(i for i, line in enumerate(lines) if len(line.cards) >= 2))
    save(app, "cribbage-play.png")

    # the show: a hand of several combinations counted, a run pointed at and lit
    def rich_show() -> bool:
        counted = scene.session.table.counted
        return scene.mode is Mode.SHOW and len(counted) >= 2 and len(counted[-1].score.items) >= 4

    app, scene = table_app(CribbageTable.new(4, "hard"))
    until(app, scene, rich_show)
    lines = scene.snapshot().lines
    runs = [i for i, line in enumerate(lines) if line.text.startswith("run")]
    point_at(app, scene, runs[0] if runs else max(range(len(lines)), key=lambda i: len(lines[i].cards)))
    save(app, "cribbage-show.png")

    # the end: the winner, the scores, a skunk if there was one
    app, scene = table_app(CribbageTable.new(8, "easy"))
    until(app, scene, lambda: scene.ended)
    for _ in range(4):
        app.frame(1 / 60)
    save(app, "cribbage-end.png")


def cribbage_variants(folder: Path = HERE, size: tuple[int, int] = (1280, 800)) -> None:
    """The variants of cribbage at the table (issue 32): a three-player deal in its play (the cards of the
    count marked with who laid them, the others' seats along the top, three lanes on the board), and a
    four-player partnership game later on (two lanes, "You & North" against "West & East"). Your seat is
    played by posted events (the Medium bot's choices)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from collections.abc import Callable

    import pygame

    from cribtiles.cribbage import CribbageOptions
    from cribtiles.cribbage.options import Phase, Variant
    from cribtiles.table import Seat
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.cribbage.pilot import CribbagePilot
    from cribtiles.ui.cribbage.scene import CribbageScene
    from cribtiles.ui.window import App

    def shot(variant: Variant, seed: int, name: str, wanted: Callable[[CribbageScene], bool]) -> None:
        keeper = NoKeeper()
        keeper.save_cribbage(CribbageTable.new(seed, "medium", CribbageOptions(variant=variant)))
        tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
        app = App(tiles, Preferences(speed="instant", tutorial_offered=True), keeper, size=size, title=True)
        app.menus.open_game("cribbage")
        app.frame(1 / 60)
        scene = app.scenes[-1]
        assert isinstance(scene, CribbageScene)
        pilot = CribbagePilot(scene, "medium", seed=seed)
        for _ in range(40000):
            if wanted(scene) or scene.ended:
                break
            pilot.step()
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0)))
            app.frame(1 / 60)
            app.frame(1 / 60)
        assert wanted(scene), "the moment wanted never came"
        for _ in range(40):  # the cards and pegs come to rest
            app.frame(1 / 60)
        pygame.image.save(app.screen, str(folder / name))
        print(f"wrote {folder / name}")
        app.close()

    def three_in_the_play(scene: CribbageScene) -> bool:
        pub = scene.pub
        laid = {p for p, _ in pub.sequences[-1]} if pub.sequences else set()
        return pub.phase is Phase.PLAY and len(pub.pile) >= 4 and len(laid) == 3 and scene.my_turn

    shot(Variant.THREE, 11, "cribbage-three.png", three_in_the_play)

    def partners_later(scene: CribbageScene) -> bool:
        pub = scene.pub
        return pub.deal_number >= 4 and pub.phase is Phase.PLAY and len(pub.pile) >= 3 and scene.my_turn

    shot(Variant.PARTNERSHIP, 12, "cribbage-partners.png", partners_later)


def cribbage_coach(folder: Path = HERE, size: tuple[int, int] = (1280, 800)) -> None:
    """The coach at the cribbage table: the discard advisor (I in the discard: the best discards, the pair
    to throw ringed) and a pegging hint (I in the play: Hard's card, what it scores and what it leaves)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.cribbage.moves import PlayCard
    from cribtiles.cribbage.options import Phase
    from cribtiles.table import Seat
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.cribbage.scene import CribbageScene
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    def hint_shot(table: CribbageTable, name: str) -> None:
        keeper = NoKeeper()
        keeper.save_cribbage(table)
        tiles = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
        app = App(tiles, Preferences(speed="instant", tutorial_offered=True), keeper, size=size, title=True)
        app.menus.open_game("cribbage")
        app.frame(1 / 60)
        assert isinstance(app.scenes[-1], CribbageScene)
        post_key(pygame.K_i)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(6):
            app.frame(1 / 60)
        assert app.scenes[-1].snapshot().coach is not None, app.scenes[-1].snapshot().prompt
        pygame.image.save(app.screen, str(folder / name))
        print(f"wrote {folder / name}")
        app.close()

    hint_shot(CribbageTable.new(6, "hard"), "cribbage-advisor.png")  # you deal: 3H 4H 6C 9C TD KS

    def in_the_play(table: CribbageTable) -> bool:
        state = table.state
        return (
            state.phase is Phase.PLAY
            and len(state.pile) >= 2
            and sum(isinstance(m, PlayCard) for m in state.legal_actions()) >= 2
        )

    table = CribbageTable.new(12, "hard")
    while not (table.person_to_move and in_the_play(table)):
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    table.take_pending()
    hint_shot(table, "cribbage-peg-hint.png")


def hot_seat_coach(folder: Path = HERE) -> None:
    """A hot-seat change with the coach's note on (Ann, Ben and Hard, seed 1): Ann plays her worst,
    Ben and Hard move behind the curtain, and the note on Ann's play shows once her rack is uncovered."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.bot.tiles.greedy import greedy_move
    from cribtiles.rules.scoring import score_play
    from cribtiles.table import parse_players
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    table = Table.new(parse_players("Ann,Ben,hard"), seed=1)
    turns = 0
    while turns < 4 or table.state.current != 0:
        turns += 1
        move = greedy_move(table.view(table.state.current), random.Random(turns))
        (table.play if table.person_to_move else table.play_bot)(move)
    prefs = Preferences(speed="instant", coach_notes=True, tiles_out=True, tutorial_offered=True)
    app = App(table, prefs, NoKeeper(), size=(1280, 800))

    def frames(n: int = 8) -> None:
        for _ in range(n):
            app.frame(1 / 60)

    def laid(best: bool) -> None:
        """The person to move lays their best-scoring play (or their worst) and plays it with Enter."""
        board = table.state.board
        plays = sorted(table.state.legal_plays(), key=lambda p: (score_play(board, p).total, str(p)))
        app.game.coaching.lay(plays[-1] if best else plays[0])
        post_key(pygame.K_RETURN)
        frames()

    for best in (False, True):  # Ann's worst (the coach has a note on it), then Ben's best
        post_key(pygame.K_RETURN)  # the curtain lifts
        frames()
        laid(best)
    while table.state.current != 0:  # Hard moves behind the curtain
        frames(2)
    post_key(pygame.K_RETURN)
    frames()
    pygame.image.save(app.screen, str(folder / "hot-seat-coach.png"))
    print(f"wrote {folder / 'hot-seat-coach.png'}")
    app.close()


def cribbage_replay(folder: Path = HERE) -> None:
    """A game of cribbage of the History replayed: the felt at a card of the play, the prompt saying
    which move of the record it is (issue 32)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.table.settings import Preferences
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    keeper = NoKeeper()
    keeper.record_cribbage(cribbage_played(32, "medium"), 0, "medium")
    app = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800), seed=9)
    app.menus.open_history()
    post_key(pygame.K_RETURN)  # the replay of the game chosen
    for _ in range(7):  # the discards, the starter cut, five cards of the play
        post_key(pygame.K_RIGHT)
    for _ in range(90):
        app.frame(1 / 60)
    pygame.image.save(app.screen, str(folder / "cribbage-replay.png"))
    print(f"wrote {folder / 'cribbage-replay.png'}")
    app.close()


def cribbage_review(folder: Path = HERE) -> None:
    """A game of cribbage of the History reviewed (V): every discard and card laid against the best
    found, the biggest misses first, beside the chart; then the biggest miss opened (issue 32)."""
    import time

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.table.settings import Preferences
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.window import App

    keeper = NoKeeper()
    keeper.record_cribbage(cribbage_played(32, "medium"), 0, "medium")
    app = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800), seed=9)
    app.menus.open_history()
    post_key(pygame.K_v)  # the review of the game chosen
    app.frame(1 / 60)
    scene = app.scenes[-1]
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and getattr(scene, "review", None) is None:
        app.frame(1 / 60)
        time.sleep(0.05)
    for _ in range(3):
        app.frame(1 / 60)
    pygame.image.save(app.screen, str(folder / "cribbage-review.png"))
    print(f"wrote {folder / 'cribbage-review.png'}")
    post_key(pygame.K_RETURN)  # the biggest miss: the chosen and the best side by side
    for _ in range(3):
        app.frame(1 / 60)
    pygame.image.save(app.screen, str(folder / "cribbage-review-decision.png"))
    print(f"wrote {folder / 'cribbage-review-decision.png'}")
    app.close()


def coach_opens(folder: Path = HERE) -> None:
    """The Best plays with a play laid: under its figures, what it opens for the reply (issue 33). The
    docs' copy was taken in a real X window (`/work/shared/tools/xwin.sh`), the same position."""
    import time

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.bot.tiles.greedy import greedy_move
    from cribtiles.table import parse_players
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.config import NoKeeper
    from cribtiles.ui.window import App

    table = Table.new(parse_players("You,medium"), None, seed=7)
    i = 0
    while not table.round_over and (i < 4 or not table.person_to_move):
        i += 1
        move = greedy_move(table.view(table.state.current), random.Random(i))
        (table.play if table.person_to_move else table.play_bot)(move)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(1280, 800))
    app.game.coaching.toggle_candidates()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not app.game.coaching.coach.expert_ran:
        app.frame(1 / 60)
        time.sleep(0.05)
    app.game.coaching.choose_candidate(0)  # as a click on the first row: laid, and its figures shown
    for _ in range(8):
        app.frame(1 / 60)
    pygame.image.save(app.screen, str(folder / "coach-opens.png"))
    print(f"wrote {folder / 'coach-opens.png'}")
    app.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["cribbage-review"]:  # only the review of a game of cribbage: take.py cribbage-review [FOLDER]
        cribbage_review(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == [
        "cribbage-replay"
    ]:  # only the replay of a game of cribbage: take.py cribbage-replay [FOLDER]
        cribbage_replay(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["hot-seat"]:  # only the hot-seat change with the coach's note: take.py hot-seat [FOLDER]
        hot_seat_coach(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["online"]:  # only online play's (real servers on 127.0.0.1): take.py online [FOLDER]
        from take_online import every

        every(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["cribbage-coach"]:  # only the cribbage coach's: take.py cribbage-coach [FOLDER]
        cribbage_coach(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["cribbage-variants"]:  # only three players and partners: take.py cribbage-variants [FOLDER]
        cribbage_variants(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["coach-opens"]:  # only the Best plays saying what a play opens: take.py coach-opens [FOLDER]
        coach_opens(Path(sys.argv[2]) if len(sys.argv) > 2 else HERE)
    elif sys.argv[1:2] == ["cribbage"]:  # only the cribbage table's: take.py cribbage [FOLDER] [WxH]
        where = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE
        wh = tuple(int(v) for v in sys.argv[3].split("x")) if len(sys.argv) > 3 else (1280, 800)
        cribbage(where, (wh[0], wh[1]))
    else:
        main()
        coach_opens()
        hot_seat_coach()
        cribbage()
        cribbage_coach()
        cribbage_variants()
        cribbage_replay()
        cribbage_review()
        from take_online import every

        every()
