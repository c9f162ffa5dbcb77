"""What the text mode and the commands load: never the window's modules (nor pygame)."""

from __future__ import annotations

import subprocess
import sys


def test_the_text_mode_and_the_store_load_no_module_of_the_window() -> None:
    code = (
        "import sys, cribtiles.app.tiles.textgame, cribtiles.app.storage, cribtiles.app.history_cli\n"
        "print(sorted(m for m in sys.modules if m.startswith('cribtiles.ui') or m == 'pygame'))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
