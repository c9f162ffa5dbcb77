"""Classic cribbage's tutorial in the window: the cribbage table playing the scripted first deal of
`cribtiles.table.cribbage.tutorial`, the step's words at the top of the side panel, the bot's moves from
the script, your moves held to the one each step asks for. Nothing is saved or recorded: your own game
of cribbage and the history stay as they were. Escape leaves at any time.
"""

from __future__ import annotations

from typing import Any

from cribtiles.cribbage.moves import Move
from cribtiles.table.cribbage.session import BotThinker, CribbageSession
from cribtiles.table.cribbage.table import BotRequest
from cribtiles.table.cribbage.tutorial import scripted, step_at, tutorial_table, why_not

from ..paint import CREAM, DIM, GOLD, wrap
from .layout import ButtonKind
from .paint import InfoLine, line_rects
from .scene import CribbageScene, Host
from .table_state import Plan

#: What the hint key says in the tutorial.
NO_COACH = "The tutorial tells you each step itself: the coach (I) helps in your own games."


class KeepsNoCribbage:
    """The keeper of the tutorial's table: its moves are never saved and its game never recorded; the
    rest (preferences, the history's reading) is the window's keeper's."""

    def __init__(self, outer: Any) -> None:
        self.outer = outer
        self.skipped = 0  # saves and records asked for and not made

    def save(self, table: object) -> bool:
        self.skipped += 1
        return False

    def record(self, game: object) -> None:
        self.skipped += 1

    def __getattr__(self, name: str) -> object:
        return getattr(self.outer, name)


class AsideHost:
    """The window as the tutorial's table sees it: the same screen, preferences and sounds, a keeper that
    keeps nothing."""

    def __init__(self, outer: Host) -> None:
        self.outer = outer
        self.keeper = KeepsNoCribbage(outer.keeper)

    def __getattr__(self, name: str) -> object:
        return getattr(self.outer, name)


def scripted_choice(request: BotRequest) -> Move:
    """The bot's move: the script's, at the request's ply (its first legal move past the script's end)."""
    move = scripted(request.ply)
    return move if move is not None else request.view.legal[0]


class CribbageTutorialScene(CribbageScene):
    """The guided deal: the cribbage table with the tutorial's words and its one move at a time."""

    takes_back = False  # the script goes one way
    #: The coach's box would cover the tutorial's words, and the script already says what to do: the hint
    #: key is refused in words.
    coach_off = NO_COACH

    def __init__(self, app: Host) -> None:
        self.aside = AsideHost(app)
        session = CribbageSession(tutorial_table(), BotThinker(scripted_choice), self.aside.keeper)
        super().__init__(self.aside, session)  # type: ignore[arg-type]
        self.outer = app

    @property
    def over(self) -> bool:
        """The scripted deal is done (the crib counted): only the last words and Escape are left."""
        return scripted(self.pub.ply) is None

    # --- your moves, held to the script ---

    def act(self, move: Move) -> bool:
        why = why_not(self.pub.ply, move)
        if why:
            self.say(why)
            return False
        return super().act(move)

    def go_on(self) -> None:
        if self.over:
            self.outer.close_top()  # the show seen: no next deal, the tutorial ends
            return
        super().go_on()

    def button_plan(self) -> Plan:
        if self.over:
            return (ButtonKind.GO_ON,), {ButtonKind.GO_ON: "Done"}, {ButtonKind.GO_ON}
        return super().button_plan()

    def new_game(self) -> None:
        self.say("This is the tutorial: Escape leaves it, and Cribbage on the title screen starts a game.")

    @property
    def reviewed(self) -> bool:
        return False  # a scripted deal, never a game to review

    # --- the words ---

    def lines(self) -> tuple[InfoLine, ...]:
        """The step's title and words first, wrapped to the panel, then the table's own lines."""
        step = step_at(self.pub.ply)
        lay = self.layout
        size = max(13, lay.text - 2)
        width = lay.info[2] - 2 * max(8, lay.margin // 2 + 2)
        words = [InfoLine(f"Tutorial: {step.title}", "", GOLD, 2)]
        words += [InfoLine(line, "", CREAM) for line in wrap(step.text, size, width)]
        words.append(InfoLine("", "", DIM, -2))
        rest = super().lines()
        fit = len(line_rects(lay, (*words, *rest)))
        return (*words, *rest)[: max(fit, len(words))]

    def prompt(self) -> tuple[str, bool]:
        if self.message:
            return self.message, self.message_error
        if self.over:
            return "The tutorial's deal is over: Enter, Done or Escape leaves it.", False
        return super().prompt()


def open_cribbage_tutorial(app: Host) -> None:
    """The guided first deal over whatever the window shows; Escape comes back to it."""
    app.push(CribbageTutorialScene(app))
