"""`python build/build.py`: the bundle and this platform's installers, into dist/.

- every platform: the icons (build/make_icons.py), then PyInstaller on installer.spec: dist/cribtiles/
- Linux: cribtiles_<version>_<arch>.deb (built with dpkg-deb) and cribtiles-<version>-linux-<arch>.tar.gz
- Windows: CribTilesSetup-<version>.exe (Inno Setup's ISCC on build/windows/cribtiles.iss) and a .zip
- macOS: dist/Crib Tiles.app (the spec's BUNDLE) in CribTiles-<version>.dmg (hdiutil)

PyInstaller's scratch files and the staging folders go to build/scratch/ (ignored by git). The version
is pyproject.toml's. PyInstaller is installed with pip when missing (it is the `build` extra).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / "build" / "scratch"
DIST = ROOT / "dist"
ICONS = SCRATCH / "icons"
BUNDLE = DIST / "cribtiles"
APP_NAME = "Crib Tiles"
SUMMARY = "Kings Cribbage, the crossword tile game scored like cribbage"
DEB_DEPENDS = "libx11-6, libxext6"  # SDL opens X11 itself; all else but the C library is in the bundle


def version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def deb_version(v: str) -> str:
    """PEP 440 to Debian: a pre-release sorts before its release (`1.0rc1` -> `1.0~rc1`)."""
    return re.sub(r"(\d)[.-]?(a|b|rc|dev)", r"\1~\2", v)


def run(*cmd: str | Path, **kw: object) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)  # type: ignore[call-overload]


def ensure_pyinstaller() -> None:
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        run(sys.executable, "-m", "pip", "install", "pyinstaller>=6")


def build_bundle() -> Path:
    """The icons, then the one-folder bundle in dist/cribtiles/ (and the .app on macOS)."""
    ensure_pyinstaller()
    run(sys.executable, ROOT / "build" / "make_icons.py", "--out", ICONS)
    run(
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        DIST,
        "--workpath",
        SCRATCH / "pyinstaller",
        ROOT / "installer.spec",
    )
    return BUNDLE


# --- Linux ---


def desktop_entry() -> str:
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={APP_NAME}\n"
        "GenericName=Tile game\n"
        f"Comment={SUMMARY}\n"
        "Exec=cribtiles\n"
        "Icon=cribtiles\n"
        "Terminal=false\n"
        "Categories=Game;BoardGame;\n"
        "Keywords=cribbage;kings;tiles;crossword;\n"
        "StartupWMClass=cribtiles\n"  # the window's class (cribtiles/ui/window.py), so docks match it
    )


def _tree_size_kib(folder: Path) -> int:
    return sum(-(-p.lstat().st_size // 1024) for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def glibc_needed(folder: Path) -> str:
    """The newest GLIBC_x.y symbol version the bundle's programs and libraries ask for: the C library
    is the system's, so the .deb depends on one at least that new (a bundle built on Debian 12 needs 2.36)."""
    found = {"2.17"}
    for p in folder.rglob("*"):
        if p.is_file() and not p.is_symlink():
            with p.open("rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
                found.update(m.decode() for m in re.findall(rb"GLIBC_(2\.[0-9]+)", f.read()))
    return max(found, key=lambda v: tuple(int(x) for x in v.split(".")))


def _normalise_modes(folder: Path) -> None:
    """Directories 755, executables 755, other files 644, whatever the umask was."""
    for p in [folder, *folder.rglob("*")]:
        if p.is_symlink():
            continue
        if p.is_dir() or p.stat().st_mode & 0o111:
            p.chmod(0o755)
        else:
            p.chmod(0o644)


def build_deb(v: str) -> Path:
    """/opt/cribtiles (the bundle), /usr/bin/cribtiles, the menu entry, the icons, the copyright."""
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    stage = SCRATCH / "deb"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(BUNDLE, stage / "opt" / "cribtiles", symlinks=True)
    launcher = stage / "usr" / "bin" / "cribtiles"
    launcher.parent.mkdir(parents=True)
    # a script, not a symlink: the bundle finds its files beside the real executable whatever the name
    launcher.write_text('#!/bin/sh\nexec /opt/cribtiles/cribtiles "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    apps = stage / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "cribtiles.desktop").write_text(desktop_entry(), encoding="utf-8")
    for png in sorted(ICONS.glob("cribtiles-*.png")):
        n = png.stem.split("-")[1]
        folder = stage / "usr" / "share" / "icons" / "hicolor" / f"{n}x{n}" / "apps"
        folder.mkdir(parents=True)
        shutil.copy(png, folder / "cribtiles.png")
    doc = stage / "usr" / "share" / "doc" / "cribtiles"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Crib Tiles\n\n"
        + (ROOT / "LICENSE").read_text(encoding="utf-8")
        + "\n\n"
        + (ROOT / "assets" / "LICENSES.md").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    control = stage / "DEBIAN" / "control"
    control.parent.mkdir()
    control.write_text(
        "Package: cribtiles\n"
        f"Version: {deb_version(v)}\n"
        f"Architecture: {arch}\n"
        "Maintainer: The Crib Tiles team <cribtiles@users.noreply.invalid>\n"
        f"Installed-Size: {_tree_size_kib(stage)}\n"
        f"Depends: libc6 (>= {glibc_needed(BUNDLE)}), {DEB_DEPENDS}\n"
        "Section: games\n"
        "Priority: optional\n"
        f"Description: {APP_NAME}: {SUMMARY}\n"
        " Kings Cribbage on the desktop: lay wooden tiles crossword-style on a 13 x 13\n"
        " board; every row or column of 2-5 tiles scores as a cribbage hand. Played\n"
        " offline against a computer opponent from Beginner to Expert.\n",
        encoding="utf-8",
    )
    _normalise_modes(stage)
    out = DIST / f"cribtiles_{deb_version(v)}_{arch}.deb"
    run("dpkg-deb", "--root-owner-group", "-Zxz", "--build", stage, out)
    return out


def build_tarball(v: str) -> Path:
    out = DIST / f"cribtiles-{v}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(out, "w:gz", compresslevel=9) as tar:
        tar.add(BUNDLE, arcname="cribtiles")
    return out


# --- Windows ---


def find_iscc() -> str | None:
    found = shutil.which("iscc") or shutil.which("ISCC")
    if found:
        return found
    for base in (os.environ.get("PROGRAMFILES(X86)"), os.environ.get("PROGRAMFILES")):
        if base and (Path(base) / "Inno Setup 6" / "ISCC.exe").exists():
            return str(Path(base) / "Inno Setup 6" / "ISCC.exe")
    return None


def build_windows(v: str) -> list[Path]:
    out = [Path(shutil.make_archive(str(DIST / f"cribtiles-{v}-windows"), "zip", DIST, "cribtiles"))]
    iss = ROOT / "build" / "windows" / "cribtiles.iss"
    iscc = find_iscc()
    if not iss.exists() or iscc is None:
        print(f"build: no {'ISCC (Inno Setup 6)' if iss.exists() else iss}; skipping the setup program")
        return out
    run(
        iscc,
        f"/DAppVersion={v}",
        f"/DBundleDir={BUNDLE}",
        f"/DRootDir={ROOT}",
        f"/DIconFile={ICONS / 'cribtiles.ico'}",
        f"/O{DIST}",
        iss,
    )
    return [*out, DIST / f"CribTilesSetup-{v}.exe"]


# --- macOS ---


def build_dmg(v: str) -> Path:
    stage = SCRATCH / "dmg"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    run("ditto", DIST / f"{APP_NAME}.app", stage / f"{APP_NAME}.app")  # keeps the bundle's links
    (stage / "Applications").symlink_to("/Applications")  # drag the app onto it to install
    out = DIST / f"CribTiles-{v}.dmg"
    for attempt in range(3):  # hdiutil on CI runners fails now and then with "Resource busy"
        try:
            run("hdiutil", "create", "-volname", APP_NAME, "-srcfolder", stage, "-ov", "-format", "UDZO", out)
            break
        except subprocess.CalledProcessError:
            if attempt == 2:
                raise
            time.sleep(5)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundle-only", action="store_true", help="build dist/cribtiles/ and stop")
    args = ap.parse_args(argv)
    v = version()
    DIST.mkdir(exist_ok=True)
    build_bundle()
    made = [BUNDLE]
    if not args.bundle_only:
        if sys.platform.startswith("linux"):
            made += [build_deb(v), build_tarball(v)]
        elif sys.platform == "win32":
            made += build_windows(v)
        elif sys.platform == "darwin":
            made += [DIST / f"{APP_NAME}.app", build_dmg(v)]
    print(f"build: Crib Tiles {v}")
    for path in made:
        size = _tree_size_kib(path) * 1024 if path.is_dir() else path.stat().st_size
        print(f"  {path.relative_to(ROOT)}  {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
