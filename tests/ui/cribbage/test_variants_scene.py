"""The variants of cribbage in the window, driven by posted events headless (issue 32): a three-player and a
partnership game started from the New game screen by its keys and played by posted events with the bots,
what is drawn of the other seats, the peg board's lanes (a side each) and the scores, five-card's three
for last and its target, and the setup remembered for the next game."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from cribtiles.cribbage.moves import Discard, parse_move
from cribtiles.cribbage.options import CribbageOptions, Phase, Variant
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.ui import pegboard
from cribtiles.ui.cribbage.pilot import CribbagePilot
from cribtiles.ui.cribbage.scene import CribbageScene, Mode
from cribtiles.ui.cribbage.setup import CribbageSetupScene
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.window import App
from tests.ui.cribbage import table_of
from tests.ui.cribbage.test_scene import PATIENCE, at_table, card_centre, frames, open_app

GAME_ROW = 3  # the New game screen's line of the game: after the bots, the counting and muggins in the play


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    a = open_app(tmp_path)
    yield a
    a.close()


def start(app: App, games_right: int) -> CribbageScene:
    """K, then the Game line moved `games_right` to the right, then S: the table of the game chosen."""
    post_key(pygame.K_k)
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene)
    for _ in range(GAME_ROW):
        post_key(pygame.K_DOWN)
    for _ in range(games_right):
        post_key(pygame.K_RIGHT)
    post_key(pygame.K_s)
    frames(app)
    scene = app.scenes[-1]
    assert isinstance(scene, CribbageScene)
    return scene


def play_a_deal(app: App, scene: CribbageScene, seed: int) -> None:
    """Your seat played by posted events (clicks, keys) until the first deal's show is over and the next
    deal is dealt, the bots moving at their pace."""
    pilot = CribbagePilot(scene, "medium", seed=seed)
    for _ in range(20 * PATIENCE):
        if scene.pub.deal_number > 1 or scene.ended:
            break
        pilot.step()
        frames(app, 2)
    assert scene.pub.deal_number == 2 or scene.ended


def test_a_three_player_game_starts_from_the_new_game_screen_and_a_deal_is_played_through(
    app: App, tmp_path: Path
) -> None:
    scene = start(app, 2)
    table = table_of(scene)
    assert table.options.variant is Variant.THREE and table.options.target == 121
    assert table.state.names == ("You", "West", "East") and [s.level for s in table.seats] == [None, "medium", "medium"]
    assert len(scene.hand) == 5 and scene.layout.players == 3
    snap = scene.snapshot()
    assert [(s.player, s.name) for s in snap.seats] == [(1, "West"), (2, "East")]  # clockwise from your left
    sizes = scene.pub.hand_sizes  # five dealt; four once a bot has laid its card away
    assert all(s.note.endswith(f"{sizes[s.player]} cards") and sizes[s.player] in (4, 5) for s in snap.seats)
    assert [s.note.startswith("the dealer") for s in snap.seats] == [table.state.dealer == p for p in (1, 2)]
    assert snap.sides == ("You", "West", "East") and len(snap.pegs) == 3 and snap.game_hole == 121
    backs = [sp for sp in snap.sprites if sp.card is None and sp.y < scene.layout.deck[1]]
    assert len(backs) == sizes[1] + sizes[2]  # each seat's backs along the top
    assert scene.pub.crib_size >= 1  # the pack's card is in the crib from the deal, and the panel says why
    assert "The crib has a card from the pack; each lays one more." in [line.text for line in snap.lines]
    surface = pygame.Surface(app.screen.get_size())
    assert scene.draw(surface, full=True) is None
    lanes = pegboard.tracks(scene.layout.pegboard, len(snap.sides))
    assert len(lanes) == 3 and all(t.rect[3] > 0 for t in lanes)
    play_a_deal(app, scene, 3)
    table = table_of(scene)
    discards = [m for m in map(parse_move, table.state.log) if isinstance(m, Discard)]
    assert len(discards) == 3 and all(len(d.cards) == 1 for d in discards)  # a card each with three players
    frames(app, 60)
    snap = scene.snapshot()
    assert [p.number for p in snap.pegs] == list(table.state.scores)
    assert scene.window_caption() == "Cribbage — " + " · ".join(
        f"{n} {s}" for n, s in zip(("You", "West", "East"), table.state.scores, strict=True)
    )
    saved = json.loads((tmp_path / "cribbage.json").read_text())
    assert saved["record"]["options"]["variant"] == "three-player"


def test_a_partnership_game_shows_two_lanes_and_your_partner_across(app: App) -> None:
    scene = start(app, 3)
    table = table_of(scene)
    assert table.options.variant is Variant.PARTNERSHIP
    assert table.state.names == ("You", "West", "North", "East")
    snap = scene.snapshot()
    assert [s.name for s in snap.seats] == ["West", "North", "East"]
    assert "partner" in snap.seats[1].note and all("partner" not in s.note for s in snap.seats[::2])
    assert [s.colour for s in snap.seats] == [1, 0, 1]  # North in your side's colour
    assert snap.sides == ("You & North", "West & East") and len(snap.pegs) == 2
    play_a_deal(app, scene, 4)
    frames(app, 60)
    table = table_of(scene)
    snap = scene.snapshot()
    assert [p.number for p in snap.pegs] == list(table.state.scores) and len(table.state.scores) == 2
    assert sum(table.state.scores) > 0
    surface = pygame.Surface(app.screen.get_size())
    assert scene.draw(surface, full=True) is None


def test_a_whole_partnership_game_ends_with_both_sides_on_the_end_card_and_in_the_history(app: App) -> None:
    options = CribbageOptions(variant=Variant.PARTNERSHIP, target=61)
    scene = at_table(app, CribbageTable.new(21, "easy", options))
    pilot = CribbagePilot(scene, "medium", seed=21)
    for _ in range(40 * PATIENCE):
        if scene.ended:
            break
        pilot.step()
        frames(app, 2)
    assert scene.ended
    table = table_of(scene)
    summary = table.summary()
    assert summary is not None and max(summary.scores) == 61 and scene.snapshot().end == summary
    assert not scene.reviewed and not scene.snapshot().end_review  # the review weighs games of two only
    (game,) = app.keeper.past_games()
    assert game.cribbage.variant == "partnership" and len(game.seats) == 4
    assert set(game.winners) in ({0, 2}, {1, 3}) and game.scores[0] == game.scores[2] == summary.scores[0]
    assert scene.draw(pygame.Surface(app.screen.get_size()), full=True) is None


def test_three_for_last_is_said_once_before_the_first_move(app: App) -> None:
    """Before anyone has discarded, the panel tells the cut, then three for last once (with its +3), not
    again among the cut's words."""
    options = CribbageOptions(variant=Variant.FIVE_CARD, target=61)
    seed = next(s for s in range(50) if CribbageTable.new(s, "easy", options).state.dealer == 1)  # you discard first
    scene = at_table(app, CribbageTable.new(seed, "easy", options))
    assert not table_of(scene).state.log
    texts = [line.text for line in scene.snapshot().lines]
    assert sum("three for last" in text for text in texts) == 1, texts
    assert any(" cut " in text for text in texts)


def test_five_card_defaults_to_61_says_three_for_last_and_is_remembered(app: App) -> None:
    scene = start(app, 1)
    table = table_of(scene)
    assert table.options.variant is Variant.FIVE_CARD and table.options.target == 61
    pone = 1 - table.state.dealer
    assert table.state.scores[pone] == 3 and scene.snapshot().game_hole == 61
    lines = [(line.text, line.right) for line in scene.snapshot().lines]
    assert any(text.endswith("three for last") and right == "+3" for text, right in lines)
    assert [p.number for p in scene.snapshot().pegs][pone] == 3
    post_key(pygame.K_n)  # a new game over the table: the choice remembers five-card and 61
    frames(app)
    setup = app.scenes[-1]
    assert isinstance(setup, CribbageSetupScene) and setup.variant is Variant.FIVE_CARD and setup.target == 61
    labels = [i.label for i in setup.menu.items]
    assert labels[GAME_ROW : GAME_ROW + 2] == ["Game: five-card, two players", "Game to: 61"]
    for key in (pygame.K_DOWN,) * (GAME_ROW + 1) + (pygame.K_RIGHT,):  # the target's line: to 121
        post_key(key)
    frames(app)
    assert setup.target == 121 and setup.variant is Variant.FIVE_CARD


@pytest.mark.parametrize("size", [(960, 640), (1037, 701), (1920, 1080)])
@pytest.mark.parametrize("variant", [Variant.THREE, Variant.PARTNERSHIP])
def test_the_table_of_three_or_four_draws_at_odd_sizes_in_each_moment(
    tmp_path: Path, size: tuple[int, int], variant: Variant
) -> None:
    app = open_app(tmp_path, size)
    try:
        scene = at_table(app, CribbageTable.new(8, "medium", CribbageOptions(variant=variant)))
        pilot = CribbagePilot(scene, "medium", seed=8)
        surface = pygame.Surface(size)
        seen: set[Mode] = set()
        for _ in range(20 * PATIENCE):
            if scene.pub.deal_number > 1 or len(seen) == 3:
                break
            if scene.mode not in seen:  # before the pilot: it lays your crib cards the moment they are dealt
                seen.add(scene.mode)
                assert scene.draw(surface, full=True) is None
            pilot.step()
            frames(app, 2)
        assert seen == {Mode.DISCARD, Mode.PLAY, Mode.SHOW}
        assert scene.pub.phase in (Phase.SHOW, Phase.DISCARD, Phase.PLAY)
    finally:
        app.close()


@pytest.mark.parametrize("variant", [Variant.THREE, Variant.PARTNERSHIP, Variant.FIVE_CARD])
def test_the_hint_and_undo_work_with_every_variant(app: App, tmp_path: Path, variant: Variant) -> None:
    """I shows the advisor's discards for the five cards dealt (one card to lay, or two in five-card), the
    card to lay in the play; U takes back your discard and the bots' replies after it."""
    scene = at_table(app, CribbageTable.new(9, "easy", CribbageOptions(variant=variant)))
    for _ in range(PATIENCE):
        if scene.my_turn and scene.mode is Mode.DISCARD:
            break
        frames(app)
    hand = scene.seen.hand
    assert len(hand) == 5
    post_key(pygame.K_i)
    frames(app)
    note = scene.coach.note
    assert note is not None and len(note.cards) == variant.to_crib and set(note.cards) <= set(hand)
    assert note.rows and note.rows[0][0] == "throw " + " ".join(str(c) for c in note.cards)
    assert " over the 47 starters, " in note.why  # five dealt: 47 cards the starter may be (issue 44, defect 19)
    post_key(pygame.K_ESCAPE)  # the note put away
    for card in note.cards:  # the coach's choice clicked, then Enter lays it away
        post_click(card_centre(scene, str(card)))
        frames(app)
    post_key(pygame.K_RETURN)
    frames(app)
    for _ in range(PATIENCE):
        if scene.mode is Mode.PLAY and len(scene.seen.hand) == variant.kept:
            break
        frames(app)
    assert scene.seen.discards == note.cards
    post_key(pygame.K_u)
    frames(app)
    assert scene.message.startswith("Took back your discard of ") and scene.seen.hand == hand
    replies = "the others' repl" if variant.players > 2 else "the Easy bot's repl"
    assert replies in scene.message  # the bots' discards and cards after yours went back with it
    assert scene.mode is Mode.DISCARD and not scene.seen.discards


@pytest.mark.parametrize("size", [(960, 640), (1024, 768), (1280, 800), (1920, 1080), (3840, 2160)])
def test_the_new_game_screens_seven_lines_and_its_note_fit_its_card(size: tuple[int, int]) -> None:
    from cribtiles.ui.screens import card_rect, text_size

    pygame.init()
    surface = pygame.Surface(size)
    t = text_size(size)
    for variant in Variant:
        setup = CribbageSetupScene(_Host(), variant=variant)
        setup.draw(surface)
        _, y, _, h = card_rect(size, 0.5, 0.94)
        rects = setup.menu.rects
        assert len(rects) == 7 and all(y <= r[1] and r[1] + r[3] <= y + h for r in rects)
        assert all(a[1] + a[3] < b[1] for a, b in itertools.pairwise(rects))  # apart
        bottom = rects[-1][1] + rects[-1][3]
        assert bottom + t // 2 + 3 * round(t * 1.3) <= y + h  # the note's three lines under the last
        labels = [i.label for i in setup.menu.items]
        assert (
            labels[GAME_ROW]
            == "Game: "
            + {
                Variant.SIX_CARD: "six-card, two players",
                Variant.FIVE_CARD: "five-card, two players",
                Variant.THREE: "three players",
                Variant.PARTNERSHIP: "four in partnerships",
            }[variant]
            and labels[GAME_ROW + 1] == f"Game to: {61 if variant is Variant.FIVE_CARD else 121}"
        )


class _Host:
    """Nothing the New game screen's drawing asks of its window."""


def test_a_partnership_game_saved_mid_deal_resumes_with_its_pegs_a_side(app: App) -> None:
    table = CribbageTable.new(14, "medium", CribbageOptions(variant=Variant.PARTNERSHIP))
    while table.state.deal_number < 3 or table.state.phase is not Phase.PLAY or not table.person_to_move:
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    table.take_pending()
    scene = at_table(app, CribbageTable.from_json(table.to_json()))
    assert scene.mode is Mode.PLAY and scene.my_turn and scene.pub.deal_number == 3
    snap = scene.snapshot()
    assert [(p.back, p.number) for p in snap.pegs] == list(zip(table.previous, table.state.scores, strict=True))
    assert [s.name for s in snap.seats] == ["West", "North", "East"] and len(scene.hand) == len(table.state.hands[0])
