"""The installers register the game for an invitation's `cribtiles://` address (issue 44): the .deb's desktop
entry (`MimeType=x-scheme-handler/cribtiles;`, `Exec=… %u`, valid by `desktop-file-validate`), Inno Setup's
registry keys of the URL protocol, the macOS app's CFBundleURLTypes with the bootloader's argv emulation; and
the desktop entry really dispatches: under Xvfb, `xdg-open cribtiles://127.0.0.1:PORT/t/CODE`, with the
entry installed in a folder of the test's (XDG_DATA_DIRS) and the desktop's MIME cache made of it, opens the
window seated at that table on a loopback server. (CI does the same from the installed .deb: .ci/url_handler.)
A missing tool fails the test in words: .ci/run installs xdg-utils, desktop-file-utils and Xvfb."""

from __future__ import annotations

import ast
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cribtiles.online.client import Link
from tests.build.test_recipes import load_module
from tests.server.running import running_server
from tests.xvfb import start_xvfb

ROOT = Path(__file__).resolve().parents[2]
#: Seconds the window may take to be seated on a loaded machine, or to stop.
PATIENCE = 120.0


def tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed (Debian: apt-get install {package}): this test runs the real one")
    return found


def entry_fields() -> dict[str, str]:
    entry: str = load_module(ROOT / "build" / "build.py").desktop_entry()
    return dict(line.split("=", 1) for line in entry.splitlines()[1:])


def test_the_desktop_entry_handles_the_cribtiles_scheme_and_is_valid(tmp_path: Path) -> None:
    fields = entry_fields()
    assert fields["Exec"] == "/usr/games/cribtiles %u"
    assert fields["MimeType"] == "x-scheme-handler/cribtiles;"
    path = tmp_path / "cribtiles.desktop"
    path.write_text(load_module(ROOT / "build" / "build.py").desktop_entry(), encoding="utf-8")
    done = subprocess.run(
        [tool("desktop-file-validate", "desktop-file-utils"), str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stdout + done.stderr


def test_inno_setup_registers_the_url_protocol_for_the_user() -> None:
    text = (ROOT / "build" / "windows" / "cribtiles.iss").read_text(encoding="utf-8")
    registry = text.split("\n[Registry]\n", 1)[1].split("\n[", 1)[0]
    keys = [line for line in registry.splitlines() if line.startswith("Root:")]
    assert all(line.startswith('Root: HKA; Subkey: "Software\\Classes\\cribtiles') for line in keys)
    assert any('ValueName: "URL Protocol"; ValueData: ""' in line for line in keys)
    assert any('ValueData: "URL:Crib Tiles invitation"; Flags: uninsdeletekey' in line for line in keys)
    command = next(line for line in keys if "\\shell\\open\\command" in line)
    assert command.endswith('ValueData: """{app}\\cribtiles.exe"" ""%1"""')  # the address as one argument


def test_the_macos_app_declares_the_url_scheme_and_hands_it_over_as_an_argument() -> None:
    tree = ast.parse((ROOT / "installer.spec").read_text(encoding="utf-8"))
    url_types = next(
        ast.literal_eval(value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant) and key.value == "CFBundleURLTypes"
    )
    assert url_types == [{"CFBundleURLName": "org.cribtiles.CribTiles.invitation", "CFBundleURLSchemes": ["cribtiles"]}]
    exe = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "EXE"
    )
    emulation = next(k.value for k in exe.keywords if k.arg == "argv_emulation")
    assert isinstance(emulation, ast.Name) and emulation.id == "MAC"


def test_xdg_open_of_a_cribtiles_address_opens_the_window_seated_at_that_table(tmp_path: Path) -> None:
    xdg_open = tool("xdg-open", "xdg-utils")
    update = tool("update-desktop-database", "desktop-file-utils")
    tool("Xvfb", "xvfb")
    data, apps, home = tmp_path / "data", tmp_path / "share" / "applications", tmp_path / "home"
    for folder in (data, apps, home):
        folder.mkdir(parents=True)
    remembered = {"server": "ws://127.0.0.1:9", "code": "AAAAAA", "seat": 0, "name": "Ben", "game": "tiles"}
    remembered |= {"token": "t" * 32, "host_token": ""}
    (data / "online_games.json").write_text(json.dumps({"version": 1, "seats": [remembered]}), encoding="utf-8")
    # the desktop entry as the .deb installs it, its program this source tree's (the .deb's is CI's to run)
    program, pid_file = tmp_path / "cribtiles", tmp_path / "window.pid"
    program.write_text(
        "#!/bin/sh\n"
        f"echo $$ > '{pid_file}'\n"
        f"cd '{ROOT}' && exec '{sys.executable}' -m cribtiles \"$@\" --data-dir '{data}' --size 1024x700\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    entry = load_module(ROOT / "build" / "build.py").desktop_entry().replace("/usr/games/cribtiles", str(program))
    (apps / "cribtiles.desktop").write_text(entry, encoding="utf-8")
    subprocess.run([update, str(apps)], check=True, capture_output=True)
    assert "x-scheme-handler/cribtiles=cribtiles.desktop;" in (apps / "mimeinfo.cache").read_text(encoding="utf-8")
    xvfb, display = start_xvfb(1024, 700)
    try:
        with running_server() as (url, hall):
            code = _table(url)
            address = f"cribtiles://127.0.0.1:{url.rsplit(':', 1)[1]}/t/{code}"
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(home),
                "DISPLAY": display,
                "XDG_DATA_HOME": str(tmp_path / "share"),
                "XDG_DATA_DIRS": f"{tmp_path / 'share'}:/usr/share",
                "XDG_CONFIG_HOME": str(home / ".config"),
                "SDL_AUDIODRIVER": "dummy",
            }
            said = tmp_path / "xdg-open.log"
            with said.open("w") as log:  # xdg-open may wait for the program it runs: never for its output
                opener = subprocess.Popen([xdg_open, address], env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                end = time.monotonic() + PATIENCE
                while not hall.rooms[code].present.get(1) and time.monotonic() < end and opener.poll() in (None, 0):
                    time.sleep(0.1)
                assert hall.rooms[code].present.get(1), f"xdg-open did not seat the window: {said.read_text()}"
                assert hall.rooms[code].places[1].name == "Ben"  # the name used last, from the data folder
                _stop(int(pid_file.read_text().strip()))
                opener.wait(PATIENCE)  # it ran the program in its stead: it ends with it (failed: it was stopped)
            finally:
                if opener.poll() is None:
                    opener.kill()
                    opener.wait(PATIENCE)
    finally:
        xvfb.terminate()
        xvfb.wait(30)


def _table(url: str) -> str:
    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE)
        seats: list[dict[str, Any]] = [{"kind": "bot", "level": "easy"}, {"kind": "open"}]
        return str(link.request("create", PATIENCE, game="tiles", seats=seats)["code"])
    finally:
        link.close()


def _stop(pid: int) -> None:
    """Stop the window xdg-open started (not this test's child: waited for through /proc)."""
    os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + PATIENCE
    while Path(f"/proc/{pid}").exists() and time.monotonic() < end:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}/stat").exists() else "X"
        if state == "Z":
            break
        time.sleep(0.1)
    if Path(f"/proc/{pid}").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z":
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the window did not stop on SIGTERM")
