"""What a server process counts for its operators (issue 46), written in Prometheus's text format at
`/metrics`: tables in memory by phase, connections, acknowledged changes, the store's writes (their time,
their failures, tables lost to another process) and the time to answer a message. Plain counters and
fixed-bucket histograms, no library: a scrape reads a few hundred bytes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: Upper bounds (seconds) of the histograms' buckets: a store write on loopback takes well under a
#: millisecond, a loaded server's answer up to seconds.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


@dataclass
class Histogram:
    """Observed durations, counted in cumulative buckets as Prometheus reads them."""

    counts: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total: float = 0.0
    observed: int = 0

    def observe(self, seconds: float) -> None:
        self.total += seconds
        self.observed += 1
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.counts[i] += 1
                break

    def lines(self, name: str) -> Iterable[str]:
        cumulative = 0
        for bound, count in zip(BUCKETS, self.counts, strict=True):
            cumulative += count
            yield f'{name}_bucket{{le="{bound:g}"}} {cumulative}'
        yield f'{name}_bucket{{le="+Inf"}} {self.observed}'
        yield f"{name}_sum {self.total:.6f}"
        yield f"{name}_count {self.observed}"


@dataclass
class Metrics:
    """The counts of one server process."""

    connections: int = 0
    store_errors: int = 0
    tables_lost: int = 0  # to another process (a lease run out)
    store_writes: Histogram = field(default_factory=Histogram)
    answers: Histogram = field(default_factory=Histogram)

    def text(self, tables: dict[str, int], moves: int) -> str:
        """The whole page: `tables` in memory by phase, `moves` acknowledged changes so far.

        >>> print(Metrics(connections=2).text({"playing": 1}, 5).splitlines()[2])
        cribtiles_tables{phase="playing"} 1
        """
        out = [
            "# HELP cribtiles_tables Tables this process holds in memory, by phase.",
            "# TYPE cribtiles_tables gauge",
        ]
        out += [f'cribtiles_tables{{phase="{phase}"}} {n}' for phase, n in sorted(tables.items())]
        out += _one("connections", "gauge", "Open WebSocket connections.", self.connections)
        out += _one("moves_total", "counter", "Changes of a table kept and acknowledged.", moves)
        out += _one(
            "store_errors_total", "counter", "Changes the store could not keep (not acknowledged).", self.store_errors
        )
        out += _one(
            "tables_lost_total", "counter", "Tables another process took over (a lease run out).", self.tables_lost
        )
        out += [
            "# HELP cribtiles_store_write_seconds Time to keep one change.",
            "# TYPE cribtiles_store_write_seconds histogram",
        ]
        out += self.store_writes.lines("cribtiles_store_write_seconds")
        out += [
            "# HELP cribtiles_answer_seconds Time to answer one message.",
            "# TYPE cribtiles_answer_seconds histogram",
        ]
        out += self.answers.lines("cribtiles_answer_seconds")
        return "\n".join(out) + "\n"


def _one(name: str, kind: str, words: str, value: int) -> list[str]:
    return [f"# HELP cribtiles_{name} {words}", f"# TYPE cribtiles_{name} {kind}", f"cribtiles_{name} {value}"]
