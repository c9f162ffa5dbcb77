"""What the .deb carries from build/debian/: a changelog for this version, a machine-readable copyright
that names every bundled library's licence, a manual page with every option of `cribtiles --help`; and
the modes build.py gives the files (shared libraries are not executable)."""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.test_recipes import ROOT, load_module

build = load_module(ROOT / "build" / "build.py")
DEBIAN = ROOT / "build" / "debian"
PAGE = (DEBIAN / "cribtiles.6").read_text(encoding="utf-8")
COPYRIGHT = (DEBIAN / "copyright").read_text(encoding="utf-8")


def test_the_changelog_s_newest_entry_is_this_version() -> None:
    text = (DEBIAN / "changelog").read_text(encoding="utf-8")
    assert build.changelog_version(text) == build.deb_version(build.version())
    first = text.splitlines()[0]
    assert re.fullmatch(r"cribtiles \([^)]+\) unstable; urgency=\w+", first)
    signature = next(line for line in text.splitlines() if line.startswith(" -- "))
    assert re.fullmatch(r" -- .+ <.+@.+>  \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}", signature)


# --- the copyright file ---


def paragraphs(text: str) -> list[dict[str, str]]:
    found = []
    for para in re.split(r"\n\s*\n", text.strip()):
        fields: dict[str, str] = {}
        name = ""
        for line in para.splitlines():
            if line[:1] == " ":
                fields[name] += "\n" + line[1:]
            else:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        found.append(fields)
    return found


def test_the_copyright_file_is_machine_readable_and_every_licence_has_its_text() -> None:
    paras = paragraphs(COPYRIGHT)
    assert paras[0]["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    files = [p for p in paras[1:] if "Files" in p]
    standalone = {p["License"].split("\n")[0]: p["License"] for p in paras[1:] if "Files" not in p}
    assert files[0]["Files"] == "*" and files[0]["License"] == "Expat"
    for p in files:
        assert p.get("Copyright"), p["Files"]
        names = re.split(r" and | or ", p["License"].split("\n")[0])
        for name in names:
            assert name in standalone, f"{name} (for {p['Files'].split()[0]}) has no License paragraph"
            assert len(standalone[name].splitlines()) > 3, name
    for name, text in standalone.items():  # a full common licence is referred to, never copied in
        if re.match(r"(L?GPL|Apache)", name):
            assert "/usr/share/common-licenses/" in text, name
            assert len(text.splitlines()) < 90, name
    for line in COPYRIGHT.splitlines():
        assert line == "" or line[0] == " " or re.match(r"[A-Z][A-Za-z-]*: ", line), line


def test_our_licence_in_the_copyright_file_is_the_license_file_s() -> None:
    expat = next(p for p in paragraphs(COPYRIGHT) if p.get("License", "").startswith("Expat\n"))["License"]
    words = " ".join(expat.replace("\n.\n", "\n").split()[1:])
    ours = " ".join((ROOT / "LICENSE").read_text(encoding="utf-8").split("\n\n", 2)[2].split())
    assert words == ours


def test_a_bundled_library_with_no_licence_of_its_own_stops_the_build(tmp_path: Path) -> None:
    internal = tmp_path / "opt" / "cribtiles" / "_internal"
    (internal / "pygame_ce.libs").mkdir(parents=True)
    (internal / "pygame_ce.libs" / "libSDL2-2-0123abcd.0.so.0.3200.10").write_bytes(b"\x7fELF sdl")
    (internal / "libz.so.1").write_bytes(b"\x7fELF zlib")
    (internal / "libnew-feedbeef.so.1").write_bytes(b"\x7fELF new")
    (internal / "pygame").mkdir()
    (internal / "pygame" / "freesansbold.ttf").write_bytes(b"\0\1\0\0 font")
    (internal / "pygame" / "other.ttf").write_bytes(b"\0\1\0\0 font")  # pygame/* is LGPL: not our catch-all
    (internal / "leaves.json").write_text("{}")  # ours, under Files: *
    (tmp_path / "opt" / "cribtiles" / "cribtiles").write_bytes(b"\x7fELF bootloader")
    assert build.unlisted_third_party(tmp_path, COPYRIGHT) == ["opt/cribtiles/_internal/libnew-feedbeef.so.1"]
    assert build.licence_of("opt/cribtiles/_internal/pygame/freesansbold.ttf", build.dep5_files(COPYRIGHT)) == (
        "opt/cribtiles/_internal/pygame/freesansbold.ttf",
        "GPL-3+ with Font exception",
    )


# --- the manual page ---


def help_of(*command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "cribtiles", *command, "--help"], capture_output=True, text=True)
    if done.returncode != 0 and "ModuleNotFoundError" in done.stderr:
        pytest.skip(f"`cribtiles {' '.join(command)}` is not there yet: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    return done.stdout


def options_in(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", help_text))


def test_the_manual_page_names_every_option_of_cribtiles_help() -> None:
    text = help_of()
    options = options_in(text)
    assert {"--help", "--text", "--data-dir", "--selftest"} <= options
    for option in options:
        assert option.replace("-", "\\-") in PAGE, option
    subcommands = re.findall(r"^    ([a-z]+)\b", text.split("\ncommands:\n")[1], re.MULTILINE)  # argparse's list
    assert "history" in subcommands and "cribbage" in subcommands
    for word in subcommands:
        assert re.search(rf"^\.BI? {word}\b", PAGE, re.MULTILINE), word


@pytest.mark.parametrize(
    "command",
    [
        "arena",
        "history",
        "stats",
        "replay",
        "analyze",
        "review",
        "cribbage score",
        "cribbage peg",
        "cribbage discard",
        "cribbage arena",
        "serve",
        "online new",
        "online bot",
        "online status",
        "online play",
        "online open",
        "online seat-bot",
    ],
)
def test_the_manual_page_names_every_option_of_each_subcommand(command: str) -> None:
    section = PAGE.split(".SS Subcommands")[1].split(".SH FILES")[0]
    synopsis = PAGE.split(".SH SYNOPSIS")[1].split(".SH DESCRIPTION")[0]
    for option in options_in(help_of(*command.split())) - {"-h", "--help"}:
        assert option.replace("-", "\\-") in synopsis, (command, option)
        assert option.replace("-", "\\-") in section or option in ("--data-dir", "--size", "--seed", "--rules"), option


def test_the_manual_page_has_the_sections_and_the_files() -> None:
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FILES", "EXIT STATUS", "EXAMPLES"):
        assert f"\n.SH {section}\n" in PAGE, section
    assert re.search(r"^\.TH CRIBTILES 6 .*@VERSION@", PAGE, re.MULTILINE)  # build.py puts the version in
    assert "\ncribtiles \\- " in PAGE  # the NAME line that whatis and apropos read
    for name in ("settings.json", "game.json", "history.sqlite3", "cribtiles.log", "cribtiles.lock"):
        assert f".I {name}\n" in PAGE, name


@pytest.mark.skipif(shutil.which("man") is None or shutil.which("groff") is None, reason="needs man and groff")
def test_the_manual_page_renders_without_a_warning(tmp_path: Path) -> None:
    page = tmp_path / "cribtiles.6"
    page.write_text(PAGE.replace("@VERSION@", "9.9"), encoding="utf-8")
    done = subprocess.run(
        ["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", str(page)],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C.UTF-8", "MANWIDTH": "80", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    shown = re.sub(".\b", "", done.stdout)  # bold is drawn by overstriking
    assert "Crib Tiles 9.9" in shown and "EXIT STATUS" in shown and "history.sqlite3" in shown


# --- the files' modes ---


def test_shared_libraries_lose_the_executable_bit_and_the_program_keeps_it(tmp_path: Path) -> None:
    program = tmp_path / "cribtiles"
    names = ("libz.so.1", "math.cpython-311-x86_64-linux-gnu.so", "libSDL2-2.0.so.0.3200.10")
    libs = [tmp_path / name for name in names]
    data = tmp_path / "leaves.json"
    for p in [program, *libs, data]:
        p.write_bytes(b"x")
        p.chmod(0o775 if p != data else 0o600)
    build._normalise_modes(tmp_path)
    assert stat.S_IMODE(program.stat().st_mode) == 0o755
    assert [stat.S_IMODE(p.stat().st_mode) for p in libs] == [0o644] * 3
    assert stat.S_IMODE(data.stat().st_mode) == 0o644
