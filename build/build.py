"""`python build/build.py`: the bundle and this platform's installers, into dist/.

- every platform: the icons (build/make_icons.py), then PyInstaller on installer.spec: dist/cribtiles/
- Linux: cribtiles_<version>_<arch>.deb (built with dpkg-deb from build/debian/: the copyright, the
  changelog and the manual page) and cribtiles-<version>-linux-<arch>.tar.gz
- Windows: CribTilesSetup-<version>.exe (Inno Setup's ISCC on build/windows/cribtiles.iss) and a .zip
- macOS: dist/Crib Tiles.app (the spec's BUNDLE) in CribTiles-<version>.dmg (hdiutil)

PyInstaller's scratch files and the staging folders go to build/scratch/ (ignored by git). The version
is pyproject.toml's. PyInstaller is installed with pip when missing (it is the `build` extra).
"""

from __future__ import annotations

import argparse
import fnmatch
import gzip
import hashlib
import io
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
DEBIAN = ROOT / "build" / "debian"  # the .deb's copyright (DEP-5), changelog, manual page, lintian allow-list
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


def ensure_compiled_core() -> None:
    """The installers ship the compiled move generator: build it in place if it is not there (an
    editable install builds it, when a compiler is found), and stop if it still does not load."""
    check = [sys.executable, "-c", "from cribtiles.rules import movegen; print(movegen.CORE)"]
    env = {**os.environ, "CRIBTILES_CORE": "auto"}
    if subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True).stdout.strip() != "compiled":
        run(sys.executable, ROOT / "setup.py", "-q", "build_ext", "--inplace", cwd=ROOT)
    if subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True).stdout.strip() != "compiled":
        raise SystemExit(
            "build: the compiled move generator (cribtiles/rules/_movegen.c) did not build or load; the "
            "installers must ship it: install a C compiler (gcc, clang or Visual Studio's) and run again"
        )


def build_bundle() -> Path:
    """The compiled move generator, the icons, then the one-folder bundle in dist/cribtiles/ (and the
    .app on macOS)."""
    ensure_pyinstaller()
    ensure_compiled_core()
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


PROGRAM = "/usr/games/cribtiles"  # a game: Debian's place for it (policy 11.11), and lintian's


#: The URL scheme of an invitation's "Open in Crib Tiles" (`cribtiles://HOST:PORT/t/CODE`), which the
#: installers register: the desktop entry's MimeType, Inno Setup's registry keys, the app's CFBundleURLTypes.
URL_SCHEME = "cribtiles"


def desktop_entry() -> str:
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        f"Name={APP_NAME}\n"
        "GenericName=Tile game\n"
        f"Comment={SUMMARY}\n"
        # the whole path: root's PATH and some sessions' have no /usr/games; %u: the cribtiles:// address
        # an invitation opens, which seats the window at its table (none from the menu)
        f"Exec={PROGRAM} %u\n"
        "Icon=cribtiles\n"
        "Terminal=false\n"
        "Categories=Game;BoardGame;\n"
        "Keywords=cribbage;kings;tiles;crossword;\n"
        f"MimeType=x-scheme-handler/{URL_SCHEME};\n"
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


_SHARED_LIBRARY = re.compile(r"\.so(\.[0-9.]+)?$")  # libz.so.1, _json.cpython-311-x86_64-linux-gnu.so


def is_shared_library(name: str) -> bool:
    """A shared library or Python extension module by its name: loaded, never run, so not executable.

    >>> [is_shared_library(n) for n in ("libSDL2-2-50d19f93.0.so.0.3200.10", "math.cpython-311-x86_64-linux-gnu.so")]
    [True, True]
    >>> [is_shared_library(n) for n in ("cribtiles", "base_library.zip", "libfoo.so.txt")]
    [False, False, False]
    """
    return _SHARED_LIBRARY.search(name) is not None


def _normalise_modes(folder: Path) -> None:
    """Directories 755, programs 755, shared libraries and other files 644, whatever the umask was."""
    for p in [folder, *folder.rglob("*")]:
        if p.is_symlink():
            continue
        if p.is_dir() or (p.stat().st_mode & 0o111 and not is_shared_library(p.name)):
            p.chmod(0o755)
        else:
            p.chmod(0o644)


def _gzip(data: bytes, out: Path) -> None:
    """gzip -9n: no name and no time inside, so the same input always gives the same file."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buf, mtime=0) as f:
        f.write(data)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buf.getvalue())


def changelog_version(changelog: str) -> str:
    r"""The version of a Debian changelog's newest entry.

    >>> changelog_version("cribtiles (1.2.0~rc1) unstable; urgency=medium\n\n  * New.\n")
    '1.2.0~rc1'
    """
    m = re.match(r"\S+ \(([^)]+)\)", changelog)
    if m is None:
        raise ValueError("the changelog does not start with 'cribtiles (VERSION) ...'")
    return m[1]


def dep5_files(copyright_text: str) -> list[tuple[list[str], str]]:
    r"""The Files paragraphs of a machine-readable (DEP-5) copyright file, in order: (patterns, licence).

    >>> dep5_files("Format: x\n\nFiles: *\nLicense: Expat\n\nFiles: a/*\n b.so\nLicense: Zlib\n")
    [(['*'], 'Expat'), (['a/*', 'b.so'], 'Zlib')]
    """
    found = []
    for para in re.split(r"\n\s*\n", copyright_text):
        fields: dict[str, str] = {}
        name = ""
        for line in para.splitlines():
            if line[:1] in (" ", "\t") and name:
                fields[name] += "\n" + line.strip()
            elif ":" in line:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        if "Files" in fields:
            found.append((fields["Files"].split(), fields.get("License", "").split("\n")[0]))
    return found


def licence_of(path: str, files: list[tuple[list[str], str]]) -> tuple[str, str] | None:
    """The pattern and licence that DEP-5 gives a file: the last paragraph with a matching pattern."""
    found = None
    for patterns, licence in files:
        for pattern in patterns:
            if fnmatch.fnmatchcase(path, pattern):
                found = (pattern, licence)
    return found


def unlisted_third_party(root: Path, copyright_text: str) -> list[str]:
    """Libraries and fonts of the package that the copyright file gives only the catch-all `Files: *`
    (our own code's licence): each bundled library must have its own copyright and licence there."""
    files = dep5_files(copyright_text)
    unlisted = []
    for p in sorted(root.rglob("*")):
        if p.is_symlink() or not p.is_file():
            continue
        with p.open("rb") as f:
            elf = f.read(4) == b"\x7fELF"
        if elf or p.suffix in (".ttf", ".otf"):
            rel = p.relative_to(root).as_posix()
            match = licence_of(rel, files)
            if match is None or match[0] == "*":
                unlisted.append(rel)
    return unlisted


def _md5sums(stage: Path) -> str:
    lines = []
    for p in sorted(stage.rglob("*")):
        rel = p.relative_to(stage).as_posix()
        if p.is_file() and not p.is_symlink() and not rel.startswith("DEBIAN/"):
            lines.append(f"{hashlib.md5(p.read_bytes()).hexdigest()}  {rel}\n")
    return "".join(lines)


def build_deb(v: str) -> Path:
    """/opt/cribtiles (the bundle), /usr/games/cribtiles, the menu entry, the icons, the manual page, the
    copyright and the changelog (build/debian/)."""
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    changelog = (DEBIAN / "changelog").read_text(encoding="utf-8")
    if changelog_version(changelog) != deb_version(v):
        raise SystemExit(
            f"build: build/debian/changelog's newest entry is {changelog_version(changelog)}, the version is "
            f"{deb_version(v)}: add an entry for it at the top"
        )
    stage = SCRATCH / "deb"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(BUNDLE, stage / "opt" / "cribtiles", symlinks=True)
    launcher = stage / PROGRAM.lstrip("/")
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
    copyright_text = (DEBIAN / "copyright").read_text(encoding="utf-8")
    unlisted = unlisted_third_party(stage, copyright_text)
    if unlisted:
        raise SystemExit(
            "build: build/debian/copyright gives no copyright and licence of their own to:\n  "
            + "\n  ".join(unlisted)
            + "\nadd a Files paragraph for each (its upstream's copyright holders and licence)"
        )
    (doc / "copyright").write_text(copyright_text, encoding="utf-8")
    _gzip(changelog.encode("utf-8"), doc / "changelog.gz")  # a native package's changelog (no Debian revision)
    page = (DEBIAN / "cribtiles.6").read_text(encoding="utf-8").replace("@VERSION@", v)
    _gzip(page.encode("utf-8"), stage / "usr" / "share" / "man" / "man6" / "cribtiles.6.gz")
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
    (stage / "DEBIAN" / "md5sums").write_text(_md5sums(stage), encoding="utf-8")
    (stage / "DEBIAN" / "md5sums").chmod(0o644)
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
