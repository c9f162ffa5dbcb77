"""Taking back a turn at the table (the Undo button, U, Ctrl+Z): the person's last turn and the bots'
replies after it, every controller back to the game as it stands again, and what was taken back told.
Where other people sit elsewhere (a table online) it is asked of them: the request waits for every one
to agree, and the window shows it ("Ann asks to take back a move: Allow / Refuse", or to the one who
asked, "Waiting for Ben"), answered with the Play and Pass buttons' places, Y and N.
"""

from __future__ import annotations

from collections.abc import Sequence

from cribtiles.rules.errors import IllegalMove

from .game_parts import Parts
from .game_words import sentence, took_back_words
from .snapshot import UndoQuestion


def _asks_others(scene: Parts) -> bool:
    """People this window does not play sit at the table (elsewhere): a take-back is asked of them."""
    session = scene.session
    return bool(session.mine) and any(s.is_person and p not in session.mine for p, s in enumerate(session.seats))


def undo_shown(scene: Parts) -> bool:
    """The Undo button shows when the setting allows it and there is someone to take a turn back from:
    a bot's reply, or people elsewhere who agree to it (people sharing this window never take back each
    other's turns: hot seat has no Undo)."""
    session = scene.session
    return scene.app.prefs.undo and (any(s.is_bot for s in session.seats) or _asks_others(scene))


def can_undo(scene: Parts) -> bool:
    """... and the person shown may take back their last turn now."""
    return undo_shown(scene) and scene.curtain is None and scene.session.can_undo(scene.human)


def take_back(scene: Parts) -> None:
    """Take back the person's last turn and the bots' replies after it; a bot thinking is stopped,
    the game saved, and a message says what was taken back (or, in words, why nothing may be)."""
    session, human = scene.session, scene.human
    if not scene.app.prefs.undo:
        scene.toast("Undo is off in the settings.")
        return
    if not undo_shown(scene):
        scene.toast("Plays are taken back only in a game against bots.")
        return
    asked = session.pending_undo
    if asked is not None:  # one request at a time
        names = scene.state.names
        if asked.asker == human:
            scene.toast(f"Still waiting for {_and(names, asked.waiting)} to answer (N withdraws the request).")
        else:
            scene.toast(f"{names[asked.asker]} is asking to take back a move: answer first.")
        return
    try:
        taken = session.undo_turns(human)
    except IllegalMove as e:
        scene.toast(f"{str(e)[:1].upper()}{str(e)[1:]}.")
        return
    on_its_way = scene.state.current if scene.anims.pending is not None else None
    try:
        taken = session.undo_request(human)  # a bot thinking about a reply that will never be made stops
    except IllegalMove as e:  # a table elsewhere moved on, or could not be reached
        scene.toast(sentence(str(e)))
        return
    if not taken:  # asked of the others: the turns go back once every one has agreed
        waiting = session.pending_undo
        who = "the others" if waiting is None else _and(scene.state.names, waiting.waiting)
        scene.toast(f"Asked {who} to let you take back your move.")
        scene.app.sounds.click()
        return
    scene.coaching.taken_back(human)
    scene.others.thinking_since = None
    names = scene.state.names
    whose = "your" if scene.name_of(human) == "You" else f"{names[human]}'s"
    scene.toast(took_back_words(taken, whose, names, None if on_its_way is None else names[on_its_way]))
    went_back(scene)
    scene.saved()
    scene.app.sounds.click()


def went_back(scene: Parts) -> None:
    """Turns were taken back (here, or by a player at a table elsewhere): every controller goes back to
    the game as it stands again."""
    scene.turn_list.past, scene.acts.confirming, scene.ended, scene.keys.selected = None, None, False, 0
    scene.joker.cancel()
    scene.anims.taken_back()
    scene.shown.taken_back()
    scene.hand.reset(scene.session.view(scene.human).rack)
    scene.refresh_preview()


def _and(names: Sequence[str], seats: Sequence[int]) -> str:
    """ "Ben", "Ben and Cat", "Ben, Cat and Dan" (the others, with nobody named: "the others")."""
    named = [names[p] for p in seats if 0 <= p < len(names)]
    if not named:
        return "the others"
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def undo_question(scene: Parts) -> UndoQuestion | None:
    """A request to take back a move as this window shows it: to a person asked, the question with
    Allow and Refuse; to the one who asked, whom it waits for, with Withdraw; to anyone else, both."""
    session = scene.session
    asked = session.pending_undo
    if asked is None or scene.curtain is not None:
        return None
    names = scene.state.names
    asker = names[asked.asker] if 0 <= asked.asker < len(names) else "Someone"
    waiting = _and(names, asked.waiting)
    if asked.asker in session.mine:
        text = f"Waiting for {waiting} to let you take back your move."
        return UndoQuestion(text, "N withdraws it", None, "Withdraw")
    if _answering(scene) is not None:
        agreed = f" ({_and(names, asked.agreed)} agreed)" if asked.agreed else ""
        text = f"{asker} asks to take back a move{agreed}."
        return UndoQuestion(text, "Y or Allow lets them; N or Refuse says no", "Allow", "Refuse")
    return UndoQuestion(f"{asker} asks to take back a move: waiting for {waiting}.")


def _answering(scene: Parts) -> int | None:
    """The seat of this window that the request waits for (the asker's own, to withdraw it, apart)."""
    asked = scene.session.pending_undo
    if asked is None:
        return None
    return next((p for p in scene.session.mine if p in asked.waiting), None)


def answer_undo(scene: Parts, yes: bool) -> bool:
    """The person shown answers the request waiting: yes allows it (the last yes takes the move back),
    no refuses it, or withdraws the asker's own. True when there was one for this window to answer."""
    session = scene.session
    asked = session.pending_undo
    if asked is None or scene.curtain is not None:
        return False
    seat = asked.asker if asked.asker in session.mine and not yes else _answering(scene)
    if seat is None:
        return False
    names = scene.state.names
    try:
        session.answer_undo(seat, yes)
    except IllegalMove as e:  # answered meanwhile, or the table could not be reached
        scene.toast(sentence(str(e)))
        return True
    if seat == asked.asker:
        scene.toast("You no longer ask to take back your move.")
    elif yes:
        scene.toast(f"You let {names[asked.asker]} take back a move.")
    else:
        scene.toast(f"You said no: {names[asked.asker]}'s move stands.")
    scene.app.sounds.click()
    return True
