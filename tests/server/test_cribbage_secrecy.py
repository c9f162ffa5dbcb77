"""Every frame the server sends over whole games of cribbage under muggins (in the show, and in the play
too), played by seat bots that miscount both ways over their own links (each asking the table's status
as it answers a count) before a spectator: while a score said aloud may still be called, no frame tells
what it makes (its event's points, the counter's score or back peg, the status's scores, the moves
offered once it stands); once it is answered, its points are there. Nor does a window's existence: every
score said aloud opens one, one that reaches the target too, and the game ends at its answer (issue 43).
Three players, and partners, who peg to one score a side, too (issue 44). And games whose seat bots often
ask to take back their moves, agreed to or refused: every frame, checked against the game as it stood
when it was sent (the way it went before a take-back), names no card its seat may not see and tells
nothing of a count open to a call (issue 44, defect 10)."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.moves import Count, Muggins, PlayCard, parse_move
from cribtiles.cribbage.muggins import MOST_PEGGED, MOST_SHOWN
from cribtiles.online import botclient, cribbage_seat
from cribtiles.online.botclient import Outcome, SeatBot
from cribtiles.online.client import Link, NotConnected, Refused
from cribtiles.server.cribbage_room import CribbageGame, read_rules
from cribtiles.server.front import Client, Hall, Limits

from .running import running_server
from .test_cribbage_online import Frames as HiddenCards

#: Bots answer in milliseconds: the server's allowance of messages a second is raised for them.
FAST = Limits(per_second=1000, burst=1000)
WAIT = 120.0
#: The kinds of event a score said aloud pegs (`Claim.event`), as the wire names them.
SAID = ("count", "claim")


@dataclass(frozen=True)
class Frame:
    """One frame as sent for the table: the connection's seat there (None: a spectator), its text, and the
    game's moves when it was sent (None: not known; a game whose moves were taken back went another way)."""

    seat: int | None
    text: str
    log: tuple[str, ...] | None = None


def record_frames(hall: Hall, codes: list[str]) -> list[Frame]:
    """Every frame `hall` sends from now on about the table whose code is first in `codes` (set once made),
    with the game's moves as they were when it was sent."""
    frames: list[Frame] = []
    post = hall.tables.post

    def recording(client: Client, text: str) -> None:
        if codes and f'"{codes[0]}"' in text:
            room = hall.rooms.get(codes[0])
            game = room.game if room is not None else None
            log = game.table.state.log if isinstance(game, CribbageGame) else None
            frames.append(Frame(client.seats.get(codes[0]), text, log))
        post(client, text)

    hall.tables.post = recording  # type: ignore[method-assign]
    return frames


def miscounting(state: dict[str, Any], level: str, rng: random.Random) -> str:
    """A seat bot's move, then now and then miscounted on purpose (the bots never count over, and the
    exact levels never under): a count or a card's score said over or short (near the end, over to just
    reach the target), a right count called, or a card laid (a count made) while the other's score waits,
    which lets it stand."""
    move = parse_move(cribbage_seat.bot_move(state, level, rng))
    roll = rng.random()
    if state.get("may_call") and roll < 0.5:
        plain = [m for m in state.get("after_answer") or () if len(m.split()) <= 2 and not m[-1].isdigit()]
        if plain:
            return str(rng.choice(plain))  # laid on: the other's score stands
    if isinstance(move, Muggins) and not move.claim and roll < 0.25:
        return "muggins"  # a call on a count that may well be right: it costs the caller
    short = _short_of_target(state)
    if isinstance(move, Count) and move.declared is not None:
        return str(Count(_miscount(move.declared, MOST_SHOWN, roll, rng, short)))
    if isinstance(move, PlayCard) and move.claim is not None:
        return str(PlayCard(move.card, _miscount(move.claim, MOST_PEGGED, roll, rng, short)))
    return str(move)


def _short_of_target(state: dict[str, Any]) -> int:
    """The points the seat still needs to reach the target, as its view tells its score."""
    view = state["view"]
    side = view["player"] % len(view["scores"])  # partners peg to one score
    return int(view["options"]["target"]) - int(view["scores"][side])


#: How near the target a count is said over to reach it: the window that opens must not say it is over.
NEAR = 6


def _miscount(said: int, most: int, roll: float, rng: random.Random, short: int) -> int:
    """`said` now and then over or short; a score of nothing more often over (the engine pegs nothing then);
    a score that leaves its counter at most NEAR short of the target, half the time said to reach it."""
    if 0 < short - said <= NEAR and short <= most and roll < 0.5:
        return short
    if roll < (0.6 if said == 0 else 0.3):
        return min(most, said + rng.randint(1, 4))
    if roll < 0.45:
        return max(0, said - rng.randint(1, 3))
    return said


def replayed(state: CribbageState) -> list[CribbageState]:
    """Every state of the game `state` ended, by the number of moves made (0: as dealt)."""
    states = [new_game(state.seed, state.names, state.options)]
    for text in state.log:
        states.append(states[-1].apply(parse_move(text)))
    assert states[-1] == state
    return states


class OpenCallLeaks:
    """What the frames told of a score said aloud while it could still be called, or failed to tell once
    it was answered, in words; and which cases were met, so that a check that never met its case fails."""

    def __init__(self, states: list[CribbageState]) -> None:
        self.states = states
        self.found: list[str] = []
        self.met: dict[str, int] = {}
        self.back_pegs: dict[tuple[str, ...], list[int]] = {}  # the back pegs each state's frames told
        # the states of the game as the frame being checked was sent: `states`, or, before a take-back,
        # those of the way the game went then (replayed once for each way)
        self.current = states
        self._ways: dict[tuple[str, ...], list[CribbageState]] = {}

    def _way(self, log: tuple[str, ...] | None) -> list[CribbageState]:
        """The states of the game up to `log` (the moves made when a frame was sent)."""
        if log is None or (len(log) < len(self.states) and self.states[len(log)].log == log):
            return self.states
        if log not in self._ways:
            self.see("a way the game did not go on")
            states = [self.states[0]]
            for text in log:
                states.append(states[-1].apply(parse_move(text)))
            self._ways[log] = states
        return self._ways[log]

    def check_windows(self) -> None:
        """Every score said aloud (a count in the show under muggins, a card laid under muggins in the play)
        opened a window, whatever it makes: one that reaches the target too, or a window that opened would
        say the count was over, and a game that ended at once that it was not; and whether the game ended at
        an answer (as one must, whose last points a count said aloud pegged)."""
        for ply in range(1, len(self.states)):
            before, after = self.states[ply - 1], self.states[ply]
            move = parse_move(after.log[-1])
            said = (isinstance(move, Count) and before.options.muggins) or (
                isinstance(move, PlayCard) and before.options.play_muggins
            )
            if not said:
                continue
            claim = after.claim
            if claim is None:
                self.found.append(f"move {ply}: a score said aloud ({after.log[-1]}) opened no window")
                continue
            self.see("said aloud, open")
            short = before.options.target - before.scores[before.side_of(claim.counter)]
            if claim.pegged >= short:
                self.see("made enough to reach the target, open")
            elif claim.declared >= short:
                self.see("said enough to reach the target, the cards short, open")
        final = self.states[-1]
        if final.log[-1] in ("muggins", "no muggins") and final.scores != self.states[-2].scores:
            self.see("the game ended at an answer")

    def see(self, what: str) -> None:
        self.met[what] = self.met.get(what, 0) + 1

    def check(self, frame: Frame) -> None:
        self.current = self._way(frame.log)
        if self.current is not self.states:
            self.see("a frame of a way the game did not go on")
        message = json.loads(frame.text)
        if message["type"] == "state" and "public" in message["state"]:
            self._state(frame, message["state"])
        elif message["type"] == "table" and "turns" in message["table"]:
            self._status(message["table"])

    def _state(self, frame: Frame, told: dict[str, Any]) -> None:
        public = told["public"]
        ply = public["ply"]
        state = self.current[ply]
        claim = state.claim
        self._story(public["story"], ply)
        if claim is None:
            self.back_pegs.setdefault(state.log, public["previous"])
            self._scores("the public scores", public["scores"], state, ply)
            if "view" in told:
                self._scores("a view's scores", told["view"]["scores"], state, ply)
            return
        self.see("open")
        to = "a spectator" if frame.seat is None else "the counter" if frame.seat == claim.counter else "the answerer"
        self.see(f"open, to {to}")
        self.see("over" if claim.declared > claim.worth else "short" if claim.declared < claim.worth else "right")
        self.see(f"open in the {claim.kind}")
        if claim.declared and not claim.pegged:
            self.see("said, pegging nothing")
        if state.scores[state.side_of(claim.counter)] - claim.pegged + claim.declared >= state.options.target:
            self.see("said enough to reach the target, told")  # the window's existence: `check_windows`
        self._scores("the public scores", public["scores"], state, ply)
        before = self.back_pegs.get(self.current[ply - 1].log)  # none when the move before came with this one
        if before is not None:
            self.see("back pegs, open")
            if public["previous"] != before:  # one a side
                self.found.append(f"move {ply}: the back pegs moved by a count open to a call ({public['previous']})")
        if "view" in told:
            view = told["view"]
            self._scores("a view's scores", view["scores"], state, ply)
            if any(e["kind"] in SAID for e in view["events"]):
                self.found.append(f"move {ply}: a view told the event of a count open to a call")
        if told.get("may_call"):
            self._after_answer(told.get("after_answer"), state, frame.seat, ply)

    def _after_answer(self, told: list[str] | None, state: CribbageState, seat: int | None, ply: int) -> None:
        """The moves the answerer is offered once the score stands are those of the game going on: none
        missing because letting it stand would end the game (that says what the cards make)."""
        self.see("moves after the answer, told")
        endless = replace(state, options=replace(state.options, target=1000)).apply(Muggins(False))
        assert not endless.is_over  # a game to 1000 goes on: its moves are those of the game going on
        going_on = [str(m) for m in endless.legal_actions()] if endless.current_player == seat else []
        if told != going_on:
            self.found.append(f"move {ply}: the moves offered once the count stands ({told}) tell what it makes")
        if going_on and state.apply(Muggins(False)).is_over:
            self.see("moves after the answer, told where letting it stand ends the game")

    def _scores(self, what: str, scores: list[int], state: CribbageState, ply: int) -> None:
        """The scores told: while a score said aloud waits, the counter's as before it; else the game's."""
        claim = state.claim
        if claim is None:
            if scores != list(state.scores):
                self.found.append(f"move {ply}: {what} {scores} are not the game's {list(state.scores)}")
            return
        true = list(state.scores)
        counter = state.side_of(claim.counter)
        expected = [s - (claim.pegged if side == counter else 0) for side, s in enumerate(true)]
        if scores != expected:
            self.found.append(f"move {ply}: {what} {scores} tell what a count open to a call pegged ({true})")

    def _story(self, story: list[dict[str, Any]], ply: int) -> None:
        """Each told move of the story is the game's move number ply - len(story) + i (the story is the last
        moves, in order): a score it said aloud is told without points while open, with its points after."""
        for i, entry in enumerate(story):
            made = ply - len(story) + i + 1  # the states after that move
            opened = self.current[made].claim
            said = [e for e in entry["events"] if e["kind"] in SAID]
            if opened is None or entry["act"] not in ("count", "play"):
                if any(e["points"] is None for e in said):
                    self.found.append(f"move {ply}: a score without points that was never open to a call")
                continue
            if len(said) != 1 or said[0]["player"] != opened.counter:
                self.found.append(f"move {ply}: the count said aloud at move {made} is not told once: {said}")
                continue
            if made == ply:  # still open to a call
                self.see("story, open")
                if said[0]["points"] is not None:
                    self.found.append(f"move {ply}: the story told a count open to a call as {said[0]['points']}")
            else:
                self.see("story, answered")
                if said[0]["points"] != opened.pegged:
                    self.found.append(f"move {ply}: the answered count of move {made} told as {said[0]['points']}")
                self.see(f"answered by {self.current[made + 1].log[-1]!r}")

    def _status(self, table: dict[str, Any]) -> None:
        state = self.current[table["turns"]]
        self.see("status")
        if state.claim is not None:
            self.see("status, open")
        by_side = {state.side_of(seat): score for seat, score in enumerate(table["scores"])}  # one a seat
        if len(table["scores"]) != state.players or len(by_side) != len(state.scores):
            self.found.append(f"move {table['turns']}: the status's scores {table['scores']} are not one a seat")
        self._scores("the status's scores", [by_side[side] for side in sorted(by_side)], state, table["turns"])


Mover = Callable[[dict[str, Any], str, random.Random], str]


def asking(links: list[Link], code: str) -> Mover:
    """`miscounting`, asking the table's status first over the seat's own link whenever the table waits for
    its answer to a score said aloud: a status read while the score surely waits."""

    def move(state: dict[str, Any], level: str, rng: random.Random) -> str:
        if state.get("may_call"):
            links[state["you"]].request("status", code=code)
        return miscounting(state, level, rng)

    return move


def play_watched(
    rules: str, seed: int, bot: type[SeatBot] = SeatBot, seen: dict[str, Any] | None = None
) -> tuple[list[Frame], list[CribbageState], list[Outcome]]:
    """A whole game of miscounting seat bots (two; three or four in those variants: over their own links,
    each asking the table's status as it answers a count) watched by a spectator: every frame sent about
    the table, every state of the game. `seen` (when given) is told the bots, the moves taken back and
    what the test of hidden cards found in every frame as it was sent (`HiddenCards`)."""
    players = read_rules(rules).variant.players
    with running_server(limits=FAST) as (url, hall), pytest.MonkeyPatch.context() as patch:
        codes: list[str] = []
        hidden = HiddenCards(hall)
        frames = record_frames(hall, codes)
        links = [Link(url) for _ in range(players + 1)]
        try:
            for link in links:
                assert link.wait_connected(10), link.problem
            seats = [{"kind": "open"}] * players
            code = links[0].request("create", game="cribbage", seats=seats, rules=rules, seed=seed)["code"]
            codes.append(code)
            hidden.code = code
            links[-1].request("watch", code=code)
            links[-1].watch(code)
            play = botclient.SeatPlay(asking(links, code), cribbage_seat.SEAT_PLAY.calls)
            patch.setattr(cribbage_seat, "SEAT_PLAY", play)  # the seat bots' moves
            levels = ("easy", "hard", "easy", "hard")
            bots = [bot(links[p], code, levels[p], seed=seed + p) for p in range(players)]
            names = ("Ann", "Ben", "Cy", "Di")
            assert [bot.take_seat(name) for bot, name in zip(bots, names, strict=False)] == list(range(players))
            outcomes = play_out(bots)
            room = hall.rooms[code]
            assert isinstance(room.game, CribbageGame)
            final = room.game.table.state
            if seen is not None:
                seen.update(bots=bots, undos=room.game.table.undos, hidden=hidden)
        finally:
            for link in links:
                link.close()
        return list(frames), replayed(final), outcomes


def play_out(bots: list[SeatBot]) -> list[Outcome]:
    """Each bot plays its seat in a thread of its own, to the end of the game (or WAIT seconds)."""
    outcomes: list[Outcome] = []
    threads = [threading.Thread(target=lambda b=b: outcomes.append(b.play(WAIT))) for b in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT + 10)
    return outcomes


GAMES = [
    ("muggins both ways", "muggins=on,play_muggins=on", 4_321),
    ("muggins in the show", "muggins=on", 8_767),
    ("muggins both ways to 61", "muggins=on,play_muggins=on,target=61", 61),
    ("three players, muggins both ways", "muggins=on,play_muggins=on,variant=three-player", 3_003),
    ("partners, muggins both ways", "muggins=on,play_muggins=on,variant=partnership", 4_004),
]


@pytest.fixture(scope="module", params=[g[1:] for g in GAMES], ids=[g[0] for g in GAMES])
def game(request: pytest.FixtureRequest) -> Iterator[tuple[str, list[Frame], list[CribbageState]]]:
    rules, seed = request.param
    frames, states, outcomes = play_watched(rules, seed)
    assert len(outcomes) == states[-1].players and all(o.over for o in outcomes) and states[-1].is_over
    yield rules, frames, states


def test_no_frame_tells_what_a_count_open_to_a_call_makes(game: tuple[str, list[Frame], list[CribbageState]]) -> None:
    rules, frames, states = game
    leaks = OpenCallLeaks(states)
    for frame in frames:
        leaks.check(frame)
    leaks.check_windows()
    assert not leaks.found, sorted(set(leaks.found))[:10]
    wanted = ["open, to a spectator", "open, to the counter", "open, to the answerer", "over", "short", "right"]
    wanted += ["open in the show", "said, pegging nothing", "story, open", "story, answered", "status, open"]
    wanted += ["answered by 'muggins'", "answered by 'no muggins'", "back pegs, open"]
    wanted += ["said aloud, open", "moves after the answer, told", "the game ended at an answer"]
    if "play_muggins" in rules:
        wanted.append("open in the play")
    if "target=61" in rules:  # the game the miscounting bots are made to end near the target
        wanted += ["made enough to reach the target, open", "said enough to reach the target, the cards short, open"]
        wanted += [
            "said enough to reach the target, told",
            "moves after the answer, told where letting it stand ends the game",
        ]
    missing = [what for what in wanted if not leaks.met.get(what)]
    assert not missing, f"no frame met the check of {missing} ({leaks.met})"
    assert leaks.met["open"] > 60, leaks.met
    told = {json.loads(f.text)["state"]["public"]["ply"] for f in frames if _is_state(f)}
    laid_on = [p for p, s in enumerate(states) if s.log[-1:] == ("no muggins",) and p not in told]
    assert laid_on, "no score said aloud was let stand by a card laid (or a count made) on it"


def test_the_check_finds_a_planted_leak(game: tuple[str, list[Frame], list[CribbageState]]) -> None:
    """The checks themselves: frames made to tell a count's worth, one way each, are each caught; and a
    frame that leaves out an answered count's points."""
    _, frames, states = game
    told = {json.loads(f.text)["state"]["public"]["ply"] for f in frames if _is_state(f)}
    seated = next(
        f for f in frames if f.seat is not None and _open(f, states) and _pegged(f, states) > 0 and _ply(f) - 1 in told
    )
    closed = next(f for f in frames if _answered_in_story(f, states))
    status = next(f for f in frames if json.loads(f.text)["type"] == "table" and _status_open(f, states))

    def caught(frame: Frame, change: Any) -> list[str]:
        """What the check finds in `frame` changed by `change`, the frames before it read first (as sent)."""
        leaks = OpenCallLeaks(states)
        for before in frames[: frames.index(frame)]:
            leaks.check(before)
        assert leaks.found == []
        message = json.loads(frame.text)
        change(message)
        leaks.check(Frame(frame.seat, json.dumps(message)))
        return leaks.found

    def state_of(message: dict[str, Any]) -> CribbageState:
        return states[message["state"]["public"]["ply"]]

    def told_scores(message: dict[str, Any]) -> None:
        message["state"]["public"]["scores"] = list(state_of(message).scores)

    def told_view_scores(message: dict[str, Any]) -> None:
        message["state"]["view"]["scores"] = list(state_of(message).scores)

    def told_points(message: dict[str, Any]) -> None:
        claim = state_of(message).claim
        assert claim is not None
        message["state"]["public"]["story"][-1]["events"][0]["points"] = claim.pegged

    def told_view_event(message: dict[str, Any]) -> None:
        claim = state_of(message).claim
        assert claim is not None
        event = claim.event
        told = {"player": event.player, "points": event.points, "family": "event", "kind": str(event.kind)}
        message["state"]["view"]["events"] = [{**told, "cards": [str(c) for c in event.cards], "words": event.words}]

    def moved_back_peg(message: dict[str, Any]) -> None:
        state = state_of(message)
        assert state.claim is not None
        message["state"]["public"]["previous"][state.side_of(state.claim.counter)] += 1

    def left_out(message: dict[str, Any]) -> None:
        for entry in message["state"]["public"]["story"]:
            for event in entry["events"]:
                if event["kind"] in SAID:
                    event["points"] = None

    def status_scores(message: dict[str, Any]) -> None:
        state = states[message["table"]["turns"]]
        message["table"]["scores"] = [state.scores[state.side_of(seat)] for seat in range(state.players)]

    def nothing_after(message: dict[str, Any]) -> None:
        message["state"]["after_answer"] = []  # as if letting the count stand ended the game

    assert caught(seated, lambda m: None) == [] and caught(closed, lambda m: None) == []
    for change in (told_scores, told_view_scores, told_points, told_view_event, moved_back_peg):
        assert caught(seated, change), change.__name__
    assert caught(closed, left_out)
    assert caught(status, lambda m: None) == [] and caught(status, status_scores)
    answering = next(f for f in frames if _is_state(f) and json.loads(f.text)["state"].get("after_answer"))
    assert caught(answering, lambda m: None) == [] and caught(answering, nothing_after)


def test_the_check_finds_a_game_ended_before_the_answer(game: tuple[str, list[Frame], list[CribbageState]]) -> None:
    """The same moves under the end of the records of before (a count that reached the target ended the
    game at once): the check of the windows finds that count's missing window, in the game that met one."""
    _, _, states = game
    leaks = OpenCallLeaks(before_the_answer(states))
    leaks.check_windows()
    reached = [s for s in states if s.claim is not None and s.scores[s.side_of(s.claim.counter)] >= s.options.target]
    if reached:
        assert [f for f in leaks.found if "opened no window" in f] == leaks.found != []
    else:  # no count reached the target: the game was played alike
        assert leaks.found == [] and (leaks.states[-1].log, leaks.states[-1].outcome) == (
            states[-1].log,
            states[-1].outcome,
        )


def before_the_answer(states: list[CribbageState]) -> list[CribbageState]:
    """The states of the moves of `states` under `end_on_answer` off, up to the end that rule comes to."""
    first = states[0]
    replayed_before = [new_game(first.seed, first.names, replace(first.options, end_on_answer=False))]
    for text in states[-1].log:
        if replayed_before[-1].is_over:
            break
        replayed_before.append(replayed_before[-1].apply(parse_move(text)))
    return replayed_before


def _open(frame: Frame, states: list[CribbageState]) -> bool:
    message = json.loads(frame.text)
    return message["type"] == "state" and "view" in message["state"] and _claim(message, states) is not None


def _ply(frame: Frame) -> int:
    return int(json.loads(frame.text)["state"]["public"]["ply"])


def _claim(message: dict[str, Any], states: list[CribbageState]) -> Any:
    return states[message["state"]["public"]["ply"]].claim


def _pegged(frame: Frame, states: list[CribbageState]) -> int:
    claim = _claim(json.loads(frame.text), states)
    return 0 if claim is None else int(claim.pegged)


def _is_state(frame: Frame) -> bool:
    message = json.loads(frame.text)
    return bool(message["type"] == "state" and "public" in message["state"])


def _answered_in_story(frame: Frame, states: list[CribbageState]) -> bool:
    """A state frame whose story holds a count said aloud, answered, that pegged something."""
    if not _is_state(frame):
        return False
    story = json.loads(frame.text)["state"]["public"]["story"]
    return any(e["kind"] in SAID and e["points"] for entry in story for e in entry["events"])


def _status_open(frame: Frame, states: list[CribbageState]) -> bool:
    state = states[json.loads(frame.text)["table"]["turns"]]
    return state.claim is not None and state.claim.pegged > 0


# --- take-backs (issue 44, defect 10) ---

#: How often a seat bot asks to take back its last decision when its state says it may.
ASK_SHARE = 0.3
#: How often it agrees when another asks.
YES_SHARE = 0.7
#: Seconds it thinks before a move (time for the request of the seat that moved before to come).
THINK = 0.04


class TakingBack(SeatBot):
    """A seat bot that now and then asks to take back its last decision (when its state says it may), and
    answers another's request yes or no by chance; otherwise it plays as any seat bot."""

    def __init__(self, link: Link, code: str, level: str, seed: int | None = None) -> None:
        super().__init__(link, code, level, seed)
        self.asked = self.agreed = self.refused = 0

    def step(self, state: dict[str, Any]) -> None:
        self.state = state
        if state.get("phase") != "playing" or state.get("you") != self.seat:
            return
        ply, asked = state["ply"], state.get("undo")
        rng = self._rng(ply, "undo")
        try:
            if isinstance(asked, dict) and asked.get("ended") is None and self.seat in (asked.get("waiting") or ()):
                yes = rng.random() < YES_SHARE
                answer = self.link.request("undo_answer", code=self.code, ply=asked["ply"], yes=yes)
                self.agreed, self.refused = self.agreed + yes, self.refused + (not yes)
            elif state.get("can_undo") and rng.random() < ASK_SHARE:
                answer = self.link.request("undo", code=self.code, ply=ply)
                self.asked += 1
            else:
                newer = self._thought(state)
                if newer is not None:  # a request sent while it thought: answered first
                    self.step(newer)
                else:
                    super().step(state)
                return
        except (Refused, NotConnected):
            return  # the table moved on meanwhile: its next state says what now
        if answer.get("type") == "state":
            self.step(answer["state"])

    def _thought(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """Before its move, a moment to think, as a person takes one (a request to take back the move before
        is heard then, as a person would see it): the newest state of the table that came meanwhile, if any."""
        if state.get("to_move") != self.seat:
            return None
        newer = None
        message = self.link.next_message(timeout=THINK)
        while message is not None:
            if message["type"] == "state" and message["code"] == self.code and message["state"]["ply"] >= state["ply"]:
                newer = message["state"]
            message = self.link.next_message(timeout=0)
        return newer


@pytest.mark.parametrize(
    ("rules", "seed"),
    [("muggins=on,play_muggins=on", 7_070), ("muggins=on,play_muggins=on,variant=three-player", 3_131)],
    ids=["two people", "three people"],
)
def test_no_frame_around_take_backs_tells_a_card_or_what_a_count_makes(rules: str, seed: int) -> None:
    """Whole games of miscounting seat bots that often ask to take back their moves, and agree or refuse:
    every frame sent, to each seat and to the spectator, as the game stood when it was sent (before a
    take-back, the way it went then), names no card its seat may not see and tells nothing of a count open
    to a call; the frames sent while a request waits and after a move went back among them."""
    seen: dict[str, Any] = {}
    frames, states, outcomes = play_watched(rules, seed, TakingBack, seen)
    assert len(outcomes) == states[-1].players and all(o.over for o in outcomes) and states[-1].is_over
    bots: list[TakingBack] = seen["bots"]
    assert seen["undos"] >= 3 and sum(b.refused for b in bots) >= 1, (seen["undos"], [vars(b) for b in bots])
    hidden: HiddenCards = seen["hidden"]
    assert hidden.found == [], hidden.found[:3]
    assert all(hidden.checked.get(seat, 0) > 50 for seat in (*range(states[-1].players), None)), hidden.checked
    leaks = OpenCallLeaks(states)
    for frame in frames:
        leaks.check(frame)
    leaks.check_windows()
    assert not leaks.found, sorted(set(leaks.found))[:10]
    assert leaks.met.get("a way the game did not go on", 0) >= 2, leaks.met
    assert leaks.met.get("a frame of a way the game did not go on", 0) > 10, leaks.met
    for what in ("open, to the counter", "open, to the answerer", "open, to a spectator", "story, answered"):
        assert leaks.met.get(what), f"no frame met the check of {what}"
    waiting = [f for f in frames if _is_state(f) and (json.loads(f.text)["state"].get("undo") or {}).get("waiting")]
    assert {f.seat for f in waiting} == {*range(states[-1].players), None}  # every seat, and the spectator
    made = [
        f for f in frames if _is_state(f) and (json.loads(f.text)["state"].get("undo") or {}).get("ended") == "made"
    ]
    assert made, "no frame told of a move taken back"


def test_the_check_follows_the_way_the_game_went_when_a_frame_was_sent() -> None:
    """A frame from before a take-back is checked against the game as it was then: the same frame read as
    the game that went on instead would be wrong (the check would find what is not there)."""
    base = new_game(11, ("Ann", "Ben"), read_rules("muggins=on,play_muggins=on"))
    went = [base]
    other = [base]
    for state in (went, other):
        while state[-1].phase.value == "discard":
            legal = state[-1].legal_actions()
            state.append(state[-1].apply(legal[0] if state is went else legal[-1]))
    leaks = OpenCallLeaks(went)
    assert leaks._way(other[-1].log) is not went and leaks._way(other[-1].log)[-1] == other[-1]
    assert leaks._way(went[-1].log) is went and leaks._way(None) is went
    assert leaks.met == {"a way the game did not go on": 1}


def test_the_card_check_finds_the_askers_card_planted_in_the_others_frame_after_a_take_back() -> None:
    """The check of hidden cards on frames of a take-back: Ann's crib cards laid, asked back and given
    back by Ben's yes: neither Ben's frame nor the spectator's names a card of her hand (which is hers
    again), and one of them planted in his frame is found."""
    from cribtiles.server.rooms import Room, Settings, read_places

    from .test_cribbage_online import leaks

    room, _ = Room.new("ABCDEF", "cribbage", read_places("cribbage", [{"kind": "open"}] * 2), Settings(), 5, 0.0)
    room.take("Ann", 0.0)
    room.take("Ben", 0.0)
    game = room.game
    assert isinstance(game, CribbageGame) and game.to_move == 0
    laid = str(game.table.view(0).legal[0])
    assert room.act(0, {"type": "act", "ply": room.ply, "move": laid}, 0.0)
    assert room.act(0, {"type": "undo", "ply": room.ply}, 0.0)
    assert room.act(1, {"type": "undo_answer", "ply": room.ply, "yes": True}, 0.0)
    assert game.table.undos == 1 and not game.table.state.discarded[0]
    for seat in (1, None):
        frame = json.dumps({"type": "state", "code": room.code, "state": room.shown(seat, 0.0)})
        assert leaks(frame, game.table, seat) == []
    card = game.table.state.hands[0][0]
    planted = json.dumps({"type": "state", "code": room.code, "state": room.shown(1, 0.0), "x": str(card)})
    assert leaks(planted, game.table, 1) == [f"the card {card}"]
