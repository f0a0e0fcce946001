"""A row of the bench's table: one variant (or library routine) timed."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class Row:
    variant: str
    block: str
    times: list = field(default_factory=list)
    gflops: float | None = None
    gbps: float | None = None  # the inputs' and outputs' bytes, each moved once, a second
    speedup: float | None = None
    check: str = ""

    @property
    def ms(self) -> float:
        return statistics.median(self.times) if self.times else float("nan")

    @property
    def spread(self) -> float:
        return (max(self.times) - min(self.times)) if self.times else float("nan")
