"""`python -m cribtiles`: the same as the `cribtiles` command."""

from cribtiles.app.main import main

raise SystemExit(main())
