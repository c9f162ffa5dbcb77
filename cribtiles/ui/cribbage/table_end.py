"""The cribbage table's controllers for what ends or undoes play besides the rules: resigning (Ctrl+R and
its question), playing a table online again (its keys at the end), a table online aborted or played again,
and taking back a move (U at one window; online, a request the others answer: Y or Allow, N or Refuse, N
withdraws one's own); and the end card's keys and buttons, a table watched's included. The scene hands
each its keys and buttons; they speak through the scene's prompt."""

from __future__ import annotations

from typing import Protocol

import pygame

from cribtiles.cribbage.moves import Count, CribbageError, Discard, Move, Muggins, PlayCard
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.again import NextTable
from cribtiles.table.cribbage.public import CribbagePublic
from cribtiles.table.cribbage.session import CribbageDriver
from cribtiles.table.session import UndoAsked
from cribtiles.table.settings import Preferences

from ..again import press_again
from ..geometry import Point, contains
from ..sound import Sounds
from ..tiles.game_words import sentence
from .layout import ButtonKind, CribLayout


class Window(Protocol):
    """What these controllers ask of the window."""

    prefs: Preferences
    sounds: Sounds

    def close_top(self) -> None: ...

    def open_next_table(self, table: NextTable) -> None: ...

    def leave_table(self, session: CribbageDriver, words: str) -> None: ...

    def watch_table(self, server: str, code: str) -> None: ...


class Table(Protocol):
    """What these controllers ask of the cribbage scene."""

    session: CribbageDriver
    resigning: bool
    takes_back: bool
    watching: bool

    @property
    def app(self) -> Window: ...

    @property
    def pub(self) -> CribbagePublic: ...

    @property
    def person(self) -> int: ...

    @property
    def ended(self) -> bool: ...

    @property
    def reviewed(self) -> bool: ...

    @property
    def layout(self) -> CribLayout: ...

    def say(self, text: str, error: bool = True) -> None: ...

    def new_game(self) -> None: ...

    def review(self) -> None: ...

    def refresh(self) -> None: ...

    def resync(self) -> None: ...


class Ending:
    """Resigning, playing a finished table online again, a table online aborted or played again, and
    the end card's keys and buttons (a table watched: on to watch it played again)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def ask_resign(self) -> None:
        """Ctrl+R: the question before resigning (a game over has nothing to resign)."""
        if self.table.pub.is_over:
            self.table.say("The game is over: there is nothing to resign.")
            return
        self.table.resigning = True

    def resign_key(self, k: int) -> None:
        """The question before resigning: Y or Enter gives the game up, N or Escape goes back to it."""
        table = self.table
        if k not in (pygame.K_y, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n, pygame.K_ESCAPE):
            return
        table.resigning = False
        if k in (pygame.K_n, pygame.K_ESCAPE):
            table.say("", error=False)
            return
        try:
            table.session.resign(table.person)
        except IllegalMove as e:
            table.say(sentence(str(e)))
            return
        table.refresh()
        table.say("You resigned.", error=False)

    def again_key(self, k: int) -> bool:
        """At the end of a table online: Enter, N (asks) and Y play again, N answers no, L leaves."""
        session = self.table.session
        if k == pygame.K_l:
            self.table.app.leave_table(session, "You left the table: it is off Your online games.")
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y) or (k == pygame.K_n and session.pending_again is None):
            self.again(True)
            return True
        if k == pygame.K_n:
            self.again(False)
            return True
        return False

    def again(self, yes: bool) -> None:
        """Play again (the end card's button, Enter, Y), or N: asked of the others, withdrawn or answered."""
        table = self.table
        words = press_again(table.session, table.pub.names, table.person, yes)
        if words:
            table.say(words, error=words.endswith("not played again.") and not yes)

    def end_key(self, k: int) -> None:
        """At the end card: Enter or N a new game, V the review (where offered), Escape the title."""
        table = self.table
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
            table.new_game()
        elif k == pygame.K_v and table.reviewed:
            table.review()
        elif k == pygame.K_ESCAPE:
            table.app.close_top()

    def end_click(self, point: Point) -> None:
        """A click on the end card's buttons: New game, Review, or the title."""
        table = self.table
        for kind, rect in table.layout.end_buttons(table.reviewed).items():
            if contains(rect, point):
                {ButtonKind.NEW_GAME: table.new_game, ButtonKind.REVIEW: table.review}.get(kind, table.app.close_top)()

    def watch_key(self, k: int) -> None:
        """A table watched has nothing to play: Escape goes back; once played again, Enter watches the new table."""
        if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.table.app.close_top()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.table.ended:
            self.watch_again()

    def watch_again(self) -> None:
        """A table watched was played again: watch the new one."""
        session = self.table.session
        again, where = session.played_again_at, session.where
        if again is not None and where is not None:
            self.table.app.watch_table(where[0], again)

    def table_gone(self) -> None:
        """A table online aborted (back to the title, told why), or played again (on to the new one)."""
        session, app = self.table.session, self.table.app
        if session.aborted:
            app.leave_table(session, "The table was aborted before its first move: it ends with no result.")
            return
        moving = session.next_table
        if moving is not None:
            app.open_next_table(moving)


class TakingBack:
    """Taking back a move: at one window at once (where the settings allow it); online, asked of the
    others at the table, and their answers to another's request."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def undo(self) -> None:
        """U (or Ctrl+Z): take back your last decision and the bot's replies after it (where the settings
        allow it and the table takes moves back), back to the game as you saw it then; said in words."""
        table = self.table
        if not table.takes_back:
            table.say("The tutorial's moves are not taken back: Escape leaves it.")
            return
        if not table.app.prefs.undo:
            table.say("Undo is off in the settings.")
            return
        asked = table.session.pending_undo
        if asked is not None:  # one request at a time
            if asked.asker == table.person:
                table.say(f"Still waiting for {self.named(asked.waiting)} to answer (N withdraws the request).")
            else:
                table.say(f"{capital(table.pub.called(asked.asker))} is asking to take back a move: answer first.")
            return
        try:
            taken = table.session.undo(table.person)
        except (CribbageError, IllegalMove) as e:
            table.say(sentence_of(str(e)))
            return
        if not taken:  # online, asked of the others: the move goes back once every one has agreed
            waiting = table.session.pending_undo
            who = "the others" if waiting is None else self.named(waiting.waiting)
            table.say(f"Asked {who} to let you take back your move.", error=False)
            table.app.sounds.click()
            return
        table.resync()
        pub = table.pub
        others = f"{pub.called(pub.bot)}'s" if pub.players == 2 else "the others'"
        table.say(took_back_words(taken, table.person, others), error=False)
        table.app.sounds.click()

    def asked(self) -> UndoAsked | None:
        """The request waiting that this window answers (it waits for you) or withdraws (yours)."""
        table = self.table
        if table.watching:
            return None
        asked = table.session.pending_undo
        if asked is None or (asked.asker != table.person and table.person not in asked.waiting):
            return None
        return asked

    def named(self, seats: tuple[int, ...]) -> str:
        """ "Ben", "Ben and Cy", "Ben, Cy and Di" (nobody named: "the others")."""
        pub = self.table.pub
        named = [pub.called(p) for p in seats if 0 <= p < len(pub.names)]
        if not named:
            return "the others"
        return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"

    def answer(self, yes: bool) -> None:
        """Y (or Allow) lets the asker take back their move, N (or Refuse) says no; the asker's N (or
        Withdraw) withdraws the request."""
        table = self.table
        asked = self.asked()
        if asked is None:
            return
        mine = asked.asker == table.person
        if mine and yes:
            table.say(f"Still waiting for {self.named(asked.waiting)} to answer (N withdraws the request).")
            return
        try:
            table.session.answer_undo(table.person, yes)
        except IllegalMove as e:  # answered meanwhile, or the table could not be reached
            table.say(sentence(str(e)))
            return
        asker = table.pub.called(asked.asker)
        if mine:
            table.say("You no longer ask to take back your move.", error=False)
        elif yes:
            table.say(f"You let {asker} take back a move.", error=False)
        else:
            table.say(f"You said no: {asker}'s move stands.", error=False)
        table.app.sounds.click()

    def question(self) -> str:
        """The request waiting, as the prompt asks it ("" when none waits)."""
        table = self.table
        asked = table.session.pending_undo
        if asked is None or table.watching:
            return ""
        waiting = self.named(asked.waiting)
        if asked.asker == table.person:
            return f"Waiting for {waiting} to let you take back your move: N or Withdraw withdraws it."
        asker = capital(table.pub.called(asked.asker))
        if table.person in asked.waiting:
            agreed = f" ({self.named(asked.agreed)} agreed)" if asked.agreed else ""
            return f"{asker} asks to take back a move{agreed}: Y or Allow lets them, N or Refuse says no."
        return f"{asker} asks to take back a move: waiting for {waiting}."


def took_back_words(taken: tuple[Move, ...], person: int, whose: str) -> str:
    """What an undo took back, in a sentence, `whose` the replies were ("the Medium bot's", "the others'"):
    "Took back your 7C and the Medium bot's reply."."""
    first = taken[0]
    if isinstance(first, Discard):
        what = f"your discard of {' and '.join(str(c) for c in first.cards)}"
    elif isinstance(first, PlayCard):
        what = f"your {first.card}"
    elif isinstance(first, Count):
        what = "your count"
    elif isinstance(first, Muggins):
        what = "your muggins call" if first.claim else "letting the count stand"
    else:
        what = "your go"
    replies = len(taken) - 1
    also = f" and {whose} repl{'ies' if replies > 1 else 'y'}" if replies else ""
    return f"Took back {what}{also}."


def sentence_of(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def capital(words: str) -> str:
    """`words` opening a sentence ("the Medium bot" -> "The Medium bot"; a name stays as it is)."""
    return words[:1].upper() + words[1:]
