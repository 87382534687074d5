"""Winning streaks extended by new finished matches, without a database (stats.extended_streaks)."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scoring.matches.stats import extended_streaks, streaks

EIGHT = datetime(2025, 3, 7, 20, 0, tzinfo=UTC)


def _at(minutes: int, match: int, won: bool) -> tuple[datetime, int, bool]:
    return (EIGHT + timedelta(minutes=minutes), match, won)


def test_new_matches_after_the_latest_extend_the_streaks_in_finishing_order() -> None:
    latest = _at(0, 5, True)
    # Given out of order: counted in the order they finished.
    changes = [(None, _at(20, 8, False)), (None, _at(10, 7, True))]
    assert extended_streaks((3, 2), latest, changes) == (3, 0)
    assert extended_streaks((3, 2), latest, changes[1:]) == (3, 3)
    assert extended_streaks((0, 0), None, [(None, _at(0, 1, True))]) == (1, 1)
    # Finished at the same time as the latest: after it when its match is newer.
    assert extended_streaks((1, 0), _at(0, 5, False), [(None, _at(0, 6, True))]) == (1, 1)


def test_anything_but_new_later_matches_asks_for_a_count_from_scratch() -> None:
    latest = _at(10, 5, True)
    moved = [(_at(0, 3, True), _at(0, 3, False))]
    dropped = [(_at(0, 3, True), None)]
    earlier = [(None, _at(0, 4, True))]
    same_time_older_match = [(None, _at(10, 4, True))]
    no_time = [(None, (None, 9, True))]
    for changes in (moved, dropped, earlier, same_time_older_match, no_time):
        assert extended_streaks((2, 1), latest, changes) is None
    assert extended_streaks((2, 1), (None, 5, True), [(None, _at(20, 9, True))]) is None


@given(st.lists(st.booleans(), max_size=12), st.lists(st.booleans(), min_size=1, max_size=6))
def test_extending_counts_what_counting_every_match_counts(
    before: list[bool], after: list[bool]
) -> None:
    entries = [_at(minute, minute + 1, won) for minute, won in enumerate(before + after)]
    latest = entries[len(before) - 1] if before else None
    added = [(None, entry) for entry in reversed(entries[len(before) :])]
    assert extended_streaks(streaks(before), latest, added) == streaks(before + after)
