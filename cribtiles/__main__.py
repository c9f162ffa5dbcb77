"""`python -m cribtiles`: the same as the `cribtiles` command."""

from cribtiles.app.main import main

if __name__ == "__main__":  # not when a bot's worker process imports this module
    raise SystemExit(main())
