"""The game window: everything that uses pygame (the loop, scenes, drawing, drag and drop, sound).

The only package that imports pygame; it uses the rules and the bots, and the app wires it up.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
