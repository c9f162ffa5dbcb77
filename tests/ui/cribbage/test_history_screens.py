"""Games of classic cribbage on the History and Statistics screens, headless: listed among the tile game's
games newest first and marked as cribbage, replayed move by move and reviewed (V, as a tile game's), and
counted by bot level on the Statistics screen's second page."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pygame
import pytest

from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.settings import Preferences
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.cribbage.history_row import cribbage_marks, cribbage_players, cribbage_what
from cribtiles.ui.geometry import centre
from cribtiles.ui.history_scene import HistoryScene, StatisticsScene, newest_first
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.statistics_page import sections
from cribtiles.ui.window import App
from tests.table.cribbage.test_ledger import game, played
from tests.ui.test_history_screens import finished, frames


@pytest.fixture
def keeper() -> NoKeeper:
    """Two tile games and three of cribbage, each ended at a time of its own."""
    k = NoKeeper()
    for seed, level in ((1, "easy"), (2, "hard")):
        k.record_game(finished(seed, level))
    k.games = [replace(g, finished_at=f"2026-11-0{i}T10:00:00") for i, g in enumerate(k.games, 1)]
    for n, (level, when) in enumerate((("easy", "2026-11-01T12:00:00"), ("hard", "2026-11-03T09:00:00")), 1):
        k.games.append(replace(summarize_cribbage(played(n), 0, level, when), id=len(k.games) + 1))
    return k


@pytest.fixture
def app(keeper: NoKeeper) -> Iterator[App]:
    a = App(None, Preferences(speed="instant", tutorial_offered=True), keeper, size=(1280, 800), seed=9)
    frames(a)
    yield a
    a.close()


def test_the_two_kinds_of_game_are_listed_newest_first_and_cribbage_is_marked(app: App) -> None:
    app.menus.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene)
    assert [g.finished_at for g in scene.games] == [
        "2026-11-03T09:00:00",  # cribbage v hard
        "2026-11-02T10:00:00",  # tiles v hard
        "2026-11-01T12:00:00",  # cribbage v easy
        "2026-11-01T10:00:00",  # tiles v easy
    ]
    crib = scene.games[0]
    assert cribbage_what(crib) == "Cribbage · hard" and crib.id == 4
    assert [i for i, _ in scene.rows] == [0, 1, 2, 3]


def test_enter_on_a_cribbage_game_replays_it_move_by_move(app: App) -> None:
    """Issue 32: Enter opens the replay of the game of cribbage chosen, from the first deal; Right, Left,
    PageDown, End and Home step through it; Escape comes back."""
    from cribtiles.ui.cribbage.replay_scene import CribbageReplayScene
    from cribtiles.ui.cribbage.scene import Mode

    app.menus.open_history()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, HistoryScene) and scene.replayable and scene.reviewable
    post_key(pygame.K_RETURN)
    frames(app)
    replay = app.scenes[-1]
    assert isinstance(replay, CribbageReplayScene)
    assert replay.at == 0 and replay.felt.mode is Mode.DISCARD and len(replay.felt.hand) == 6
    assert replay.felt.snapshot().prompt.startswith("Move 0 of ")
    post_key(pygame.K_RIGHT)
    post_key(pygame.K_RIGHT)
    frames(app)
    assert replay.at == 2 and replay.felt.pub.ply == 2 and len(replay.felt.hand) == 4  # both discarded
    assert replay.felt.snapshot().buttons == ()  # nothing to play in a replay
    post_key(pygame.K_LEFT)
    frames(app)
    assert replay.at == 1
    post_key(pygame.K_PAGEDOWN)
    frames(app)
    assert replay.at == replay.deal_starts[0] and replay.felt.pub.deal_number == 2
    post_key(pygame.K_END)
    frames(app)
    assert replay.at == replay.moves and replay.felt.pub.is_over
    assert replay.felt.pub.scores == scene.games[0].scores
    assert "The end: " in replay.felt.snapshot().prompt and not replay.felt.ended
    post_key(pygame.K_HOME)
    frames(app)
    assert replay.at == 0 and replay.felt.pub.scores == (0, 0)
    post_key(pygame.K_e)
    frames(app)
    assert "no data folder" in replay.felt.snapshot().prompt  # this keeper keeps no files
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is scene
    post_key(pygame.K_DOWN)  # the tile game under it replays as before
    frames(app)
    post_click(centre(scene.buttons["replay"]))
    frames(app)
    from cribtiles.ui.tiles.replay_scene import ReplayScene

    assert isinstance(app.scenes[-1], ReplayScene)


def test_the_words_of_a_cribbage_row() -> None:
    g = game((121, 84), level="medium")
    assert (cribbage_what(g), cribbage_players(g), cribbage_marks(g)) == (
        "Cribbage · medium",
        "» You 121 · Bot 84",
        "skunk",
    )
    plain = game((100, 121), person=1)
    odd = replace(plain, details=replace(plain.cribbage, muggins=True, target=121))
    assert (cribbage_what(odd), cribbage_players(odd), cribbage_marks(odd)) == (
        "Cribbage · medium · muggins",
        "Bot 100 · » You 121",
        "",
    )
    assert cribbage_what(replace(g, details=replace(g.cribbage, target=61))) == "Cribbage · medium · to 61"
    assert newest_first([]) == []


def test_statistics_have_a_page_for_cribbage_by_level(app: App) -> None:
    app.menus.open_statistics()
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, StatisticsScene) and scene.tab == 0
    (_, lines, _), *_ = sections(scene.stats.tiles)
    assert [ln.opponent for ln in lines] == ["easy", "hard"]
    post_key(pygame.K_TAB)
    frames(app)
    assert scene.tab == 1
    shown, _, note = scene.page()
    (title, heads, rows), (counts_title, counts_heads, counts_rows) = shown
    assert title == "Your games of classic cribbage" and len(heads) == 13 and heads[4] == "By the\nbook"
    assert counts_title == "Hands, pegging and counting" and counts_heads[5:7] == ("24 and\nover", "29s")
    assert [label for label, _, _ in counts_rows] == ["v easy", "v hard", "All games"]
    assert [label for label, _, _ in rows] == ["v easy", "v hard", "All games"]
    easy = scene.stats.cribbage.lines[0]
    assert rows[0][1][:4] == (str(easy.games), str(easy.wins), str(easy.losses), f"{100 * easy.win_rate:.0f}%")
    total = scene.stats.cribbage.total
    assert total is not None and note.startswith(f"Your best hand: {total.best_hand}, {total.best_hand_cards}.")
    best, counting = note.split("\n")
    assert best.endswith(
        " By the book: won–lost, a skunk two games, a double skunk three. Skunks 2 (1): two, one double."
    )
    assert counting.startswith("Muggins taken: by your calls;")
    post_click(centre(scene.tabs[0]))
    frames(app)
    assert scene.tab == 0
    post_key(pygame.K_ESCAPE)
    frames(app)
    assert app.scenes[-1] is not scene


def test_the_statistics_count_a_skunk_as_two_games_won_and_a_double_skunk_as_three() -> None:
    k = NoKeeper()
    made = (game((121, 100)), game((121, 80)), game((121, 50)), game((70, 121)))  # won 1+2+3, lost 2
    k.games = [replace(g, id=n, finished_at=f"2026-11-0{n}T10:00:00") for n, g in enumerate(made, 1)]
    a = App(None, Preferences(speed="instant", tutorial_offered=True), k, size=(1280, 800), seed=9)
    try:
        frames(a)
        a.menus.open_statistics()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, StatisticsScene)
        (_, heads, rows), *_ = scene.page()[0]
        ((label, cells, _),) = rows
        assert label == "v medium" and dict(zip(heads, cells, strict=True))["By the\nbook"] == "6–2"
        assert cells[:3] == ("4", "3", "1")  # the games themselves: 4 played, 3 won, 1 lost
        assert (cells[5], cells[6]) == ("2 (1)", "1")  # skunks given, one of them double; taken
        surface = pygame.Surface((1280, 800))
        scene.draw(surface)  # the extra column drawn at the window's size without trouble
    finally:
        a.close()


def test_only_cribbage_played_opens_on_its_page_and_nothing_played_says_so() -> None:
    k = NoKeeper()
    k.record_cribbage(played(3), 0, "medium")
    a = App(None, Preferences(speed="instant", tutorial_offered=True), k, size=(960, 640), seed=1)
    try:
        a.menus.open_statistics()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, StatisticsScene) and scene.tab == 1
        (_, _, rows), (_, _, counts) = scene.page()[0]
        assert [label for label, _, _ in rows] == ["v medium"]  # one level: no total line
        assert [label for label, _, _ in counts] == ["v medium"]
    finally:
        a.close()
    b = App(None, Preferences(speed="instant", tutorial_offered=True), NoKeeper(), size=(960, 640), seed=1)
    try:
        b.menus.open_statistics()
        frames(b)
        scene = b.scenes[-1]
        assert isinstance(scene, StatisticsScene) and scene.tab == 0
        post_key(pygame.K_RIGHT)
        frames(b)
        sections, empty, note = scene.page()
        assert sections == [] and empty.startswith("No games of classic cribbage yet") and note == ""
    finally:
        b.close()


def test_tab_in_the_replay_of_a_finished_game_shows_every_hand(app: App) -> None:
    """Issue 32: Tab turns the other seat's cards face up, move after move, and back; a game not over
    keeps them hidden, said in words."""
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.ui.cribbage.replay_scene import NOT_OVER, CribbageReplayScene

    app.menus.open_history()
    frames(app)
    post_key(pygame.K_RETURN)
    frames(app)
    replay = app.scenes[-1]
    assert isinstance(replay, CribbageReplayScene) and replay.table.is_over
    other = replay.felt.pub.bot
    assert all(c is None for c in replay.felt.motion.seat_cards(other))  # face down, as you saw them
    post_key(pygame.K_TAB)
    frames(app)
    dealt = replay.table.at_ply(0).state.hands[other]
    assert len(dealt) == 6 and replay.felt.motion.seat_cards(other) == dealt
    for _ in range(4):  # both discards, then cards of the play
        post_key(pygame.K_RIGHT)
    frames(app)
    assert replay.felt.motion.seat_cards(other) == replay.table.at_ply(4).state.hands[other]
    post_key(pygame.K_TAB)
    frames(app)
    assert all(c is None for c in replay.felt.motion.seat_cards(other))
    unfinished = CribbageTable.from_record({**replay.table.state.record(), "moves": list(replay.table.state.log[:5])})
    app.open_replay(unfinished)
    frames(app)
    post_key(pygame.K_TAB)
    frames(app)
    half = app.scenes[-1]
    assert isinstance(half, CribbageReplayScene) and half.felt.open_hands == {}
    assert NOT_OVER in half.felt.snapshot().prompt


def test_a_variant_is_named_in_its_row_and_counted_on_its_own_line() -> None:
    from tests.app.cribbage.test_history import variant_game

    three, partners = variant_game(1, "three-player"), variant_game(2, "partnership")
    assert cribbage_what(three) == "Cribbage · three players · easy+hard"
    assert cribbage_what(replace(partners, seats=(*partners.seats[:3], ("East", "medium")))) == (
        "Cribbage · partnerships · easy+medium"  # the level of several bots named once
    )
    assert cribbage_players(partners) == "» You 121 · Easy bot 80 · » North 121 · Hard bot 80"
    k = NoKeeper()
    k.games = [replace(g, id=n) for n, g in enumerate((game((121, 84)), three, partners), 1)]
    a = App(None, Preferences(speed="instant", tutorial_offered=True), k, size=(960, 640), seed=1)
    try:
        a.menus.open_statistics()
        frames(a)
        scene = a.scenes[-1]
        assert isinstance(scene, StatisticsScene) and scene.tab == 1
        sections, _, _ = scene.page()
        titles = [title for title, _, _ in sections]
        assert titles == ["Your games of classic cribbage", "Hands, pegging and counting",
                          "The other variants, each on its own"]  # fmt: skip
        (_, _, six), *_ = sections
        assert [(label, cells[0]) for label, cells, _ in six] == [("v medium", "1")]  # six-card's alone
        variants = sections[-1][2]
        assert [(label, cells[:2]) for label, cells, _ in variants] == [
            ("Three players", ("1", "1")), ("Partnerships", ("1", "1"))]  # fmt: skip
        scene.draw(pygame.Surface((960, 640)))  # the third section drawn at the smallest window
    finally:
        a.close()


@pytest.mark.parametrize("variant", ["three-player", "partnership", "five-card"])
def test_a_finished_game_of_a_variant_replays_from_the_history(variant: str) -> None:
    """Issue 32: a game of three, of partners or of five-card, played to its end and recorded, is replayed
    from the History: every seat along the top, a lane a side, the scores at its end the history's."""
    from cribtiles.cribbage import CribbageOptions
    from cribtiles.cribbage.options import Variant
    from cribtiles.table.cribbage.table import CribbageTable
    from cribtiles.ui.cribbage.replay_scene import CribbageReplayScene

    kind = Variant(variant)
    table = CribbageTable.new(5, "easy", CribbageOptions(variant=kind, target=61))
    while not table.is_over:
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    k = NoKeeper()
    k.record_cribbage(table.state, 0, "easy")
    a = App(None, Preferences(speed="instant", tutorial_offered=True), k, size=(1024, 640), seed=1)
    try:
        frames(a)
        a.menus.open_history()
        frames(a)
        post_key(pygame.K_RETURN)
        frames(a)
        replay = a.scenes[-1]
        assert isinstance(replay, CribbageReplayScene) and len(replay.felt.hand) == kind.dealt
        snap = replay.felt.snapshot()
        assert len(snap.seats) == kind.players - 1 and len(snap.pegs) == kind.sides
        post_key(pygame.K_END)
        frames(a)
        (game,) = k.past_games()
        scores = replay.felt.pub.scores
        assert replay.felt.pub.is_over and tuple(scores[kind.side_of(p)] for p in range(kind.players)) == game.scores
        assert [p.number for p in replay.felt.snapshot().pegs] == list(scores)
        replay.draw(pygame.Surface((1024, 640)), full=True)
    finally:
        a.close()
