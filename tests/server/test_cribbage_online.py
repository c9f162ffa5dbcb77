"""Classic cribbage through a real server on the loopback address: whole games of two people (two seat
bots) and of a person against the server's bot, muggins called by each person, and every frame the
server sends a seat, or a spectator, searched for a card that seat may not see, the deck's order or the
seed while the game is on (issue 31). Three players and partners, whose people lay their crib cards at
once, before the game comes to them (issue 44)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cribtiles.cribbage.cards import Card, parse_card
from cribtiles.cribbage.events import EventKind
from cribtiles.cribbage.muggins import Claim, ClaimKind
from cribtiles.cribbage.options import CribbageOptions, Phase, Variant
from cribtiles.online.botclient import SeatBot
from cribtiles.online.client import Link, Refused
from cribtiles.rules.errors import IllegalMove
from cribtiles.server.cribbage_room import CribbageGame, read_rules
from cribtiles.server.front import Hall, Limits
from cribtiles.server.rooms import Place, Room, Settings
from cribtiles.table.cribbage.public import public_from_data, view_from_data
from cribtiles.table.cribbage.table import CribbageTable
from tests.card_words import names
from tests.server.conftest import MakeStore
from tests.server.players import Eager
from tests.server.running import running_server

#: Bots answer in milliseconds: the server's allowance of messages a second is raised for them.
FAST = Limits(per_second=1000, burst=1000)
#: Keys no frame may name while the game is on (the save's parts: its seed, the deck, the moves).
SECRET_KEYS = ("seed", "stock", "log", "record", "hands", "deck")
WAIT = 60.0


def hidden(table: CribbageTable, seat: int | None) -> set[Card]:
    """The cards `seat` (None: a spectator) may not know now: the other's hand until it is shown or laid,
    the cards laid in the crib until it is counted (or turned up for `seat` to count). A card face up
    before (the cut for deal, the last show still in sight) may be named again, so is not looked for.
    Once the game is over its record tells every card: nothing is hidden then."""
    state = table.state
    if state.is_over:
        return set()
    public = {c for _, c in state.played} | {c for counted in table.counted for c in counted.cards}
    public |= {counted.score.starter for counted in table.counted}
    public |= {c for cut in state.cut_for_deal for c in cut}
    if state.claim is not None:
        public |= set(state.claim.cards)
    if state.starter is not None:
        public.add(state.starter)
    if seat is not None and state.phase is Phase.SHOW and state.claim is None and table.to_move == seat:
        public |= set(state.show_cards(state.show_step)[0])  # yours, or your crib, turned up to count
    others = [p for p in range(state.players) if p != seat]  # a partner's hand too
    secret = {c for p in others for c in (*state.hands[p], *state.shown[p], *state.discards[p])}
    secret |= set(state.crib)  # the three-player crib's card from the deck, too, until it is counted
    if seat is not None:
        secret -= {*state.hands[seat], *state.shown[seat], *state.discards[seat]}
    return secret - public


def test_a_card_is_named_as_a_word_and_never_found_inside_a_token() -> None:
    four = parse_card("4H")
    assert names('{"hand":["4H","5D"]}', four) and names('"Ann laid 4H."', four)
    assert not names('{"token":"L20JAN7A2ykrHe-0woiNZEP4kr4HyvdN"}', four)
    assert not names('{"token":"-4H_"}', four) and not names('"14H"', four)


def leaks(frame: str, table: CribbageTable, seat: int | None) -> list[str]:
    """What `frame` tells `seat` that it may not see now."""
    found = []
    if not table.is_over:
        found += [f"the key {k!r}" for k in SECRET_KEYS if f'"{k}":' in frame]
    found += [f"the card {c}" for c in sorted(hidden(table, seat)) if names(frame, c)]
    stock = table.state.stock
    if not table.is_over and len(stock) > 2 and json.dumps([str(c) for c in stock[:3]])[1:-1] in frame:
        found.append("the deck's order")
    return found


class Frames:
    """Every frame `hall` sends for the table `code`, checked at once against the table as it is then."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.code = ""
        self.checked: dict[int | None, int] = {}
        self.found: list[tuple[int | None, list[str], str]] = []
        post = hall.tables.post

        def checked_post(client: Any, text: str) -> None:
            room = hall.rooms.get(self.code)
            if room is not None and self.code in client.seats and isinstance(room.game, CribbageGame):
                seat = client.seats[self.code]
                self.checked[seat] = self.checked.get(seat, 0) + 1
                problems = leaks(text, room.game.table, seat)
                if problems:
                    self.found.append((seat, problems, text[:300]))
            post(client, text)

        hall.tables.post = checked_post  # type: ignore[method-assign]


@pytest.fixture
def server(make_store: MakeStore) -> Iterator[tuple[str, Hall]]:
    """A server on SQLite and one on PostgreSQL (`store_kind`): the same tests pass on both (issue 46)."""
    with running_server(store=make_store(), limits=FAST) as running:
        yield running


def connected(url: str) -> Link:
    link = Link(url)
    assert link.wait_connected(10), link.problem
    return link


def play_both(*bots: SeatBot) -> list[Any]:
    """Each bot plays its seat in a thread of its own, to the end of the game."""
    outcomes: list[Any] = [None] * len(bots)

    def run(i: int) -> None:
        outcomes[i] = bots[i].play(WAIT)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(bots))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT + 10)
    return outcomes


def test_the_rules_are_read_from_text_and_a_wrong_table_is_refused_in_words(server: tuple[str, Hall]) -> None:
    assert read_rules("") == read_rules(" ")
    options = read_rules("muggins=on, play-muggins=yes,target=61")
    assert (options.muggins, options.play_muggins, options.target) == (True, True, 61)
    assert read_rules("variant=six-card") == read_rules("")
    assert [read_rules(f"variant={v}").variant for v in ("five-card", "three-player", "partnership")] == [
        Variant.FIVE_CARD,
        Variant.THREE,
        Variant.PARTNERSHIP,
    ]
    assert read_rules("variant=five-card,target=61") == CribbageOptions(variant=Variant.FIVE_CARD, target=61)
    for text, words in (
        ("joker=on", "cribbage has no rule 'joker'"),
        ("muggins=maybe", "muggins is on or off"),
        ("target=9", "31 to 1000"),
        ("variant=bridge", "no variant 'bridge'"),
        ("muggins", "name=value"),
    ):
        with pytest.raises(ValueError, match=words):
            read_rules(text)
    link = connected(server[0])
    try:
        with pytest.raises(Refused, match="no rule 'joker'"):
            link.request("create", game="cribbage", seats=[{"kind": "open"}, {"kind": "open"}], rules="joker=on")
        with pytest.raises(Refused, match="Six-card cribbage is played by two, not 3"):
            link.request("create", game="cribbage", seats=[{"kind": "open"}] * 3)
        with pytest.raises(Refused, match="Three-player cribbage is played by three, not 4"):
            link.request("create", game="cribbage", seats=[{"kind": "open"}] * 4, rules="variant=three-player")
        with pytest.raises(Refused, match="Partnership cribbage is played by four, not 2"):
            link.request("create", game="cribbage", seats=[{"kind": "open"}] * 2, rules="variant=partnership")
        made = link.request("create", game="cribbage", seats=[{"kind": "open"}] * 4, rules="variant=partnership")
        assert server[1].rooms[made["code"]].phase == "waiting"
    finally:
        link.close()


def test_two_people_play_a_whole_game_and_no_frame_tells_a_secret(server: tuple[str, Hall]) -> None:
    url, hall = server
    frames = Frames(hall)
    ann, ben, watcher = connected(url), connected(url), connected(url)
    try:
        made = ann.request(
            "create", game="cribbage", seats=[{"kind": "open"}, {"kind": "open"}], rules="muggins=on", seed=11
        )
        frames.code = code = made["code"]
        watcher.request("watch", code=code)
        watcher.watch(code)
        bots = SeatBot(ann, code, "easy", seed=1), SeatBot(ben, code, "hard", seed=2)
        assert bots[0].take_seat("Ann") == 0 and bots[1].take_seat("Ben") == 1
        outcomes = play_both(*bots)
        assert all(o is not None and o.over for o in outcomes)
        room = hall.rooms[code]
        assert isinstance(room.game, CribbageGame)
        table = room.game.table
        assert table.is_over and max(table.state.scores) == 121 and table.state.deal_number >= 4
        assert table.names == ("Ann", "Ben") and table.you is None  # every word names them
        end = outcomes[0].state
        summary = public_from_data(end["public"]).summary
        assert summary is not None and summary.winner in (0, 1)
        assert summary.person_won == (summary.winner == 0)  # told to Ann: her own win or loss
        record = CribbageTable.from_json(end["record"])  # once over, the whole game: it replays
        assert record.state.log == table.state.log and record.state.seed == 11
        status = ann.request("status", code=code)["table"]
        assert status["ended"] in ("win", "skunk", "double skunk") and status["winners"] == [summary.winner]
    finally:
        for link in (ann, ben, watcher):
            link.close()
    assert frames.found == []
    # every seat and the spectator were sent the game all through it, and every frame was searched
    assert frames.checked.get(0, 0) > 100 and frames.checked.get(1, 0) > 100 and frames.checked.get(None, 0) > 100


@pytest.mark.parametrize(
    ("rules", "levels"),
    [("variant=three-player,muggins=on,target=61", ("easy", "hard", "medium")),
     ("variant=partnership,play_muggins=on,target=61", ("easy", "hard", "medium", "easy"))],
    ids=["three players", "partners"],
)  # fmt: skip
def test_three_or_four_people_lay_away_at_once_and_no_frame_tells_a_secret(
    server: tuple[str, Hall], rules: str, levels: tuple[str, ...]
) -> None:
    url, hall = server
    frames = Frames(hall)
    links = [connected(url) for _ in range(len(levels) + 1)]
    watcher = links[-1]
    try:
        made = links[0].request("create", game="cribbage", seats=[{"kind": "open"}] * len(levels), rules=rules, seed=12)
        frames.code = code = made["code"]
        watcher.request("watch", code=code)
        watcher.watch(code)
        bots = [Eager(link, code, level, seed=n) for n, (link, level) in enumerate(zip(links, levels, strict=False))]
        assert [bot.take_seat(name) for bot, name in zip(bots, ("Ann", "Ben", "Cy", "Di"), strict=False)] == list(
            range(len(levels))
        )
        outcomes = play_both(*bots)
        assert all(o is not None and o.over for o in outcomes)
        room = hall.rooms[code]
        assert isinstance(room.game, CribbageGame)
        table = room.game.table
        state = table.state
        assert table.is_over and state.players == len(levels) and state.deal_number >= 2 and max(state.scores) == 61
        # people laid away before the game came to them (how many times depends on whose state came first:
        # with PostgreSQL's commits between, fewer than one a deal has been seen)
        assert sum(bot.early for bot in bots) >= 1
        assert CribbageTable.from_json(outcomes[0].state["record"]).state.log == state.log  # it replays
        status = links[0].request("status", code=code)["table"]
        outcome = state.outcome
        assert outcome is not None and status["winners"] == list(outcome.winners)
        assert status["scores"] == [state.scores[state.side_of(p)] for p in range(len(levels))]  # partners: one score
        assert len(status["winners"]) == (2 if len(levels) == 4 else 1)
    finally:
        for link in links:
            link.close()
    assert frames.found == []
    assert all(frames.checked.get(seat, 0) > 50 for seat in (*range(len(levels)), None)), frames.checked


def test_people_lay_away_in_any_order_kept_from_the_others_and_through_a_restart() -> None:
    """Four people in partnerships: the dealer lays away first, though the engine asks the player on the
    dealer's left first: the others are told only that the dealer has laid away, the card stays the
    dealer's; the turn timer still runs for the player the engine waits for; the table kept and loaded
    again (a restarted server) still holds the card laid; the game goes on in the engine's order."""
    places = [Place("person", name) for name in ("Ann", "Ben", "Cy", "Di")]
    settings = Settings(rules="variant=partnership", turn_timer=60)
    room, _host = Room.new("ABCDEF", "cribbage", places, settings, 3, now=0.0)
    for name in ("Ann", "Ben", "Cy", "Di"):
        room.take(name, 0.0)
    game = room.game
    assert isinstance(game, CribbageGame)
    dealer = game.table.state.dealer
    order = [(dealer + k) % 4 for k in (1, 2, 3, 4)]  # the engine's: from the dealer's left, the dealer last
    assert game.to_move == order[0]
    laid = str(game.table.view(dealer).legal[0])
    card = laid.split()[1]
    assert room.act(dealer, {"type": "act", "ply": room.ply, "move": laid}, 1.0) and game.table.ply == 0
    with pytest.raises(IllegalMove, match="not your turn"):
        room.act(dealer, {"type": "act", "ply": room.ply, "move": laid}, 2.0)  # laid once
    for seat in range(4):
        told = room.shown(seat, 2.0)
        assert told["view"]["discarded_by"] == [s == dealer for s in range(4)] and told["to_move"] == order[0]
        assert told["public"]["hand_sizes"] == [4 if s == dealer else 5 for s in range(4)]
        assert (card in json.dumps(told)) == (seat == dealer)
        assert len(told["view"]["legal"]) == (0 if seat == dealer else 5)  # the others may lay theirs, too
    assert card not in json.dumps(room.shown(None, 2.0)) and card not in json.dumps(room.summary(2.0))
    assert room.deadline() == 61.0 and room.due(61.0) == (order[0], "easy")  # the timer is the engine's turn's
    again = Room.from_data(json.loads(json.dumps(room.data())), 3.0)
    assert isinstance(again.game, CribbageGame) and again.game.table.ahead == game.table.ahead
    for seat in (*range(4), None):
        assert again.shown(seat, 5.0) | {"seats": None} == room.shown(seat, 5.0) | {"seats": None}
    stale = room.ply
    third = str(game.table.view(order[2]).legal[0])
    assert room.act(order[2], {"type": "act", "ply": stale, "move": third}, 4.0)
    second = str(game.table.view(order[1]).legal[0])
    with pytest.raises(IllegalMove, match="moved on"):  # another's came first: sent again on the new ply
        room.act(order[1], {"type": "act", "ply": stale, "move": second}, 4.0)
    assert room.act(order[1], {"type": "act", "ply": room.ply, "move": second}, 4.0) and game.table.ply == 0
    said = room.stand_in(order[0], "easy", 70.0)  # out of time: a bot lays away for them, then the rest are made
    assert said == f"{places[order[0]].name}'s time for the move ran out. The easy bot moved for them."
    assert game.table.ply == 4 and game.table.ahead == {} and game.table.state.phase is Phase.PLAY
    log = game.table.state.log
    assert log[1:] == (second, third, laid) and [h.player for h in game.table.story] == order


def test_a_person_against_the_servers_bot(server: tuple[str, Hall]) -> None:
    url, hall = server
    frames = Frames(hall)
    ann = connected(url)
    try:
        made = ann.request(
            "create",
            game="cribbage",
            seats=[{"kind": "open"}, {"kind": "bot", "level": "medium"}],
            rules="muggins=on,play_muggins=on",
            seed=5,
        )
        frames.code = code = made["code"]
        bot = SeatBot(ann, code, "medium", seed=3)
        assert bot.take_seat("Ann") == 0
        (outcome,) = play_both(bot)
        assert outcome is not None and outcome.over
        room = hall.rooms[code]
        assert isinstance(room.game, CribbageGame)
        table = room.game.table
        assert table.is_over and table.seats[1].level == "medium" and table.names[1] == "Medium bot"
        public = public_from_data(outcome.state["public"])
        assert public.called(1) == "the Medium bot" and public.called(0) == "Ann"  # a person takes no article
        words = [h.words for h in table.story] + [outcome.state["public"]["story"][-1]["words"]]
        assert not any("You " in w or " you" in w for w in words)  # the bot's moves named, never "you"
    finally:
        ann.close()
    assert frames.found == [] and frames.checked.get(0, 0) > 50


def latest(link: Link, code: str, ply: int) -> dict[str, Any]:
    """The state of `code` at `ply` as `link`'s seat was sent it (it comes by itself)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        message = link.next_message(timeout=0.5)
        if message is None or message["type"] != "state" or message["code"] != code:
            continue
        if message["state"]["ply"] == ply:  # an older one is passed over
            return dict(message["state"])
    raise AssertionError(f"no state at move {ply} came")


def wrong_count(state: dict[str, Any]) -> str:
    """A count one over what the cards make (one under at 29, the most there is)."""
    view = view_from_data(state["view"])
    public = public_from_data(state["public"])
    assert public.starter is not None
    claim = Claim(view.player, 0, ClaimKind.SHOW, view.to_count, public.starter, public.show_step == 2)
    worth = claim.worth
    return f"count {worth - 1 if worth == 29 else worth + 1}"


def test_each_person_calls_muggins_on_the_others_count(server: tuple[str, Hall]) -> None:
    """Ann and Ben each say one too many for every hand and crib; each calls the other's, Ann with the
    protocol's call, Ben with the move "muggins", and each takes the point said over."""
    url, hall = server
    frames = Frames(hall)
    links = connected(url), connected(url)
    try:
        made = links[0].request(
            "create", game="cribbage", seats=[{"kind": "open"}, {"kind": "open"}], rules="muggins=on", seed=8
        )
        frames.code = code = made["code"]
        for seat, name in enumerate(("Ann", "Ben")):
            joined = links[seat].request("join", code=code, name=name)
            links[seat].sit(code, joined["token"])
        states = {seat: latest(links[seat], code, 2) for seat in (0, 1)}
        seat = states[0]["to_move"]
        called = {0: 0, 1: 0}
        for _ in range(600):
            if called[0] >= 2 and called[1] >= 2:
                break
            me = states[seat]
            assert me["to_move"] == seat and me["you"] == seat
            view = view_from_data(me["view"])
            if me["may_call"]:
                if seat == 1:
                    answer = links[seat].request("act", code=code, ply=me["ply"], move="muggins")
                else:
                    answer = links[seat].request("call", code=code, ply=me["ply"])
                called[seat] += 1
            elif view.phase is Phase.SHOW:
                answer = links[seat].request("act", code=code, ply=me["ply"], move=wrong_count(me))
            else:
                answer = links[seat].request("act", code=code, ply=me["ply"], move=str(view.legal[0]))
            now = answer["state"]
            assert now["ply"] == me["ply"] + 1 and now["phase"] == "playing"
            seat = now["to_move"]
            states[seat] = now if seat == now["you"] else latest(links[seat], code, now["ply"])
        assert called[0] >= 2 and called[1] >= 2
        room = hall.rooms[code]
        assert isinstance(room.game, CribbageGame)
        log = room.game.table.state.log
        assert log.count("muggins") == called[0] + called[1] and not any(m.startswith("no muggins") for m in log)
        calls = [h for h in room.game.table.story if h.events and h.events[0].kind is EventKind.MUGGINS]
        assert all(h.events[0].points == 1 and "said over" in h.words for h in calls)
        to_move = room.game.table.to_move
        assert to_move is not None
        with pytest.raises(Refused, match="no count of the other player's"):  # nothing of Ben's to call
            links[1 - to_move].request("call", code=code, ply=room.ply)
    finally:
        for link in links:
            link.close()
    assert frames.found == []


def test_a_kept_table_comes_back_the_same_and_refuses_what_cribbage_has_not() -> None:
    places = [Place("person", "Ann"), Place("person", "Ben")]
    room, _host = Room.new("ABCDEF", "cribbage", places, Settings(rules="muggins=on"), 4, now=0.0)
    room.take("Ann", 1.0)
    room.take("Ben", 2.0)
    game = room.game
    assert isinstance(game, CribbageGame)
    for _ in range(14):  # both discards, and the play under way
        seat = game.to_move
        assert seat is not None
        room.act(seat, {"type": "act", "ply": room.ply, "move": str(game.table.view(seat).legal[0])}, 3.0)
    again = Room.from_data(json.loads(json.dumps(room.data())), 4.0)
    for seat in (0, 1, None):
        assert again.shown(seat, 5.0) | {"seats": None} == room.shown(seat, 5.0) | {"seats": None}
    seat = game.to_move
    assert seat is not None
    for kind, words in (("next_round", "no rounds"), ("undo", "has moved since")):
        with pytest.raises(IllegalMove, match=words):
            room.act(seat, {"type": kind, "ply": room.ply}, 6.0)
    with pytest.raises(IllegalMove, match="not your turn"):
        room.act(1 - seat, {"type": "act", "ply": room.ply, "move": "go"}, 6.0)
    with pytest.raises(IllegalMove, match="not a move"):
        room.act(seat, {"type": "act", "ply": room.ply, "move": "shuffle"}, 6.0)


@pytest.mark.parametrize("on_timeout", ["bot", "pass"])
def test_a_person_out_of_time_has_a_bot_move_for_them(on_timeout: str) -> None:
    """Cribbage has no pass: out of time, a person's move is a bot's either way, judged as theirs."""
    places = [Place("person", "Ann"), Place("person", "Ben")]
    settings = Settings(turn_timer=60, on_timeout=on_timeout)
    room, _host = Room.new("ABCDEF", "cribbage", places, settings, 9, now=0.0)
    room.take("Ann", 0.0)
    room.take("Ben", 0.0)
    game = room.game
    assert isinstance(game, CribbageGame)
    for _ in range(6):
        seat = game.to_move
        assert seat is not None and room.due(room.last_change + 59) is None
        due = room.due(room.last_change + 60)
        assert due is not None and due[0] == seat
        moves = game.table.ply
        room.stand_in(due[0], due[1], room.last_change + 60)
        assert game.table.ply == moves + 1 and game.table.story[-1].player == seat


def test_the_server_offers_cribbage_s_expert_bot() -> None:
    from cribtiles.server.rooms import bot_seat, levels, read_places

    assert levels("cribbage")[-2:] == ("hard", "expert")
    assert bot_seat("cribbage", "expert").level == "expert"
    places = read_places("cribbage", [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "expert"}])
    assert places[1].kind == "bot" and places[1].level == "expert"
