"""The pure rating helpers (no database)."""

from openskill.models import PlackettLuce

from scoring.engine import rating


def test_winner_ranks_first_and_others_by_total():
    assert rating.finish_ranks([10, 25, 14], winner=1) == [3, 1, 2]
    assert rating.finish_ranks([22, 22, 5, 5], winner=0) == [1, 2, 3, 3]


def test_partnership_result_counts_for_both_partners():
    new = rating.rate([[rating.Skill(), rating.Skill()], [rating.Skill(), rating.Skill()]], [1, 2])
    assert new[0][0] == new[0][1] and new[0][0].mu > rating.DEFAULT_MU > new[1][0].mu


def test_rate_matches_openskill_directly():
    model = PlackettLuce()
    a, b, c = model.rating(mu=30, sigma=5), model.rating(), model.rating(mu=20, sigma=7)
    expected = model.rate([[a], [b], [c]], ranks=[2, 1, 3])
    got = rating.rate([[rating.Skill(30, 5)], [rating.Skill()], [rating.Skill(20, 7)]], [2, 1, 3])
    for (want,), (have,) in zip(expected, got, strict=True):
        assert (have.mu, have.sigma) == (want.mu, want.sigma)
        assert have.rating == want.ordinal()
