"""The variants of classic cribbage: five-card, three players, four in partnerships, a game to 61.

Thousands of seeded games of random legal moves in each variant keep the rules' invariants (every card
somewhere once, the count never above 31, scores only rising, the end at the target, under muggins at the
answer to a count, views that show nothing a player may not see, records that replay), and a hand-worked
example for each rule of a variant.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from cribtiles.cribbage import (
    CribbageError,
    CribbageOptions,
    CribbageState,
    Discard,
    EventKind,
    Go,
    Muggins,
    Phase,
    PlayCard,
    Variant,
    describe_cut,
    new_game,
    parse_card,
    parse_cards,
    parse_move,
    replay,
    score_show,
    show_total,
)
from cribtiles.cribbage.deal import Deal, first_dealer
from cribtiles.cribbage.events import MarginKind, outcome_of
from cribtiles.cribbage.peg import PegKind
from tests.cribbage.test_random_games import check_scores

NAMES = {2: ("You", "Bot"), 3: ("You", "West", "East"), 4: ("You", "West", "North", "East")}
VARIANTS = (Variant.FIVE_CARD, Variant.THREE, Variant.PARTNERSHIP, Variant.SIX_CARD)
GAMES = 1500  # each variant's games under `pytest --thorough`
SAMPLE = 1000  # otherwise (most to 61, some to 121): about 10 s of CPU a variant
WATCHED = 25  # every 25th game also checks every player's view at every step and replays its record


def options_for(variant: Variant, game: int) -> CribbageOptions:
    """Muggins in the show in every other game, in the play in every third; to 121 in every fifth; the end
    of the records made before `end_on_answer` in every seventh."""
    return CribbageOptions(
        muggins=game % 2 == 1,
        target=121 if game % 5 == 0 else 61,
        play_muggins=game % 3 == 1,
        variant=variant,
        end_on_answer=game % 7 != 3,
    )


def check_cards(state: CribbageState) -> None:
    where = [*(c for h in state.hands for c in h), *(c for _, c in state.played), *state.crib, *state.stock]
    assert len(where) == 52 and len(set(where)) == 52
    assert state.count == sum(c.value for c in state.pile) <= 31


def check_view(state: CribbageState, player: int, before: CribbageState) -> None:
    view = state.view(player)
    assert view.hand == state.hands[player] and view.scores == state.scores
    assert view.cards_left == tuple(len(h) for h in state.hands) and view.discarded_by == state.discarded
    assert view.sides == len(state.scores) and list(view.unseen) == sorted(view.unseen)
    counted = {c for hand in view.shown_hands for c in hand.cards}
    laid = {c for _, c in state.played}
    secret = {c for c in state.stock if c != state.starter}
    for other in range(state.players):
        if other != player:
            secret |= set(state.hands[other]) - counted
            secret |= {c for c in state.shown[other] if c not in counted and c not in laid}
    secret |= {c for c in state.crib if c not in state.discards[player] and c not in counted}
    if state.phase is Phase.SHOW and state.claim is None:
        assert view.to_count == state.show_cards(state.show_step)[0]
        secret -= set(view.to_count)
    assert secret <= set(view.unseen)
    new_deal = state.deal_number != before.deal_number
    text = repr(dataclasses.replace(view, unseen=(), cut_for_deal=(), events=() if new_deal else view.events))
    assert [c for c in secret if repr(c) in text] == []
    assert view.legal == (state.legal_actions() if state.current_player == player else ())


def play_game(variant: Variant, game: int, watched: bool) -> CribbageState:
    rng = random.Random(game)
    state = new_game(game, NAMES[variant.players], options_for(variant, game))
    target = state.options.target
    n = variant.players
    while not state.is_over:
        before = state
        moves = state.legal_actions()
        assert moves and state.current_player is not None
        if state.phase is Phase.DISCARD and state.claim is None:
            assert all(isinstance(m, Discard) and len(m.cards) == variant.to_crib for m in moves)
        move = rng.choice(moves)
        state = state.apply(move)
        check_cards(state)
        if state.claim is not None:
            assert state.current_player == (state.claim.counter + 1) % n
            assert state.side_of(state.current_player) != state.side_of(state.claim.counter)
        check_scores(state, move, before)
        if state.phase is Phase.PLAY and state.claim is None:
            assert len(state.crib) == 4 and all(len(k) == variant.kept for k in state.shown)
        if state.deal_number != before.deal_number:
            assert state.dealer == (before.dealer + 1) % n and before.phase is Phase.SHOW
            assert [len(h) for h in state.hands] == [variant.dealt] * n and len(state.crib) == variant.from_deck
        if watched:
            assert parse_move(str(move)) == move
            for p in range(n):
                check_view(state, p, before)
    outcome = state.outcome
    assert outcome is not None and state.scores[outcome.winner] == target and outcome.scores == state.scores
    assert sum(outcome.returns()) == n // variant.sides and len(outcome.returns()) == n
    assert state.current_player is None and state.legal_actions() == ()
    if watched:
        assert replay(json.loads(json.dumps(state.record()))) == state
    return state


@pytest.mark.parametrize("variant", VARIANTS[:3])
def test_thousands_of_random_games_of_each_variant_keep_the_rules(variant: Variant, thorough: bool) -> None:
    games = GAMES if thorough else SAMPLE
    finished = [play_game(variant, game, watched=game % WATCHED == 0) for game in range(games)]
    winners = {s.outcome.winner for s in finished if s.outcome is not None}
    assert winners == set(range(variant.sides))  # every side wins some
    assert any(s.outcome is not None and s.outcome.lurch for s in finished)


def test_a_game_to_61_of_the_standard_game_keeps_the_rules() -> None:
    for game in range(200):
        state = play_game(Variant.SIX_CARD, game * 5 + 1, watched=game % WATCHED == 0)
        assert state.options.target == 61


# --- hand-worked examples ---


def position(variant: Variant, **fields: object) -> CribbageState:
    """A made-up position of `variant`: a new game's state with `fields` replaced."""
    state = new_game(1, NAMES[variant.players], CribbageOptions(variant=variant))
    return dataclasses.replace(state, **fields)  # type: ignore[arg-type]


def laid(state: CribbageState, *moves: str) -> CribbageState:
    for text in moves:
        state = state.apply(parse_move(text))
    return state


def test_the_go_with_three_goes_on_while_anyone_can_lay_and_the_next_after_the_last_to_lay_leads() -> None:
    pile = parse_cards("TH 5S TD")
    start = position(
        Variant.THREE,
        phase=Phase.PLAY,
        dealer=2,
        turn=0,
        hands=(parse_cards("KH"), parse_cards("4C"), parse_cards("9S")),
        pile=pile,
        count=25,
        played=tuple(zip((0, 1, 2), pile, strict=True)),
        starter=parse_card("2C"),
    )
    state = laid(start, "go")  # West and East go on
    assert state.current_player == 1
    state = laid(state, "play 4C")  # 29: East cannot lay 9, you have said go, West is out
    go = [e for e in state.events if e.kind is PegKind.GO]
    assert [(e.player, e.points) for e in go] == [(1, 1)]  # the last to lay pegs the go
    assert state.count == 0 and state.current_player == 2  # the next after West who holds cards leads
    state = laid(state, "play 9S")
    assert state.current_player == 0  # then you, who said go on the old count
    state = laid(state, "play KH")
    assert [(e.player, e.kind) for e in state.events] == [(0, PegKind.LAST_CARD)] and state.phase is Phase.SHOW
    assert state.scores == (1, 1, 0)


def test_with_three_a_player_who_cannot_lay_says_go_and_the_31_passes_the_lead_on() -> None:
    pile = parse_cards("TH 5S TD")
    start = position(
        Variant.THREE,
        phase=Phase.PLAY,
        dealer=2,
        turn=0,
        hands=(parse_cards("KH"), parse_cards("4C 2D"), parse_cards("9S")),
        pile=pile,
        count=25,
        played=tuple(zip((0, 1, 2), pile, strict=True)),
        starter=parse_card("3C"),
    )
    state = laid(start, "go", "play 4C")  # 29: West can still lay, so East must say go
    assert state.current_player == 2 and state.legal_actions() == (Go(),)
    state = laid(state, "go")
    assert state.current_player == 1
    state = laid(state, "play 2D")  # 31 for two
    assert [(e.player, e.kind, e.points) for e in state.events] == [(1, PegKind.THIRTY_ONE, 2)]
    assert state.count == 0 and state.current_player == 2  # the next after West who holds cards


def test_the_three_player_crib_takes_the_top_card_of_the_deck() -> None:
    state = new_game(8, NAMES[3], CribbageOptions(variant=Variant.THREE))
    deal = Deal(8, 1, state.dealer, 3, 5, 1)
    assert [len(h) for h in state.hands] == [5, 5, 5] and state.crib == deal.crib and len(deal.crib) == 1
    assert state.current_player == (state.dealer + 1) % 3  # the dealer's left discards first
    with pytest.raises(CribbageError, match=r"lay one card in the crib \(three players\), not 2"):
        state.apply(Discard(state.hands[state.current_player][:2]))
    while state.phase is Phase.DISCARD:
        state = state.apply(state.legal_actions()[0])
    assert len(state.crib) == 4 and state.crib[0] == deal.crib[0] and all(len(h) == 4 for h in state.hands)
    assert state.starter == deal.stock[0] and state.turn == (state.dealer + 1) % 3
    assert deal.crib[0] in state.view(state.dealer).unseen  # nobody sees the deck's card before the count


def test_the_three_player_show_counts_from_the_dealers_left_then_the_crib() -> None:
    state = new_game(8, NAMES[3], CribbageOptions(variant=Variant.THREE))
    d = state.dealer
    assert [state.show_owner(s) for s in range(3)] == [(d + 1) % 3, (d + 2) % 3, d]
    assert state.show_cards(3)[1] and state.show_counts == 4


def test_five_card_cribbage_gives_the_first_non_dealer_three_for_last() -> None:
    state = new_game(3, NAMES[2], CribbageOptions(variant=Variant.FIVE_CARD, target=61))
    assert [(e.player, e.points, e.kind) for e in state.events] == [(state.pone, 3, EventKind.THREE_FOR_LAST)]
    assert state.scores[state.pone] == 3 and state.scores[state.dealer] == 0
    assert [len(h) for h in state.hands] == [5, 5]
    assert all(len(m.cards) == 2 for m in state.legal_actions() if isinstance(m, Discard))
    record = state.record()
    assert record["options"]["variant"] == "five-card"  # type: ignore[index]
    assert replay(record).scores == state.scores


def test_five_card_play_goes_once_to_31_and_the_cards_left_are_not_played() -> None:
    start = position(
        Variant.FIVE_CARD,
        phase=Phase.PLAY,
        dealer=1,
        turn=0,
        hands=(parse_cards("KH QH 2D"), parse_cards("KS 9D AC")),
        shown=(parse_cards("KH QH 2D"), parse_cards("KS 9D AC")),
        starter=parse_card("7C"),
        scores=(3, 0),
    )
    state = laid(start, "play KH", "play KS", "play QH")
    assert state.count == 30 and state.current_player == 1
    state = laid(state, "play AC")  # 31 for two: the play is over
    assert [(e.player, e.kind) for e in state.events] == [(1, PegKind.THIRTY_ONE)]
    assert state.phase is Phase.SHOW and state.hands == (parse_cards("2D"), parse_cards("9D"))
    assert state.show_cards(0) == (parse_cards("KH QH 2D"), False)  # the hand of three is counted whole


def test_five_card_play_ends_at_the_first_go() -> None:
    start = position(
        Variant.FIVE_CARD,
        phase=Phase.PLAY,
        dealer=1,
        turn=0,
        hands=(parse_cards("KH QH 9C"), parse_cards("KS 9D AC")),
        shown=(parse_cards("KH QH 9C"), parse_cards("KS 9D AC")),
        starter=parse_card("7C"),
    )
    state = laid(start, "play KH", "play KS", "play 9C")  # 29: the dealer cannot lay 9, but can lay the ace
    state = laid(state, "play AC")  # 30: nobody can lay: a go, and the play ends
    assert [(e.player, e.kind) for e in state.events] == [(1, PegKind.GO)]
    assert state.phase is Phase.SHOW and state.hands == (parse_cards("QH"), parse_cards("9D"))


def test_a_flush_of_three_cards_in_a_five_card_hand() -> None:
    hand = parse_cards("4H 7H 9H")
    assert score_show(hand, parse_card("KS")).flush == 3
    assert score_show(hand, parse_card("KH")).flush == 4
    assert show_total(hand, parse_card("KH")) == score_show(hand, parse_card("KH")).total == 4
    assert score_show(parse_cards("4H 7H 9H QH"), parse_card("KS"), crib=True).flush == 0  # a crib needs all five
    rng = random.Random(4)
    for _ in range(2000):
        cards = rng.sample(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 5S JS KD 5C"), 4)
        assert show_total(cards[:3], cards[3]) == score_show(cards[:3], cards[3]).total


def test_partners_share_one_score_and_win_together() -> None:
    start = position(
        Variant.PARTNERSHIP,
        phase=Phase.PLAY,
        dealer=3,
        turn=2,
        hands=(parse_cards("2C"), parse_cards("3C"), parse_cards("5S 4H"), parse_cards("6C")),
        pile=parse_cards("TH"),
        count=10,
        played=((1, parse_card("TH")),),
        starter=parse_card("2D"),
        scores=(119, 95),
    )
    state = laid(start, "play 5S")  # North makes fifteen: two for North and you
    assert state.is_over and state.scores == (121, 95)
    assert state.outcome is not None and state.outcome.winner == 0 and state.outcome.returns() == (1.0, 0.0, 1.0, 0.0)
    assert state.outcome.winners == (0, 2)
    assert state.outcome.words(state.names) == "You and North win, 121 to 95."
    view = state.view(2)
    assert view.partner == 0 and view.sides == 2 and view.side_of(3) == 1


def test_partners_sit_across_and_the_deal_goes_round() -> None:
    state = new_game(5, NAMES[4], CribbageOptions(variant=Variant.PARTNERSHIP))
    assert state.scores == (0, 0) and [state.side_of(p) for p in range(4)] == [0, 1, 0, 1]
    assert [len(h) for h in state.hands] == [5] * 4 and state.crib == ()
    assert [v.partner for v in map(state.view, range(4))] == [2, 3, 0, 1]
    while state.phase is Phase.DISCARD:
        state = state.apply(state.legal_actions()[-1])
    assert len(state.crib) == 4 and all(len(h) == 4 for h in state.hands)


def test_muggins_is_answered_by_the_next_player_an_opponent() -> None:
    for variant in (Variant.THREE, Variant.PARTNERSHIP):
        options = CribbageOptions(variant=variant, muggins=True, play_muggins=True)
        state = new_game(2, NAMES[variant.players], options)
        while state.phase is Phase.DISCARD:
            state = state.apply(state.legal_actions()[0])
        player = state.current_player
        assert player is not None
        card = next(m for m in state.legal_actions() if isinstance(m, PlayCard))
        state = state.apply(PlayCard(card.card, 0))
        assert state.claim is not None and state.current_player == (player + 1) % variant.players
        assert state.legal_actions() == (Muggins(True), Muggins(False))


def test_the_cut_for_deal_with_three_or_four_recuts_only_the_lowest_tied() -> None:
    cuts = (parse_cards("5H 5D 9C"), parse_cards("KH 2S"))
    assert first_dealer(cuts) == 1
    state = dataclasses.replace(new_game(1, NAMES[3], CribbageOptions(variant=Variant.THREE)), cut_for_deal=cuts)
    assert describe_cut(state) == [
        "You cut 5H, West cut 5D, East cut 9C: a tie for the lowest, cut again",
        "You cut KH, West cut 2S: the lowest card deals, West",
    ]
    for seed in range(200):
        state = new_game(seed, NAMES[4], CribbageOptions(variant=Variant.PARTNERSHIP))
        first = state.cut_for_deal[0]
        assert len(first) == 4 and state.dealer == first_dealer(state.cut_for_deal)
        last = state.cut_for_deal[-1]
        assert sum(c.rank == min(x.rank for x in last) for c in last) == 1


def test_a_wrong_number_of_players_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="three-player cribbage is for three players, not 2"):
        new_game(1, ("You", "Bot"), CribbageOptions(variant=Variant.THREE))
    with pytest.raises(ValueError, match="five-card cribbage is for two players, not 4"):
        new_game(1, NAMES[4], CribbageOptions(variant=Variant.FIVE_CARD))
    record = new_game(1, NAMES[3], CribbageOptions(variant=Variant.THREE)).record()
    with pytest.raises(CribbageError, match="must name three players"):
        replay({**record, "names": ["You", "Bot"]})
    with pytest.raises(CribbageError, match="no variant this version knows"):
        replay({**record, "options": {"variant": "pinochle"}})


def test_the_standard_record_does_not_name_its_variant_and_old_records_load() -> None:
    state = new_game(4)
    record = state.record()
    assert "variant" not in record["options"]  # type: ignore[operator]
    assert replay(record) == state and state.variant is Variant.SIX_CARD


def test_a_game_to_61_has_a_lurch_under_31_and_no_double() -> None:
    assert outcome_of((61, 30), 0, 61).margin_kind is MarginKind.SKUNK
    assert outcome_of((61, 0), 0, 61).margin_kind is MarginKind.SKUNK
    assert outcome_of((61, 31), 0, 61).margin_kind is MarginKind.WIN
    assert outcome_of((121, 60), 0, 121).margin_kind is MarginKind.DOUBLE_SKUNK
    # with three, the best loser decides
    assert outcome_of((121, 95, 40), 0, 121, (0, 1, 2)).margin_kind is MarginKind.WIN
