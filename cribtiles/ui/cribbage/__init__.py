"""Classic cribbage in the window: its scene, layout, drawing and cards, the setup, the tutorial, the autopilot."""
