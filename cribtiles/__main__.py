"""`python -m cribtiles`: the same as the `cribtiles` command."""

if __name__ == "__main__":  # not when a bot's worker process imports this module
    try:
        from cribtiles.app.main import main
    except KeyboardInterrupt:  # Ctrl-C while the game is still loading: nothing to save yet
        raise SystemExit(130) from None
    except MemoryError:  # a memory limit too low to load the game: one line, as main() says it
        import sys

        print("cribtiles: out of memory while loading (a limit such as ulimit -v?): stopped", file=sys.stderr)
        raise SystemExit(1) from None
    raise SystemExit(main())
