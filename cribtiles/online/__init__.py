"""Playing over a network, the client's side: the protocol's messages (`protocol`), a connection that
comes back by itself (`client`), the sessions a window or a script drives over it (`remote`,
`cribbage_remote`), and a headless bot that fills a seat (`botclient`; each game's move is its own,
`tiles_seat`, `cribbage_seat`). No pygame; the server is `cribtiles.server` (issue 31)."""
