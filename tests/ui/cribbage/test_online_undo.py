"""Taking back a move of online cribbage in the window, started as `cribtiles online play SERVER CODE` starts
it (its window headless, real events posted), against a real server on a loopback port, Ben at the other
seat over his own link: Ann's Undo asks Ben (Waiting for Ben, Withdraw) and his yes puts her crib cards
back in her hand; U asked again, his no leaves them laid and the Undo is gone; in the play Ben asks, and
Ann's Allow button lets his card go back, her N says no to the next; her Ctrl+Z once Ben has moved says
why nothing is taken back (issue 44, defect 10)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cribtiles.online.client import Link
from tests.server.players import Player
from tests.server.running import running_server

PATIENCE = 30.0  # seconds any wait may take before the test fails (never a timing assertion)


def test_ask_allow_refuse_and_answer_in_the_window_started_as_cribtiles_online_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.app.main import main
    from cribtiles.ui import window
    from cribtiles.ui.cribbage.layout import ButtonKind
    from cribtiles.ui.cribbage.scene import CribbageScene
    from cribtiles.ui.geometry import centre
    from cribtiles.ui.tiles.autopilot import post_click, post_key

    seen: dict[str, Any] = {}
    with running_server() as (url, _hall):
        maker = Link(url)
        try:
            assert maker.wait_connected(PATIENCE)
            seats = [{"kind": "person", "name": "Ann"}, {"kind": "open"}]
            code = maker.request("create", game="cribbage", seats=seats, seed=5)["code"]  # Ann lays away first
        finally:
            maker.close()
        ben = Player(url, code)
        try:
            assert ben.join("Ben") == 1

            def run(app: window.App, max_seconds: float | None = None, ready: object = None) -> None:
                try:
                    drive(app)
                except Exception as e:  # said below: the program would only say it failed
                    seen["failed"] = repr(e)
                finally:
                    app.close()

            def drive(app: window.App) -> None:
                def until(check: Callable[[], bool], what: str) -> None:
                    end = time.monotonic() + PATIENCE
                    while not check():
                        assert time.monotonic() < end, f"{what}: {getattr(app.scenes[-1], 'message', '')!r}"
                        app.frame(1 / 60)
                        ben.pump(0.0)
                        time.sleep(0.005)

                until(lambda: isinstance(app.scenes[-1], CribbageScene), "the table did not open")
                scene = app.scenes[-1]
                assert isinstance(scene, CribbageScene)

                def buttons() -> dict[ButtonKind, Any]:
                    return {b.kind: b.rect for b in scene.snapshot().buttons}

                def lay_away() -> None:
                    for _ in range(2):
                        chosen = len(scene.cards.chosen)
                        post_click(centre(scene.hand_rects()[chosen]))
                        until(lambda chosen=chosen: len(scene.cards.chosen) == chosen + 1, "a card was not chosen")
                    post_key(pygame.K_RETURN)
                    until(lambda: scene.seen.discards != () and not scene.cards.chosen, "the crib cards were not laid")

                def heard(words: str) -> bool:
                    return any(line == words for line, _ in scene.chat.heard)

                def asked_by_ben() -> dict[str, Any] | None:
                    undo = ben.state.get("undo")
                    return undo if isinstance(undo, dict) and undo.get("ended") is None else None

                until(lambda: scene.my_turn and len(scene.hand) == 6, "Ann's turn to lay away did not come")
                dealt = scene.hand
                lay_away()
                until(lambda: ButtonKind.UNDO in buttons(), "no Undo once the crib cards were laid")
                post_click(centre(buttons()[ButtonKind.UNDO]))
                until(lambda: asked_by_ben() is not None, "Ben was not asked")
                seen["waiting"] = scene.snapshot().prompt
                seen["withdraw"] = list(buttons())
                ben.request("undo_answer", ply=asked_by_ben()["ply"], yes=True)  # type: ignore[index]
                until(lambda: scene.hand == dealt and scene.seen.discards == (), "the crib cards did not come back")
                until(lambda: heard("Everyone agreed: your move is taken back."), "Ann was not told")
                # asked again with U: Ben says no, the crib cards stay laid, and Undo is gone
                lay_away()
                until(lambda: scene.can_undo, "no undo the second time")
                post_key(pygame.K_u)
                until(lambda: asked_by_ben() is not None, "Ben was not asked again")
                ben.request("undo_answer", ply=asked_by_ben()["ply"], yes=False)  # type: ignore[index]
                until(lambda: heard("Ben said no: your move stands."), "Ann was not told of the refusal")
                seen["after no"] = (scene.seen.discards != (), ButtonKind.UNDO in buttons(), scene.snapshot().keys)
                # Ben lays away (the starter is cut), Ann leads, Ben lays a card and asks for it back
                ben.wait_until(lambda s: s["to_move"] == 1)
                laid = next(m for m in ben.state["view"]["legal"] if m.startswith("discard"))
                ben.request("act", ply=ben.state["ply"], move=laid)
                until(lambda: scene.my_turn and scene.pub.starter is not None, "the play did not begin")
                post_click(centre(scene.hand_rects()[0]))
                until(lambda: len(scene.pub.pile) == 1, "Ann's card was not laid")
                ben.wait_until(lambda s: s["to_move"] == 1)
                card = next(m for m in ben.state["view"]["legal"] if m.startswith("play"))
                ben.request("act", ply=ben.state["ply"], move=card)
                ben.request("undo", ply=ben.state["ply"])
                until(lambda: ButtonKind.ALLOW in buttons(), "Ann was not asked")
                seen["asked"] = (scene.snapshot().prompt, list(buttons()), len(scene.pub.pile))
                post_click(centre(buttons()[ButtonKind.ALLOW]))
                until(lambda: len(scene.pub.pile) == 1 and scene.session.undos == 2, "Ben's card did not go back")
                seen["allowed"] = scene.message
                ben.wait_until(lambda s: s["to_move"] == 1 and s.get("undo", {}).get("ended") == "made")
                ben.request("act", ply=ben.state["ply"], move=card)
                ben.request("undo", ply=ben.state["ply"])
                until(lambda: ButtonKind.REFUSE in buttons(), "Ann was not asked again")
                post_key(pygame.K_n)
                until(lambda: scene.session.pending_undo is None and len(scene.pub.pile) == 2, "the no was not sent")
                seen["refused"] = scene.message
                ctrl_z = {"key": pygame.K_z, "mod": pygame.KMOD_CTRL, "unicode": "", "scancode": 0}
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, **ctrl_z))
                until(lambda: scene.message.startswith("Nothing of yours"), "Ctrl+Z said nothing")
                seen["ctrl z"] = scene.message

            monkeypatch.setattr(window.App, "run", run)
            assert main(["online", "play", url, code, "--name", "Ann", "--data-dir", str(tmp_path)]) == 0
        finally:
            ben.close()
    assert "failed" not in seen, seen["failed"]
    assert seen["waiting"] == "Waiting for Ben to let you take back your move: N or Withdraw withdraws it."
    assert seen["withdraw"] == [ButtonKind.WITHDRAW]
    laid, undo_button, keys = seen["after no"]
    assert laid and not undo_button and "U undo" not in keys
    prompt, shown, pile = seen["asked"]
    assert prompt == "Ben asks to take back a move: Y or Allow lets them, N or Refuse says no."
    assert shown == [ButtonKind.ALLOW, ButtonKind.REFUSE] and pile == 2
    assert seen["allowed"] == "You let Ben take back a move."
    assert seen["refused"] == "You said no: Ben's move stands."
    assert seen["ctrl z"].startswith("Nothing of yours may be taken back now: online a move goes back only before")
