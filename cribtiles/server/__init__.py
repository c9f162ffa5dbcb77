"""The server of online play: the tables it keeps (`rooms`), where it keeps them (`store`), and the
WebSocket front that judges every message (`front`). No pygame; the protocol is `cribtiles.online.protocol`
and `docs/protocol.md` (issue 31)."""
