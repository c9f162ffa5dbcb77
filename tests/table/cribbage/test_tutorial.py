"""Classic cribbage's tutorial: the scripted deal is legal from its seed, each step asks for the script's
own move at its ply, and the points the steps promise are the ones the engine scores."""

from __future__ import annotations

from cribtiles.cribbage import Count, Discard, PlayCard, parse_card, parse_move
from cribtiles.table.cribbage.tutorial import DONE, PERSON, SCRIPT, STEPS, scripted, step_at, tutorial_table, why_not


def test_the_script_plays_the_first_deal_from_the_seed() -> None:
    table = tutorial_table()
    state = table.state
    assert state.dealer == 1 - PERSON and state.names[PERSON] == "You"
    assert [str(c) for c in state.hands[PERSON]] == ["AH", "2S", "3H", "4S", "9C", "QC"]
    scored: list[tuple[int, str, int]] = []
    for ply, text in enumerate(SCRIPT):
        assert table.to_move is not None
        move = parse_move(text)
        happening = table.play(move) if table.person_to_move else table.play_bot(move, ply)
        assert happening is not None
        scored += [(e.player, e.words, e.points) for e in happening.events]
    state = table.state
    assert state.deal_number == 2 and state.scores == (11, 7)
    you, bot = PERSON, 1 - PERSON
    assert scored == [
        (you, "fifteen two", 2),
        (you, "go for one", 1),
        (bot, "a pair for two", 2),
        (bot, "last card for one", 1),
        (you, "fifteen for 2", 2),
        (you, "fifteen for 2", 2),
        (you, "run of four for 4", 4),
        (bot, "fifteen for 2", 2),
        (bot, "pair for 2", 2),
    ]
    assert table.counted[0].score.starter == parse_card("KC")
    assert [c.score.total for c in table.counted] == [8, 4, 0]


def test_each_step_asks_for_the_scripts_move_and_only_of_you() -> None:
    table = tutorial_table()
    asked = {s.ply: s.asks for s in STEPS if s.asks}
    for ply, text in enumerate(SCRIPT):
        yours = table.person_to_move
        if ply in asked:
            assert yours and asked[ply] == text and step_at(ply).asks == text
        elif yours:  # your moves the steps do not name are the same as the step before (none here)
            raise AssertionError(f"move {ply} ({text}) is yours and no step asks for it")
        table.play(parse_move(text)) if yours else table.play_bot(parse_move(text), ply)
    assert [s.ply for s in STEPS] == sorted({s.ply for s in STEPS}) and STEPS[0].ply == 0
    assert step_at(len(SCRIPT)) is DONE and scripted(len(SCRIPT)) is None and "11 to 7" in DONE.text


def test_only_the_scripts_move_is_taken() -> None:
    assert why_not(0, Discard((parse_card("QC"), parse_card("9C")))) == ""  # in either order
    assert why_not(0, Discard((parse_card("AH"), parse_card("9C")))) == (
        "The tutorial asks for: discard 9C QC. Your six cards: see the words on the right."
    )
    assert why_not(2, PlayCard(parse_card("4S"))).startswith("The tutorial asks for: play 2S.")
    assert why_not(11, Count()) == "" and why_not(11, Count(3)) != ""
    assert why_not(len(SCRIPT), Count()) == "The tutorial's deal is over: Escape leaves it."
