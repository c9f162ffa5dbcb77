"""Classic cribbage's own part of the application: its command line, `cribtiles cribbage ...`."""
