"""Skill ratings with openskill's Plackett-Luce model: pure functions, no Django.

Plackett-Luce rates teams of any size in a ranked finish, so 2-player, 3-player and partnership
matches all update ratings the same way; a partnership's result counts for both partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
DEFAULT_MU = _MODEL.mu
DEFAULT_SIGMA = _MODEL.sigma


class Skill(NamedTuple):
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def rating(self) -> float:
        """The conservative estimate shown to players (mu - 3 sigma): starts at 0 and grows."""
        return self.mu - 3 * self.sigma


def finish_ranks(totals: Sequence[int], winner: int) -> list[int]:
    """Rank 1 for the winner, then the other sides by final total (equal totals share a rank)."""
    ranks = []
    for side, total in enumerate(totals):
        if side == winner:
            ranks.append(1)
        else:
            ahead = sum(1 for other, t in enumerate(totals) if other != winner and t > total)
            ranks.append(2 + ahead)
    return ranks


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills for every player of every team after a finish with these ranks."""
    model_teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    rated = _MODEL.rate(model_teams, ranks=list(ranks))
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]
