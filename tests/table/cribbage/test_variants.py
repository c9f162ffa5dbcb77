"""The cribbage table in the variants: a new table of three or four seats names its bots by where they
sit, bots and a person play a whole game of each variant, the words name one card laid and partners
together, the save and the record replay every variant, the public value and the views travel as JSON,
the replay's text tells every hand, and the ledger sums up a game of any variant."""

from __future__ import annotations

import json

import pytest

from cribtiles.cribbage import CribbageError, CribbageOptions, CribbageState, Discard, Variant, new_game
from cribtiles.table.cribbage.ledger import summarize_cribbage
from cribtiles.table.cribbage.public import (
    public_data,
    public_from_data,
    public_of,
    view_data,
    view_from_data,
)
from cribtiles.table.cribbage.replay import replay_words
from cribtiles.table.cribbage.session import CribbageSession, FinishedCribbage, InlineThinker
from cribtiles.table.cribbage.table import CribbageTable, table_names
from cribtiles.table.seats import Seat

VARIANTS = (Variant.FIVE_CARD, Variant.THREE, Variant.PARTNERSHIP)


def options(variant: Variant) -> CribbageOptions:
    return CribbageOptions(variant=variant, target=61 if variant is Variant.FIVE_CARD else 121)


def play_out(table: CribbageTable) -> CribbageTable:
    """You lay the first legal move, the bots choose their own."""
    while not table.is_over:
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    return table


def test_a_new_table_of_three_or_four_names_the_bots_by_where_they_sit() -> None:
    three = CribbageTable.new(1, "easy", options(Variant.THREE))
    assert three.state.names == ("You", "West", "East") and three.person == 0
    assert [s.level for s in three.seats] == [None, "easy", "easy"]
    four = CribbageTable.new(1, "hard", options(Variant.PARTNERSHIP), person=2)
    assert four.state.names == ("North", "East", "You", "West")  # your partner sits across: North
    assert table_names(2, 0, "medium") == ("You", "Medium bot")
    assert four.named(1) == "East" and three.named(1) == "West"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_whole_game_of_each_variant_is_played_saved_and_summed_up(variant: Variant) -> None:
    table = CribbageTable.new(3, "medium", options(variant))
    play_out(table)
    summary = table.summary()
    assert summary is not None and max(summary.scores) == table.options.target
    assert summary.person_won == (table.state.side_of(0) == summary.winner)
    assert summary.words == table.state.outcome.words(table.state.names)  # type: ignore[union-attr]
    again = CribbageTable.from_json(table.to_json())
    assert again.state == table.state and again.seats == table.seats and again.previous == table.previous
    record = json.loads(table.to_json())["record"]
    assert record["options"]["variant"] == variant.value
    assert CribbageTable.from_record(record, table.seats).state == table.state
    if variant.players == 2:  # the history keeps games of two seats (its schema is the window's business)
        game = summarize_cribbage(table.state, 0, "medium", "2026-12-03T13:00:00")
        assert game.winners == table.state.outcome.winners  # type: ignore[union-attr]
        assert game.details is not None and len(game.details.pegged) == 2  # type: ignore[union-attr]


def test_the_words_say_one_card_laid_and_whose_crib() -> None:
    table = CribbageTable.new(2, "easy", options(Variant.THREE))
    while not table.person_to_move:
        table.bot_move()
    moves = [m for m in table.state.legal_actions() if isinstance(m, Discard)]
    happening = table.play(moves[0])
    dealer = table.state.dealer
    whose = "your" if dealer == 0 else f"{table.state.names[dealer]}'s"
    assert happening.words == f"You laid {moves[0].cards[0]} in {whose} crib."
    told = [h.words for h in table.story if isinstance(h.move, Discard) and h.player != 0]
    assert all(" laid a card in " in w for w in told)


def test_the_public_value_and_the_views_travel_as_json_in_every_variant() -> None:
    for variant in VARIANTS:
        table = CribbageTable.new(4, "easy", options(variant))
        for _ in range(12):
            if table.is_over:
                break
            if table.person_to_move:
                table.play(table.state.legal_actions()[0])
            else:
                table.bot_move()
        public = public_of(table)
        assert len(public.names) == len(public.hand_sizes) == len(public.bots) == variant.players
        assert len(public.scores) == len(public.previous) == variant.sides
        assert public_from_data(json.loads(json.dumps(public_data(public)))) == public
        for seat in range(variant.players):
            view = table.state.view(seat)
            back = view_from_data(json.loads(json.dumps(view_data(view))))
            assert back == view


def test_a_view_written_before_the_variants_still_reads() -> None:
    view = new_game(6).view(1)
    data = view_data(view)
    del data["cards_left"], data["discarded_by"]
    assert view_from_data(data) == view


def test_the_replays_text_tells_each_hand_and_the_decks_card() -> None:
    table = play_out(CribbageTable.new(7, "easy", options(Variant.THREE)))
    words = replay_words(table)
    assert words.startswith("Cribbage (three players): You, West and East, to 121")
    assert "West holds" in words and "East holds" in words and "The crib takes" in words
    four = replay_words(play_out(CribbageTable.new(7, "easy", options(Variant.PARTNERSHIP))))
    assert four.startswith("Cribbage (four: partnerships): You and North against West and East")
    assert "the scores are You and North 0, West and East 0." in four
    five = replay_words(play_out(CribbageTable.new(7, "easy", options(Variant.FIVE_CARD))))
    assert "three for last" in five.split("\n\n")[0]


def test_seats_must_match_the_players() -> None:
    state = new_game(1, ("You", "West", "East"), options(Variant.THREE))
    with pytest.raises(ValueError, match="not the game's players"):
        CribbageTable(state, seats=[Seat("You"), Seat("West", "easy")])


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_session_plays_each_variant_to_the_end_and_hands_it_to_the_keeper(variant: Variant) -> None:
    keeper = Keeps()
    session = CribbageSession(CribbageTable.new(6, "easy", options(variant)), InlineThinker(), keeper)
    while not session.is_over:
        seat = session.to_move
        assert seat is not None
        if seat in session.mine:
            session.act(seat, session.view(seat).legal[0])
        else:
            while session.poll() is None:
                pass
            session.land()
    session.finish()
    assert [(state.variant, person) for state, person, _ in keeper.recorded] == [(variant, 0)]


class Keeps:
    def __init__(self) -> None:
        self.recorded: list[tuple[CribbageState, int, str | None]] = []

    def save(self, table: CribbageTable) -> bool:
        return True

    def record(self, game: FinishedCribbage) -> None:
        self.recorded.append((game.state, game.person, game.level))


def test_the_first_deals_words_tell_five_card_three_for_last() -> None:
    table = CribbageTable.new(3, "easy", options(Variant.FIVE_CARD))
    pone = table.state.pone
    said = f"{'You' if pone == 0 else 'The Easy bot'} pegged three for last."
    assert public_of(table).cut_words[-1] == said
    if table.person_to_move:
        table.play(table.state.legal_actions()[0])
    else:
        table.bot_move()
    assert public_of(table).cut_words[-1] == said
    assert not any("three for last" in w for w in public_of(CribbageTable.new(3, "easy")).cut_words)


def test_a_person_takes_back_a_move_at_a_table_of_four() -> None:
    table = CribbageTable.new(8, "medium", options(Variant.PARTNERSHIP))
    while not table.person_to_move:
        table.bot_move()
    before = table.state
    table.play(table.state.legal_actions()[-1])
    while not table.person_to_move and not table.is_over:
        table.bot_move()
    taken = table.undo(0)
    assert taken >= 1 and table.state == before and table.previous == [0, 0] and table.undos == 1
    with pytest.raises(CribbageError, match="only a person takes back"):
        table.undo(1)
