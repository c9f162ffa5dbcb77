"""The cribbage table's model: seats, moves told in words, the counts of the play and the show kept for
the window, the bot asked with a seeded generator, the autosave's JSON and the end of a game."""

from __future__ import annotations

import json

import pytest

from cribtiles.cribbage import CribbageOptions, EventKind, MarginKind, new_game, parse_card, parse_move, peg_points
from cribtiles.cribbage.moves import Count, CribbageError, Go, Muggins, PlayCard
from cribtiles.table.cribbage.table import CribbageSaveError, CribbageTable, choose, decision_rng

#: Seed 1 deals You (the non-dealer) AC 2S 4C 7S 8D 9H and the bot AD AH 6C 7D 8H 9D; the starter is QC.
FIRST_DEAL = (
    "discard 8D 9H",
    "discard AD AH",
    "play 7S",
    "play 8H",
    "play 4C",
    "play 9D",
    "play AC",
    "go",
    "play 2S",
    "play 7D",
    "play 6C",
)


def drive(table: CribbageTable, *moves: str) -> None:
    """Make each move for whoever is to act (the bot's moves too, as if the bot had chosen them)."""
    for text in moves:
        move = parse_move(text)
        if table.person_to_move:
            table.play(move)
        else:
            assert table.play_bot(move) is not None


def play_out(table: CribbageTable) -> CribbageTable:
    """The game to its end: you lay the first legal move, the bot chooses its own."""
    while not table.is_over:
        if table.person_to_move:
            table.play(table.state.legal_actions()[0])
        else:
            table.bot_move()
    return table


def test_a_new_table_seats_you_and_the_bot_of_the_level() -> None:
    table = CribbageTable.new(1, "hard")
    assert table.state.names == ("You", "Hard bot")
    assert (table.person, table.bot, table.level) == (0, 1, "hard")
    assert table.state.dealer == 1 and table.person_to_move  # the bot cut low: you discard first
    assert CribbageTable.new(1, "easy", person=1).state.names == ("Easy bot", "You")
    assert CribbageTable.new(1, "expert").state.names == ("You", "Expert bot")
    with pytest.raises(ValueError, match="no cribbage bot level 'beginner'"):
        CribbageTable.new(1, "beginner")


def test_each_move_is_told_in_words_with_what_it_scored() -> None:
    table = CribbageTable.new(1)
    drive(table, *FIRST_DEAL[:4])
    told = table.take_pending()
    assert [h.words for h in told] == [
        "You laid 8D and 9H in its crib.",
        "Medium bot laid two cards in its crib.",
        "You played 7S: the count is 7.",
        "Medium bot played 8H: the count is 15.",
    ]
    assert [(e.player, e.points, e.words) for e in told[-1].events] == [(1, 2, "fifteen two")]
    assert told[-1].count == 15 and told[-1].deal == 1
    assert table.take_pending() == []  # taken once


def test_the_counts_of_the_play_are_kept_after_a_31_resets_the_pile() -> None:
    table = CribbageTable.new(1)
    drive(table, *FIRST_DEAL[:9])
    assert table.state.pile == () and table.state.scores == (2, 2)  # 31 for two: the count began again
    assert [str(c) for _, c in table.sequences[-1]] == ["7S", "8H", "4C", "9D", "AC", "2S"]
    said = [h.words for h in table.take_pending()]
    assert "Medium bot said go at 29." in said
    drive(table, "play 7D", "play 6C")
    assert [[str(c) for _, c in s] for s in table.sequences][1] == ["7D", "6C"]


def test_the_show_keeps_each_counted_hand_and_the_pegs_back_places() -> None:
    table = CribbageTable.new(1)
    drive(table, *FIRST_DEAL, "count", "count")
    assert [(c.owner, c.crib, c.score.total) for c in table.counted] == [(0, False, 2), (1, False, 8)]
    assert table.counted[1].score.starter == parse_card("QC")
    drive(table, "count")  # the crib: AD AH 8D 9H with QC, a pair
    assert [(c.owner, c.crib, c.score.total) for c in table.counted][-1] == (1, True, 2)
    assert table.state.deal_number == 2 and table.state.scores == (4, 13)
    assert table.previous == [2, 11]  # the back pegs: each score before its last scoring
    assert table.sequences == []  # a new deal, no count yet
    drive(table, str(table.state.legal_actions()[0]))
    assert table.counted[-1].crib  # the last show stays until the next one begins


def test_a_resumed_game_keeps_the_back_peg_at_the_score_before_the_last_move() -> None:
    table = CribbageTable.new(1)
    drive(table, *FIRST_DEAL, "count", "count")  # the bot's hand: two fifteens and a run of four, 3 to 11
    assert [e.points for e in table.story[-1].events] == [2, 2, 4]
    assert table.state.scores == (4, 11) and table.previous == [2, 3]  # not 7, the score before its last item
    again = CribbageTable.from_json(table.to_json())
    assert again.previous == [2, 3] and again.state.scores == (4, 11)


def test_a_move_the_rules_refuse_is_explained_and_changes_nothing() -> None:
    table = CribbageTable.new(1)
    drive(table, *FIRST_DEAL[:6])  # the count is 28; you hold AC 2S
    assert table.why_not(PlayCard(parse_card("KS"))) == "You do not hold the king of spades (KS)."
    drive(table, "play AC", "go")
    assert table.why_not(Go()) == "No go: the two of spades keeps the count at 31 or below."
    before = table.state
    with pytest.raises(CribbageError, match="no go"):
        table.play(Go())
    assert table.state is before
    assert CribbageTable.new(1).why_not(Count()) == "It is time to lay two cards in the crib (discard), not to count."


def test_the_bot_plays_only_its_own_turn_and_a_stale_answer_is_dropped() -> None:
    table = CribbageTable.new(1)
    with pytest.raises(CribbageError, match="not the bot's turn"):
        table.bot_request()
    drive(table, "discard 8D 9H")
    request = table.bot_request()
    assert (request.ply, request.level, request.view.player) == (1, "medium", 1)
    assert request.view.hand == table.state.hands[1] and request.view.legal
    move = choose(request)
    assert table.play_bot(move, 0) is None and table.ply == 1  # asked for another moment
    assert table.play_bot(move, request) is not None and table.ply == 2
    with pytest.raises(CribbageError, match="do not hold the three of spades"):
        CribbageTable.new(6).play(parse_move("discard 3S 5C"))  # you deal: the bot's cards, not yours
    with pytest.raises(CribbageError, match="not your turn"):
        CribbageTable.new(6).play(parse_move("go"))


def test_you_lay_away_before_the_bot_and_the_record_keeps_the_engines_order() -> None:
    """Issue 44: at a real table everyone lays away at once. You deal, so the engine asks the bot first;
    your crib cards laid before its are kept aside (its view, which it decides from, is the engine's),
    made once it has laid its own: the game is the one where you waited. Taken back, kept in a save."""
    from cribtiles.cribbage.moves import Discard
    from cribtiles.cribbage.options import Phase
    from cribtiles.table.cribbage.public import public_of

    mine = parse_move("discard 3H 4H")
    waited = CribbageTable.new(6)
    waited.bot_move()
    waited.play(mine)
    table = CribbageTable.new(6)
    assert table.to_move == 1 and table.lays_ahead(0) and not table.lays_ahead(1)  # the bot lays when asked
    assert len(table.view().legal) == 15 and table.why_not(mine) == ""
    assert table.why_not(parse_move("discard 3H 3S")) == "You do not hold the three of spades (3S)."
    assert table.play(mine) is None and table.ply == 0 and table.ahead == {0: mine} and not table.lays_ahead(0)
    view = table.view()
    assert isinstance(mine, Discard) and view.discards == mine.cards and view.legal == ()
    assert [str(c) for c in view.hand] == ["6C", "9C", "TD", "KS"] and view.discarded_by == (True, False)
    assert table.view(1).discarded_by == (False, False) and table.view(1).cards_left == (6, 6)
    public = public_of(table)
    assert public.hand_sizes == (4, 6) and public.crib_size == 2 and public.to_move == 1
    with pytest.raises(CribbageError, match="not your turn"):
        table.play(parse_move("discard 6C 9C"))
    again = CribbageTable.from_json(table.to_json())
    assert again.ahead == {0: mine} and again.view() == view
    assert table.undo_moves(0) == ("discard 3H 4H",) and again.undo(0) == 1 and again.ahead == {}
    assert again.lays_ahead(0) and again.ply == 0 and again.undos == 1
    table.bot_move()
    assert table.state == waited.state and table.state.phase is Phase.PLAY and table.ahead == {}
    assert [(h.player, str(h.move)) for h in table.take_pending()] == [(1, waited.state.log[0]), (0, str(mine))]
    assert not table.lays_ahead(0) and "ahead" not in json.loads(table.to_json())


def test_a_seed_replays_the_bots_choices() -> None:
    assert decision_rng(7, 3).random() == decision_rng(7, 3).random() != decision_rng(7, 4).random()
    first, second = play_out(CribbageTable.new(21, "hard")), play_out(CribbageTable.new(21, "hard"))
    assert first.state.log == second.state.log and first.state.outcome == second.state.outcome


def test_a_seed_replays_the_bots_counts_and_calls_under_muggins_both_ways() -> None:
    options = CribbageOptions(muggins=True, play_muggins=True)
    first, second = play_out(CribbageTable.new(8, "easy", options)), play_out(CribbageTable.new(8, "easy", options))
    assert first.state.log == second.state.log and first.state.outcome == second.state.outcome
    again = CribbageTable.from_json(first.to_json())
    assert again.state == first.state and again.counted == first.counted and again.story == first.story
    state, slips = new_game(8, first.state.names, options), 0
    for text in first.state.log:  # the Easy bot's slips, drawn from the seed, are in the record
        state = state.apply(parse_move(text))
        slips += state.claim is not None and state.claim.counter == first.bot and state.claim.pegged < state.claim.worth
    assert slips > 0


def test_a_finished_game_is_summed_up() -> None:
    table = play_out(CribbageTable.new(5, "easy"))
    summary = table.summary()
    assert summary is not None and table.is_over
    assert summary.scores == table.state.scores and max(summary.scores) == 121
    assert summary.winner == table.state.outcome.winner  # type: ignore[union-attr]
    assert summary.person_won == (summary.winner == 0)
    assert summary.skunk == (min(summary.scores) < 91) == (summary.margin is not MarginKind.WIN)
    assert summary.words == table.state.outcome.words(table.state.names)  # type: ignore[union-attr]
    assert summary.deals == table.state.deal_number
    loser = "you" if summary.winner == 1 else "the Easy bot"
    assert (
        summary.margin_words
        == {
            MarginKind.WIN: f"No skunk: {loser} passed 90.",
            MarginKind.SKUNK: f"A skunk (a lurch): {loser} did not reach 91.",
            MarginKind.DOUBLE_SKUNK: f"A double skunk: {loser} did not reach 61.",
        }[summary.margin]
    )
    assert CribbageTable.new(5).summary() is None


def test_the_autosave_round_trips_the_game_and_what_the_window_keeps() -> None:
    table = CribbageTable.new(1, "hard", CribbageOptions(muggins=True, play_muggins=True))
    drive(table, *FIRST_DEAL_SAID, "count 1")  # under-counted: the bot may call muggins
    data = json.loads(table.to_json())
    assert (data["format"], data["version"], data["game"], data["seats"]) == (
        "cribtiles table",
        2,
        "cribbage",
        [{"name": "You", "level": None}, {"name": "Hard bot", "level": "hard"}],
    )
    assert data["record"]["moves"][-1] == "count 1"
    assert data["record"]["options"] == {"muggins": True, "play_muggins": True, "target": 121, "end_on_answer": True}
    again = CribbageTable.from_json(table.to_json())
    assert again.state == table.state and again.level == "hard" and again.person == 0
    assert again.sequences == table.sequences and again.counted == table.counted
    assert again.previous == table.previous and again.pending == [] and again.story == table.story
    assert [h.words for h in again.story][-3:] == [
        "Hard bot played 6C: the count is 13, saying 0.",
        "You let the Hard bot's card stand (0).",
        "You counted the hand: 1.",
    ]
    assert again.counted[-1].declared == 1 and again.state.claim is not None and again.state.claim.declared == 1


def said_aloud(moves: tuple[str, ...]) -> tuple[str, ...]:
    """`moves` of seed 1 under muggins in the play: each card said at what it scores, each answered."""
    state, out = new_game(1, options=CribbageOptions(play_muggins=True)), []
    for text in moves:
        move = parse_move(text)
        if isinstance(move, PlayCard):
            move = PlayCard(move.card, peg_points((*state.pile, move.card)))
        state = state.apply(move)
        out.append(str(move))
        if state.claim is not None:
            state = state.apply(Muggins(False))
            out.append("no muggins")
    return tuple(out)


#: FIRST_DEAL under muggins in the play.
FIRST_DEAL_SAID = said_aloud(FIRST_DEAL)


def muggins_table(level: str = "medium") -> CribbageTable:
    """Seed 1 under muggins, played to the show: your hand (2) to count first."""
    table = CribbageTable.new(1, level, CribbageOptions(muggins=True))
    drive(table, *FIRST_DEAL)
    table.take_pending()
    return table


def test_you_call_muggins_on_the_bots_count_and_take_what_it_missed() -> None:
    table = muggins_table()
    drive(table, "count 2", "no muggins", "count 6")  # the bot's hand makes 8: it says 6
    claim = table.call_open_to_person
    assert claim is not None and (claim.counter, claim.declared, claim.worth) == (1, 6, 8)
    assert table.view().claim == claim and table.person_to_move
    assert [h.words for h in table.take_pending()][-1] == "Medium bot counted the hand: 6."  # nothing told yet
    before = table.state.scores
    h = table.play(Muggins(True))
    assert h.words == "You called muggins on the Medium bot's hand: 6 said, it makes 8: 2 missed, 2 to you."
    assert [(e.player, e.kind, e.points) for e in h.events] == [(0, EventKind.MUGGINS, 2)]
    assert table.state.scores == (before[0] + 2, before[1]) and table.call_open_to_person is None
    assert table.counted[-1].called is True and table.counted[-1].declared == 6
    assert table.previous[0] == before[0]  # the back peg: the score before the call


def test_a_call_on_a_right_count_gives_the_bot_two() -> None:
    table = muggins_table()
    drive(table, "count 2", "no muggins", "count 8")
    before = table.state.scores
    h = table.play(Muggins(True))
    assert h.words == "You called muggins on the Medium bot's hand, but 8 was right: 2 to the Medium bot."
    assert table.state.scores == (before[0], before[1] + 2)


def test_the_bot_calls_muggins_on_your_short_count_by_its_manners() -> None:
    table = muggins_table("hard")  # Hard never lets a wrong count stand
    table.play(Count(1))
    assert table.bot_to_move and table.state.claim is not None
    h = table.bot_move()
    assert h.move == Muggins(True)
    assert h.words == "Hard bot called muggins on your hand: 1 said, it makes 2: 1 missed, 1 to it."
    assert table.counted[0].called is True


# --- counting by hand, without muggins ---


def manual_table() -> CribbageTable:
    """Seed 1 counted by hand, played to the show: your hand (AC 2S 4C 7S, QC turned: 2) to count first."""
    table = CribbageTable.new(1, "medium", CribbageOptions(manual_count=True))
    drive(table, *FIRST_DEAL)
    table.take_pending()
    return table


def test_counting_by_hand_a_wrong_count_is_corrected_and_shown_and_nothing_is_lost() -> None:
    table = manual_table()
    assert Count(5) in table.state.legal_actions() and Count() in table.state.legal_actions()
    before = table.state.scores
    h = table.play(Count(5))  # over
    assert h.words == "You counted the hand: 5, but it makes 2 (fifteens 2): 2 pegged."
    assert table.state.scores == (before[0] + 2, before[1]) and table.state.claim is None
    assert (table.counted[-1].declared, table.counted[-1].score.total, table.counted[-1].called) == (5, 2, None)
    assert table.bot_to_move  # no call to answer: the bot counts its hand next, exactly
    h = table.bot_move()
    assert h.move == Count() and h.words == "Medium bot counted the hand: 8."
    assert table.state.scores == (before[0] + 2, before[1] + 8)


def test_counting_by_hand_a_short_count_pegs_the_cards_worth_and_a_right_one_is_told_plainly() -> None:
    table = manual_table()
    before = table.state.scores[0]
    h = table.play(Count(0))
    assert h.words == "You counted the hand: 0, but it makes 2 (fifteens 2): 2 pegged."
    assert table.state.scores[0] == before + 2 and [e.points for e in h.events] == [2]
    table = manual_table()
    assert table.play(Count(2)).words == "You counted the hand: 2."


def test_counting_by_hand_refuses_a_count_no_hand_makes_and_is_kept_in_the_record() -> None:
    table = manual_table()
    with pytest.raises(CribbageError, match="0 to 29"):
        table.play(Count(30))
    assert table.state.show_step == 0  # nothing changed
    table.play(Count(7))
    record = table.state.record()
    assert record["options"] == {"muggins": False, "play_muggins": False, "target": 121, "manual_count": True}
    again = CribbageTable.new(1, "medium")  # a record without the mark is a game counted by the table
    assert "manual_count" not in again.state.record()["options"]  # type: ignore[operator]
    from cribtiles.cribbage.record import replay

    assert replay(record) == table.state and replay(record).options.manual_count


def test_without_counting_by_hand_a_wrong_count_is_still_refused() -> None:
    table = CribbageTable.new(1, "medium")
    drive(table, *FIRST_DEAL)
    with pytest.raises(CribbageError, match="count it exactly"):
        table.play(Count(5))
    assert table.state.legal_actions() == (Count(),)


def test_muggins_rules_the_count_when_both_are_chosen() -> None:
    table = CribbageTable.new(1, "hard", CribbageOptions(muggins=True, manual_count=True))
    drive(table, *FIRST_DEAL)
    table.play(Count(1))
    assert table.state.claim is not None and table.bot_move().move == Muggins(True)  # called, as under muggins


def test_a_card_laid_while_the_bots_claim_waits_lets_it_stand() -> None:
    table = CribbageTable.new(1, "medium", CribbageOptions(play_muggins=True))
    drive(table, "discard 8D 9H", "discard AD AH", "play 7S 0", "no muggins", "play 8H 1")  # 15 said as 1
    assert table.call_open_to_person is not None and table.why_not(PlayCard(parse_card("4C"))) == ""
    table.play(PlayCard(parse_card("4C"), 0))
    assert table.state.log[-3:] == ("play 8H 1", "no muggins", "play 4C 0")
    assert [h.words for h in table.take_pending()][-2:] == [
        "You let the Medium bot's card stand (1).",
        "You played 4C: the count is 19, saying 0.",
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "it is not valid JSON"),
        ('{"format": "something else"}', "it is not a saved cribbage game"),
        ('{"format": "cribtiles cribbage table", "version": 9}', "it is of version 9, not 1"),
        ('{"format": "cribtiles cribbage table", "version": 1, "person": 2}', "which seat is yours"),
        ('{"format": "cribtiles cribbage table", "version": 1, "person": 0, "level": "x"}', "names no bot level"),
        ('{"format": "cribtiles cribbage table", "version": 1, "person": 0, "level": "easy"}', "no record"),
    ],
)
def test_a_damaged_save_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(CribbageSaveError, match=words):
        CribbageTable.from_json(text)


def test_a_save_with_a_move_the_rules_refuse_is_refused_in_words() -> None:
    data = json.loads(CribbageTable.new(1).to_json())
    data["record"]["moves"] = ["play 5H"]
    with pytest.raises(CribbageSaveError, match=r"cannot be replayed: move 1 of the record \('play 5H'\)"):
        CribbageTable.from_json(json.dumps(data))


def test_at_a_table_of_two_people_either_moves_and_calls_and_the_words_name_them() -> None:
    """Two people (online): each is judged for their own seat, may call muggins on the other's count,
    and every word names them (each reaches both), a card laid away never named."""
    from cribtiles.table.seats import Seat

    state = new_game(1, ("Ann", "Ben"), CribbageOptions(muggins=True))
    table = CribbageTable(state, seats=(Seat("Ann"), Seat("Ben")))
    assert table.you is None and table.people == (0, 1)
    assert table.why_not(parse_move("discard 8D 9H"), 1) == "You do not hold the eight of diamonds (8D)."
    assert table.why_not(parse_move("go"), 1) == "It is not your turn."
    laid = table.play(parse_move("discard 8D 9H"), 0)
    assert laid.words == "Ann laid two cards in Ben's crib."  # seed 1 deals the first crib to seat 1
    table.play(parse_move("discard AD AH"), 1)
    for text in FIRST_DEAL[2:]:
        table.play(parse_move(text), table.to_move)
    table.play(Count(2), 0)  # Ann's hand makes 2
    assert table.call_open_to(1) is not None and table.call_open_to(0) is None
    table.play(Muggins(False), 1)
    table.play(Count(6), 1)  # Ben's hand makes 8
    assert table.legal_after_answer(0) == ()  # were it let stand, Ben would count his crib next
    assert table.why_not(Count(), 0) == "Wait: Ben is to play."
    called = table.play(Muggins(True), 0)
    assert called.words == "Ann called muggins on Ben's hand: 6 said, it makes 8: 2 missed, 2 to Ann."
    assert not any("you" in h.words.lower() for h in table.story)
    fresh = CribbageTable(state, seats=(Seat("Ann"), Seat("Ben")))
    assert fresh.why_not(Go(), 0) == "It is time to lay two cards in the crib (discard), not to go."
