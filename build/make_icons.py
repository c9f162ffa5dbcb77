"""The program's icon in every size and format the three systems want, drawn by the game's own code.

The icon is the window's icon: a maple 5 from `cribtiles.ui.art.tile_face`, here with its shadow.
`python build/make_icons.py [--out DIR]` writes cribtiles-<N>.png for N in 16..512, cribtiles.ico
(Windows: BMP entries up to 128, PNG at 256, as Windows itself writes them) and cribtiles.icns
(macOS: PNG entries), both containers written here with `struct`, so no image library is needed.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS entry types and their pixel sizes (the @2x types are the retina versions of the smaller ones)
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),
    (b"icp6", 64),
    (b"ic12", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),
    (b"ic09", 512),
    (b"ic14", 512),
    (b"ic10", 1024),
)
DEFAULT_OUT = Path(__file__).resolve().parent / "scratch" / "icons"


def _init_pygame() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import pygame

    pygame.display.init()
    pygame.font.init()


def draw_icon(size: int):  # type: ignore[no-untyped-def]
    """The icon at `size` pixels, on a transparent square: the tile fills small icons (every pixel
    counts at 16), larger ones leave room for its shadow."""
    import pygame

    from cribtiles.rules.tiles import Colour, Tile
    from cribtiles.ui import art

    tile = Tile(5, Colour.LIGHT)  # the window's icon (cribtiles/ui/window.py)
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    if size < 48:
        surf.blit(art.tile_face(tile, size), (0, 0))
        return surf
    t = size
    shadow, dx, dy = art.tile_shadow(t, lifted=False)
    while max(shadow.get_size()) > size:  # the largest tile whose whole soft shadow fits: no cut edges
        # shrink by the overhang (not one pixel at a time: a 512-pixel shadow is a costly blur)
        t -= max(1, max(shadow.get_size()) - size)
        shadow, dx, dy = art.tile_shadow(t, lifted=False)
    surf.blit(shadow, (0, 0))
    surf.blit(art.tile_face(tile, t), (-dx, -dy))
    return surf


def png_bytes(surf) -> bytes:  # type: ignore[no-untyped-def]
    import pygame

    buf = io.BytesIO()
    pygame.image.save(surf, buf, "icon.png")
    return buf.getvalue()


def _bmp_entry(surf) -> bytes:  # type: ignore[no-untyped-def]
    """An ICO's BMP image: a BITMAPINFOHEADER of twice the height (colour and mask), 32-bit BGRA rows
    bottom up, then the 1-bit AND mask (all zero: the alpha channel does the masking)."""
    import pygame

    w, h = surf.get_size()
    pixels = bytearray(pygame.image.tobytes(surf, "RGBA", True))  # flipped: bottom row first
    pixels[0::4], pixels[2::4] = pixels[2::4], pixels[0::4]  # RGBA -> BGRA
    mask = bytes(((w + 31) // 32) * 4 * h)
    header = struct.pack("<IiiHHIIiiII", 40, w, h * 2, 1, 32, 0, len(pixels) + len(mask), 0, 0, 0, 0)
    return header + bytes(pixels) + mask


def ico_bytes(images: dict[int, bytes]) -> bytes:
    """An .ico file from {size: image data} (BMP entry or PNG)."""
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    data = b""
    for size, blob in sorted(images.items()):
        side = 0 if size >= 256 else size  # 0 means 256
        out += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(blob), offset + len(data))
        data += blob
    return out + data


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """An .icns file: 'icns', the total length, then (type, length, PNG) for each entry."""
    body = b"".join(struct.pack(">4sI", kind, 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES)
    return struct.pack(">4sI", b"icns", 8 + len(body)) + body


def make_icons(out: Path) -> list[Path]:
    """Write every icon file into `out`; returns their paths."""
    _init_pygame()
    out.mkdir(parents=True, exist_ok=True)
    sizes = sorted({*PNG_SIZES, *ICO_SIZES, *(s for _, s in ICNS_TYPES)})
    surfaces = {s: draw_icon(s) for s in sizes}
    pngs = {s: png_bytes(surf) for s, surf in surfaces.items()}
    written = []
    for s in PNG_SIZES:
        path = out / f"cribtiles-{s}.png"
        path.write_bytes(pngs[s])
        written.append(path)
    ico = {s: pngs[s] if s >= 256 else _bmp_entry(surfaces[s]) for s in ICO_SIZES}
    for name, blob in (("cribtiles.ico", ico_bytes(ico)), ("cribtiles.icns", icns_bytes(pngs))):
        (out / name).write_bytes(blob)
        written.append(out / name)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder for the icons (default {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    for path in make_icons(args.out):
        print(f"  {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
