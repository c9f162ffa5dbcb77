"""`python -m cribtiles`: the same as the `cribtiles` command."""

if __name__ == "__main__":  # not when a bot's worker process imports this module
    try:
        from cribtiles.app.main import main
    except KeyboardInterrupt:  # Ctrl-C while the game is still loading: nothing to save yet
        raise SystemExit(130) from None
    raise SystemExit(main())
