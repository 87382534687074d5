"""A won-lost record: how many played and how many won, and what follows from them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    played: int
    won: int

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None
