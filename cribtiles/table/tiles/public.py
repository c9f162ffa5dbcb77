"""What everyone at a tile table may see of a round and a match while it is played (`PublicState`,
`PublicMatch`): no rack but at the end, no bag's order, no seed, no worth of a play that may still be
called Joker on (issue 43); a seat's own view is built from it and that seat's rack. Both go over a wire
as JSON (`public_json`, `public_from_json`) (issue 30)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cribtiles.rules.board import Board
from cribtiles.rules.game import (
    EndReason,
    GameState,
    JokerCall,
    Outcome,
    PlayerView,
    Turn,
    call_window_open,
    shown_worths,
)
from cribtiles.rules.match import Match, Rounds
from cribtiles.rules.moves import Exchange, Move, Play, board_text, parse_move
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scorer import Scorer
from cribtiles.rules.tiles import Tile, format_tiles, full_set, parse_tile, rack_counter

HIDDEN_EXCHANGE = "exchange ?"  # another seat's exchange on the wire: how many tiles went back is public


@dataclass(frozen=True)
class PublicState:
    """A round as the whole table sees it: the board, scores, whose turn, the bags' and racks' sizes,
    the turns (another seat's exchange without its tiles; the last play's worth withheld, None, while
    "Joker" may still be called on it), the Joker calls, and once the round is over its end and the
    racks left (`end_racks`, counted off then)."""

    options: RuleOptions
    names: tuple[str, ...]
    board: Board
    scores: tuple[int, ...]
    current: int
    starter: int
    start_draws: tuple[tuple[tuple[int, Tile], ...], ...]
    turns: tuple[Turn, ...]
    calls: tuple[tuple[int, JokerCall], ...]
    bag_sizes: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    outcome: Outcome | None = None
    end_racks: tuple[tuple[Tile, ...], ...] = ()  # the racks once the round is over, () before
    # online: the turns a stand-in of the server's made for a person, by turn number, and why: "timer"
    # (their time for the move ran out) or "away" (away longer than the table allows)
    stand_ins: tuple[tuple[int, str], ...] = ()

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    @property
    def last_turn(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    @property
    def worth_withheld(self) -> bool:
        """Whether the last play's worth is kept back: "Joker" may still be called on it. It comes with
        the state that closes the window (a call, the next action, the end of the round)."""
        last = self.last_turn
        return last is not None and last.true_points is None

    @property
    def scorer(self) -> Scorer:
        """How a play scores at this table (`GameState.scorer`): what previews and counts score by."""
        return Scorer.of(self.options)

    def bag_of(self, player: int) -> int:
        return player if self.options.solitaire else 0

    def bag_size(self, player: int | None = None) -> int:
        """Tiles left in the player's bag (Solitaire: the side's own), or in all bags."""
        return sum(self.bag_sizes) if player is None else self.bag_sizes[self.bag_of(player)]

    def final_scores(self) -> tuple[int, ...]:
        return self.outcome.final_scores if self.outcome else self.scores

    def stand_in(self, turn: int) -> str | None:
        """Why the server's stand-in made turn number `turn` for its player ("timer", "away"), or None: the
        player made it."""
        return next((why for t, why in self.stand_ins if t == turn), None)


@dataclass(frozen=True)
class PublicMatch(Rounds[PublicState]):
    """A match as the whole table sees it: its rules, the rounds finished, the round in play; its totals,
    Servant and winners are `Match`'s (`Rounds`)."""

    options: RuleOptions
    names: tuple[str, ...]
    finished: tuple[PublicState, ...]
    game: PublicState


def _shown_turn(turn: Turn, shown: Collection[int], over: bool) -> Turn:
    if isinstance(turn.move, Exchange) and turn.player not in shown and not over:
        return replace(turn, move=Exchange(()))
    return turn


def public_of(state: GameState, shown: Collection[int] = (), stand_ins: Mapping[int, str] | None = None) -> PublicState:
    """The public part of `state`; the exchanges of the seats `shown` (this driver's) keep their tiles,
    and every one does once the round is over. While "Joker" may still be called on the last play its
    worth is withheld, from `shown` too: a seat that may call must count it itself."""
    turns = tuple(_shown_turn(t, shown, state.is_over) for t in state.turns)
    return PublicState(
        options=state.options,
        names=state.names,
        board=state.board,
        scores=state.scores,
        current=state.current,
        starter=state.starter,
        start_draws=state.start_draws,
        turns=shown_worths(turns, call_window_open(state.options, state.turns, state.calls, state.is_over)),
        calls=state.calls,
        bag_sizes=tuple(len(b) for b in state.bags),
        rack_sizes=tuple(len(r) for r in state.racks),
        outcome=state.outcome,
        end_racks=state.racks if state.is_over else (),
        stand_ins=tuple(sorted((stand_ins or {}).items())),
    )


def public_match(
    match: Match, shown: Collection[int] = (), stand_ins: Mapping[tuple[int, int], str] | None = None
) -> PublicMatch:
    """The public match; `stand_ins`: the turns (round, turn) a stand-in made online, and why."""
    made = stand_ins or {}

    def of_round(r: int) -> dict[int, str]:
        return {t: why for (at, t), why in made.items() if at == r}

    finished = tuple(public_of(g, stand_ins=of_round(r)) for r, g in enumerate(match.finished))
    game = public_of(match.game, shown, of_round(len(match.finished)))
    return PublicMatch(match.options, match.names, finished, game)


def player_view(public: PublicState, seat: int, rack: tuple[Tile, ...]) -> PlayerView:
    """What `seat` sees (as `GameState.view`): the public round as shown to it, and its own rack."""
    pool = Counter(full_set()) - rack_counter(t for _, t in public.board.tiles()) - rack_counter(rack)
    turns = tuple(_shown_turn(t, (seat,), public.is_over) for t in public.turns)
    window = call_window_open(public.options, turns, public.calls, public.is_over)
    return PlayerView(
        player=seat,
        options=public.options,
        names=public.names,
        board=public.board,
        rack=rack,
        scores=public.scores,
        current=-1 if public.is_over else public.current,
        bag_sizes=public.bag_sizes,
        rack_sizes=public.rack_sizes,
        unseen=tuple(sorted(pool.elements())),
        turns=shown_worths(turns, window),  # already so from `public_of`; kept so whatever built it
        outcome=public.outcome,
        starter=public.starter,
        calls=public.calls,
    )


# --- over a wire ---


def _move_text(move: Move) -> str:
    return HIDDEN_EXCHANGE if isinstance(move, Exchange) and not move.tiles else str(move)


def _move_of(text: str) -> Move:
    return Exchange(()) if text == HIDDEN_EXCHANGE else parse_move(text)


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in text.split())


def _turn_json(turn: Turn, stand_in: str | None) -> dict[str, Any]:
    """A turn with its fields named; `worth` is null while "Joker" may still be called on the play;
    `stand_in` says why the server's stand-in made it (null: its player did)."""
    return {
        "player": turn.player,
        "move": _move_text(turn.move),
        "declared": turn.points,
        "worth": turn.true_points,
        "drawn": turn.drawn,
        "stuck": turn.stuck,
        "stand_in": stand_in,
    }


def _turn_of(data: Mapping[str, Any]) -> Turn:
    move = _move_of(data["move"])
    return Turn(data["player"], move, data["declared"], data["worth"], data["drawn"], data["stuck"])


def _call_json(at_turn: int, call: JokerCall) -> dict[str, Any]:
    """A Joker call: `at_turn`, the number of turns made when it was called (the play called on is the
    last of them); `points`, what it gave its caller; `taken`, what it took back from the play's player."""
    return {"at_turn": at_turn, "caller": call.caller, "points": call.points, "taken": call.taken}


def _call_of(data: Mapping[str, Any]) -> tuple[int, JokerCall]:
    return data["at_turn"], JokerCall(data["caller"], data["points"], data["taken"])


def public_json(public: PublicState) -> dict[str, Any]:
    """`public` as JSON values (what a table sends every seat)."""
    outcome = public.outcome
    return {
        "options": public.options.as_dict(),
        "names": list(public.names),
        "board": board_text(public.board),
        "scores": list(public.scores),
        "current": public.current,
        "starter": public.starter,
        "start_draws": [[[p, str(t)] for p, t in draws] for draws in public.start_draws],
        "turns": [_turn_json(t, public.stand_in(n)) for n, t in enumerate(public.turns)],
        "calls": [_call_json(n, c) for n, c in public.calls],
        "bag_sizes": list(public.bag_sizes),
        "rack_sizes": list(public.rack_sizes),
        "outcome": None
        if outcome is None
        else {
            "reason": outcome.reason.value,
            "went_out": outcome.went_out,
            "deductions": list(outcome.deductions),
            "final_scores": list(outcome.final_scores),
            "winners": list(outcome.winners),
        },
        "end_racks": [format_tiles(r) for r in public.end_racks],
    }


def public_from_json(data: Mapping[str, Any]) -> PublicState:
    board_play = parse_move(data["board"]) if data["board"] else Play(())
    assert isinstance(board_play, Play)
    told = data["outcome"]
    outcome = (
        None
        if told is None
        else Outcome(
            EndReason(told["reason"]),
            told["went_out"],
            tuple(told["deductions"]),
            tuple(told["final_scores"]),
            tuple(told["winners"]),
        )
    )
    return PublicState(
        options=RuleOptions().with_text(",".join(f"{k}={v}" for k, v in data["options"].items())),
        names=tuple(data["names"]),
        board=Board.empty().place(board_play.placements),
        scores=tuple(data["scores"]),
        current=data["current"],
        starter=data["starter"],
        start_draws=tuple(tuple((p, parse_tile(t)) for p, t in draws) for draws in data["start_draws"]),
        turns=tuple(_turn_of(t) for t in data["turns"]),
        calls=tuple(_call_of(c) for c in data["calls"]),
        bag_sizes=tuple(data["bag_sizes"]),
        rack_sizes=tuple(data["rack_sizes"]),
        outcome=outcome,
        end_racks=tuple(_tiles(r) for r in data["end_racks"]),
        stand_ins=tuple((n, str(t["stand_in"])) for n, t in enumerate(data["turns"]) if t.get("stand_in")),
    )


def match_json(match: PublicMatch) -> dict[str, Any]:
    return {
        "options": match.options.as_dict(),
        "names": list(match.names),
        "finished": [public_json(g) for g in match.finished],
        "game": public_json(match.game),
    }


def match_from_json(data: Mapping[str, Any]) -> PublicMatch:
    return PublicMatch(
        RuleOptions().with_text(",".join(f"{k}={v}" for k, v in data["options"].items())),
        tuple(data["names"]),
        tuple(public_from_json(g) for g in data["finished"]),
        public_from_json(data["game"]),
    )
