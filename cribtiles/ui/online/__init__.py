"""Playing online from the window: the Online screen (host, connect, find on the network), creating a
table and showing its code, joining with a code, and the list of your online games (issue 31)."""
