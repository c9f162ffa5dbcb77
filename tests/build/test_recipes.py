"""The installer recipes: installer.spec and build/*.py compile and import, the Inno Setup script has
the directives the issue asks for, the icon containers are well formed, the .deb's metadata reads."""

from __future__ import annotations

import importlib.util
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_recipe_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_spec_compiles_and_ships_the_data_the_licences_and_a_launcher() -> None:
    text = (ROOT / "installer.spec").read_text(encoding="utf-8")
    compile(text, "installer.spec", "exec")
    assert "leaves.json" in text and "LICENSE" in text and "LICENSES.md" in text
    assert 'name="cribtiles"' in text and "COLLECT(" in text and "BUNDLE(" in text
    assert "tkinter" in text and "numpy" in text  # kept out of the bundle
    # the command line imports each command's module by name: PyInstaller cannot see those imports
    assert "from cribtiles.app.commands import COMMANDS" in text and "*COMMAND_MODULES, *PART_MODULES]" in text
    assert (ROOT / "build" / "launcher.py").exists()
    for path in (
        ROOT / "cribtiles" / "bot" / "tiles" / "data" / "leaves.json",
        ROOT / "LICENSE",
        ROOT / "assets" / "LICENSES.md",
    ):
        assert path.exists(), path


def test_build_py_imports_without_building_and_reads_the_version() -> None:
    build = load_module(ROOT / "build" / "build.py")
    import tomllib

    assert build.version() == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert build.deb_version("1.2.0") == "1.2.0"
    assert build.deb_version("1.2.0rc1") == "1.2.0~rc1"  # dpkg sorts it before 1.2.0
    entry = build.desktop_entry()
    assert entry.startswith("[Desktop Entry]\n")
    fields = dict(line.split("=", 1) for line in entry.splitlines()[1:])
    assert fields["Exec"] == "/usr/games/cribtiles %u"  # root's PATH has no /usr/games; %u: an invitation
    assert fields["Icon"] == "cribtiles" and fields["Type"] == "Application"
    assert fields["Categories"].endswith(";")


def test_the_inno_setup_script_has_the_required_directives() -> None:
    text = (ROOT / "build" / "windows" / "cribtiles.iss").read_text(encoding="utf-8")
    lines = {line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip() for line in text.splitlines() if "=" in line}
    assert lines["PrivilegesRequired"] == "lowest"  # per user, no admin rights
    assert lines["OutputBaseFilename"] == "CribTilesSetup-{#AppVersion}"
    assert lines["AppVersion"] == "{#AppVersion}"
    assert lines["LicenseFile"].endswith("LICENSE")
    assert lines["DefaultDirName"].startswith("{autopf}")
    assert "#ifndef AppVersion" in text  # build.py passes /DAppVersion=
    assert "{autoprograms}" in text and "{autodesktop}" in text  # start menu and desktop shortcuts
    assert "Uninstallable=no" not in text
    assert "[Files]" in text and "recursesubdirs" in text


def test_the_icons_are_pngs_an_ico_and_an_icns(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "build" / "make_icons.py"), "--out", str(tmp_path)], check=True)
    for n in (16, 32, 48, 128, 256, 512):
        head = (tmp_path / f"cribtiles-{n}.png").read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (n, n)
    ico = (tmp_path / "cribtiles.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 6
    sides = set()
    for i in range(count):
        w, _h, _, _, planes, bpp, size, offset = struct.unpack("<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i])
        assert offset + size <= len(ico) and bpp == 32 and planes == 1
        image = ico[offset : offset + size]
        assert image[:8] == b"\x89PNG\r\n\x1a\n" or struct.unpack("<I", image[:4])[0] == 40  # PNG or BMP header
        sides.add(w or 256)
    assert {16, 32, 48, 256} <= sides
    icns = (tmp_path / "cribtiles.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    pos, kinds = 8, set()
    while pos < len(icns):
        kind, length = struct.unpack(">4sI", icns[pos : pos + 8])
        assert icns[pos + 8 : pos + 16] == b"\x89PNG\r\n\x1a\n"
        kinds.add(kind)
        pos += length
    assert pos == len(icns)
    assert {b"ic07", b"ic08", b"ic09", b"ic10"} <= kinds


def test_the_deb_asks_for_the_newest_c_library_the_bundle_was_linked_against(tmp_path: Path) -> None:
    build = load_module(ROOT / "build" / "build.py")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "a.so").write_bytes(b"\x7fELF....GLIBC_2.17\0GLIBC_2.34\0")
    (tmp_path / "b.so").write_bytes(b"\x7fELF....GLIBC_2.9\0GLIBC_2.4\0")
    (tmp_path / "notes.txt").write_bytes(b"GLIBC_2.99")  # not a program: ignored
    assert build.glibc_needed(tmp_path) == "2.34"
