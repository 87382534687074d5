"""Player statistics kept up to date, so that the player and head-to-head pages read a few rows
instead of aggregating a whole history on every request.

One function keeps them: `player_summaries_refresh(matches)`, called after anything changes a
match (its hands, totals, status, or who sits at it). It reads the matches' current state, compares
it with what the statistics last counted for them (`PlayerMatchStat`, one row per player and
match) and applies the difference to the per-player totals (`PlayerStat`, `PlayerRecordStat`,
`PlayerPairStat`). Calling it again changes nothing, so a second call is harmless. The work is
proportional to the matches given, not to the history, except when a winning streak has to be
counted again (a match that finished before the player's latest one changed result).

`player_summaries_rebuild(circle)` starts over from the stored matches (data migration, bulk
writes, `manage.py stats_rebuild`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from scoring.matches.inserts import insert_rows
from scoring.models import (
    Circle,
    Match,
    PlayerMatchStat,
    PlayerPairStat,
    PlayerRecordStat,
    PlayerStat,
    Seat,
    Side,
    Tally,
)
from scoring.web.chunks import chunked

WON = Match.Status.WON
OPEN = (Match.Status.PLAYING, Match.Status.TIED)

# Summed into PlayerStat as they are.
COUNTERS = (
    "hands",
    "points",
    "most_cards",
    "most_spades",
    "big_casino",
    "little_casino",
    "aces_points",
    "sweeps",
    # Swedish Kasino's last capture and Spade Casino's J♠, each over its variant's hands:
    "swedish_hands",
    "last_capture",
    "spade_hands",
    "jack_of_spades",
)
# What a PlayerMatchStat row holds besides its player and match.
LINE_FIELDS = (
    "side_id",
    "variant",
    "layout",
    "status",
    "won",
    "created_at",
    "finished_at",
    "gained",
    *COUNTERS,
)
PAIR_FIELDS = ("partner_played", "partner_won", "opposed", "against_played", "against_won")
RECORD_FIELDS = ("played", "won")

# Matches read per query: SQLite refuses IN lists of about a thousand ids.
CHUNK = 200
# Player or row ids per IN list when reading, locking or deleting rows (same reason).
IDS_PER_QUERY = 500

Key = tuple[int, int]  # (player pk, match pk)
Finish = tuple[datetime | None, int, bool]  # when it finished, match pk, won: a streak entry
# A change to one of a player's streak entries: (before, after), None for no entry.
StreakChange = tuple[Finish | None, Finish | None]


def player_summaries_refresh(matches: Match | int | Iterable[Match | int]) -> None:
    """Bring the statistics of `matches` (match objects or pks) and of their players up to date.

    Call it after every change to a match, inside the same transaction, with the match rows
    already written (a new match, a hand recorded, changed or deleted, a match abandoned, seats
    moved to another player). Deleting a match deletes its PlayerMatchStat rows with it, without
    taking it out of the totals: after deleting matches, call `player_summaries_rebuild`.
    """
    if isinstance(matches, Match | int):
        matches = [matches]
    pks = sorted({match.pk if isinstance(match, Match) else int(match) for match in matches})
    if not pks:
        return
    # Without a savepoint of its own: a failure here fails the caller's whole change.
    with transaction.atomic(savepoint=False):
        diff = _StatsDiff()
        for start in range(0, len(pks), CHUNK):
            diff.add(pks[start : start + CHUNK])
        diff.apply()


def player_summaries_rebuild(circle: Circle | None = None) -> None:
    """Count the statistics of the circle's players (everyone's without one) from scratch."""
    with transaction.atomic():
        models = (PlayerMatchStat, PlayerStat, PlayerRecordStat, PlayerPairStat)
        matches = Match.objects.order_by("pk")
        if circle is None:
            for model in models:
                model.objects.all().delete()
        else:
            for model in models:
                model.objects.filter(player__circle=circle).delete()
            matches = matches.filter(circle=circle)
        player_summaries_refresh(matches.values_list("pk", flat=True))


# What of a tally the statistics count (_counts).
TALLY_FIELDS = (
    "points",
    "cards_points",
    "spades_points",
    "big_casino",
    "little_casino",
    "aces_points",
    "sweeps",
    "last_capture",
    "jack_of_spades",
)


def _counts(values: Sequence[Any], variant: str) -> dict[str, int]:
    """What one hand's tally (TALLY_FIELDS, in order) adds to its players' COUNTERS."""
    points, cards, spades, big, little, aces, sweeps, last, jack = values
    return {
        "hands": 1,
        "points": points,
        "most_cards": int(cards > 0),
        # Spade Casino scores every spade, not most spades.
        "most_spades": int(spades > 0 and variant != Match.Variant.SPADE),
        "big_casino": int(big),
        "little_casino": int(little),
        "aces_points": aces,
        "sweeps": sweeps,
        "swedish_hands": int(variant == Match.Variant.SWEDISH),
        "last_capture": int(last),
        "spade_hands": int(variant == Match.Variant.SPADE),
        "jack_of_spades": int(jack),
    }


def hand_appended(
    match: Match,
    sides: Sequence[Side],
    tallies: Sequence[Tally],
    seats: Sequence[tuple[int, int]],
    status_before: str,
) -> None:
    """Count the hand just added to an open match that is still open: its tallies added to the
    match's lines and to its players' totals, in two set-based statements (the refresh's
    result, without reading what it would compare). `seats`: (player pk, side pk) of each
    seat. When the match has finished, or its lines are not all there, this is the whole
    refresh."""
    if match.status not in OPEN or status_before not in OPEN:
        player_summaries_refresh(match)
        return
    with transaction.atomic(savepoint=False):
        counts = {
            tally.side_id: _counts([getattr(tally, name) for name in TALLY_FIELDS], match.variant)
            for tally in tallies
        }
        gained = {side.pk: side.total - side.start_total for side in sides}
        # A side's total moved by the hand's points.
        before = {side: gained[side] - counts[side]["points"] for side in gained}
        if _add_hand(match, seats, counts, gained, match.status, +1):
            return
        # Some line or total is missing (never counted): put back what was added, count anew.
        _add_hand(match, seats, counts, before, status_before, -1)
        player_summaries_refresh(match)


def _add_hand(
    match: Match,
    seats: Sequence[tuple[int, int]],
    counts: dict[int, dict[str, int]],
    gained: dict[int, int],
    status: str,
    sign: int,
) -> bool:
    """Add (sign +1) or take back (-1) one hand's counts: whether every line and total was there.

    Written out as SQL: the ORM's Case/When for a dozen columns costs more to build than the
    statements cost to run."""

    def by(column: str, keys: dict[int, int], default: str = "0") -> tuple[str, list[int]]:
        whens = " ".join("WHEN %s THEN %s" for _ in keys)
        return f"CASE {column} {whens} ELSE {default} END", [
            v for pair in keys.items() for v in pair
        ]

    def counters(column: str, keyed: dict[int, dict[str, int]]) -> tuple[list[str], list[Any]]:
        parts, params = [], []
        for name in COUNTERS:
            case, values = by(column, {key: sign * c[name] for key, c in keyed.items()})
            parts.append(f"{name} = {name} + {case}")
            params += values
        return parts, params

    gain, gain_params = by("side_id", gained, "gained")
    parts, params = counters("side_id", counts)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {PlayerMatchStat._meta.db_table} SET status = %s, gained = {gain}, "
            f"{', '.join(parts)} WHERE match_id = %s",
            [status, *gain_params, *params, match.pk],
        )
        lines = cursor.rowcount
        players = {player: counts[side] for player, side in seats}
        parts, params = counters("player_id", players)
        marks = ", ".join("%s" for _ in players)
        cursor.execute(
            f"UPDATE {PlayerStat._meta.db_table} SET {', '.join(parts)} "
            f"WHERE player_id IN ({marks})",
            [*params, *players],
        )
        totals = cursor.rowcount
    return lines == totals == len(seats)


# What _match_stat_rows reads of each seat, in the order _stat_row takes it.
SEAT_FIELDS = (
    "player_id",
    "match_id",
    "side_id",
    "side__position",
    "side__total",
    "side__start_total",
    "match__variant",
    "match__layout",
    "match__status",
    "match__winner_position",
    "match__created_at",
    "match__finished_at",
)


def _match_stat_rows(pks: Sequence[int]) -> dict[Key, PlayerMatchStat]:
    """What the matches count for each of their players now."""
    sums_by_side = _counter_sums_by_side(pks)
    rows = {}
    for seat in Seat.objects.filter(match_id__in=pks).values_list(*SEAT_FIELDS):
        row = _stat_row(seat, sums_by_side)
        rows[row.player_id, row.match_id] = row
    return rows


def _counter_sums_by_side(pks: Sequence[int]) -> dict[int, dict[str, int]]:
    """The COUNTERS of the matches' tallies, summed by side."""
    # Summed here rather than by the database: for the few tallies of a match or two (after
    # every hand) the query is the cost, and a plain one is cheaper to build than aggregates.
    by_side: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
    # No order (Tally's default joins the hand and the match to sort): on PostgreSQL, with the
    # planner's counts behind a bulk of new rows (a fresh database, an import, the demo), the
    # sorted join ran as nested loops: 107 s for 200 matches, 0.15 s without it.
    tallies = (
        Tally.objects.filter(side__match_id__in=pks)
        .order_by()
        .values_list("side_id", *TALLY_FIELDS, "side__match__variant")
    )
    for side_id, *values, variant in tallies.iterator(chunk_size=5000):
        sums = by_side[side_id]
        for name, count in _counts(values, variant).items():
            sums[name] += count
    return by_side


def _stat_row(seat: Sequence[Any], sums_by_side: dict[int, dict[str, int]]) -> PlayerMatchStat:
    """The unsaved PlayerMatchStat of one seat (SEAT_FIELDS, in order)."""
    (
        player_id,
        match_id,
        side_id,
        position,
        total,
        start_total,
        variant,
        layout,
        status,
        winner,
        created_at,
        finished_at,
    ) = seat
    sums = sums_by_side.get(side_id) or dict.fromkeys(COUNTERS, 0)
    return PlayerMatchStat(
        player_id=player_id,
        match_id=match_id,
        side_id=side_id,
        variant=variant,
        layout=layout,
        status=status,
        won=status == WON and position == winner,
        created_at=created_at,
        finished_at=finished_at,
        gained=total - start_total,
        **sums,
    )


def _line_values(line: PlayerMatchStat) -> tuple[Any, ...]:
    return tuple(getattr(line, name) for name in LINE_FIELDS)


def _streak_entry(line: PlayerMatchStat | None) -> Finish | None:
    """The line's entry in its player's sequence of finished matches, or None."""
    if line is None or line.status != WON:
        return None
    return (line.finished_at, line.match_id, line.won)


def _pairs(lines: Iterable[PlayerMatchStat]) -> Iterator[tuple[tuple[int, int], tuple[int, ...]]]:
    """What one match counts for each ordered pair of its players (PAIR_FIELDS)."""
    lines = list(lines)
    for line in lines:
        finished = line.status == WON
        for other in lines:
            if other.player_id == line.player_id:
                continue
            won = int(finished and line.won)
            if other.side_id == line.side_id:
                yield (line.player_id, other.player_id), (int(finished), won, 0, 0, 0)
            else:
                yield (line.player_id, other.player_id), (0, 0, 1, int(finished), won)


class _StatsDiff:
    """One refresh: differences gathered chunk by chunk, applied once at the end."""

    def __init__(self) -> None:
        self.stats: dict[int, PlayerStat] = {}  # locked, by player pk
        self.counters: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
        self.in_progress: dict[int, int] = defaultdict(int)
        self.records: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0] * 5)
        # Streaks: the changed entries of each player's finished matches, and the latest entry
        # the player had before this refresh (read before the first change is written).
        self.finishes: dict[int, list[StreakChange]] = defaultdict(list)
        self.latest_before: dict[int, Finish | None] = {}

    def add(self, pks: Sequence[int]) -> None:
        """Gather what changed in these matches' rows, and write their PlayerMatchStat rows."""
        old = {
            (line.player_id, line.match_id): line
            for line in PlayerMatchStat.objects.filter(match_id__in=pks)
        }
        new = _match_stat_rows(pks)
        changed = _changed_keys(old, new)
        if not changed:
            return
        matches = {match for _, match in changed}
        self._lock({player for player, match in old.keys() | new.keys() if match in matches})
        for key in changed:
            self._count(old.get(key), -1)
            self._count(new.get(key), +1)
        self._count_pairs(old, new, matches)
        self._note_finishes(old, new, changed)
        _write_match_stat_rows(old, new, changed)

    def _lock(self, players: set[int]) -> None:
        """Lock (creating them if new) the players' PlayerStat rows, in pk order: concurrent
        refreshes of matches sharing a player take turns."""
        wanted = players - self.stats.keys()
        if not wanted:
            return
        for some in chunked(sorted(wanted), IDS_PER_QUERY):
            found = PlayerStat.objects.select_for_update().filter(pk__in=some).order_by("pk")
            self.stats.update((stat.pk, stat) for stat in found)
        missing = wanted - self.stats.keys()
        if missing:
            PlayerStat.objects.bulk_create(
                [PlayerStat(player_id=player) for player in missing], ignore_conflicts=True
            )
            for some in chunked(sorted(missing), IDS_PER_QUERY):
                found = PlayerStat.objects.select_for_update().filter(pk__in=some).order_by("pk")
                self.stats.update((stat.pk, stat) for stat in found)

    def _count(self, line: PlayerMatchStat | None, sign: int) -> None:
        if line is None:
            return
        counters = self.counters[line.player_id]
        for name in COUNTERS:
            counters[name] += sign * getattr(line, name)
        if line.status in OPEN:
            self.in_progress[line.player_id] += sign
        if line.status == WON:
            record = self.records[line.player_id, line.variant, line.layout]
            record[0] += sign
            record[1] += sign * line.won

    def _count_pairs(
        self,
        old: dict[Key, PlayerMatchStat],
        new: dict[Key, PlayerMatchStat],
        matches: set[int],
    ) -> None:
        for lines, sign in ((old, -1), (new, +1)):
            by_match: dict[int, list[PlayerMatchStat]] = defaultdict(list)
            for (_, match), line in lines.items():
                if match in matches:
                    by_match[match].append(line)
            for match_lines in by_match.values():
                for pair, values in _pairs(match_lines):
                    counts = self.pairs[pair]
                    for index, value in enumerate(values):
                        counts[index] += sign * value

    def _note_finishes(
        self,
        old: dict[Key, PlayerMatchStat],
        new: dict[Key, PlayerMatchStat],
        changed: set[Key],
    ) -> None:
        for key in changed:
            before, after = _streak_entry(old.get(key)), _streak_entry(new.get(key))
            if before == after:
                continue
            player = key[0]
            if player not in self.latest_before:
                # Nothing of this player's finished matches was written yet in this refresh.
                latest = (
                    PlayerMatchStat.objects.filter(player_id=player, status=WON)
                    .order_by("-finished_at", "-match_id")
                    .values_list("finished_at", "match_id", "won")
                    .first()
                )
                self.latest_before[player] = latest
            self.finishes[player].append((before, after))

    def apply(self) -> None:
        """Write the gathered differences to the players' totals, records and pairs."""
        self._streaks()
        for player in self.counters.keys() | self.finishes.keys():
            stat = self.stats[player]
            for name, delta in self.counters.get(player, {}).items():
                setattr(stat, name, getattr(stat, name) + delta)
            stat.in_progress += self.in_progress.get(player, 0)
            _update_counters(stat, [*COUNTERS, "in_progress", "longest_streak", "current_streak"])
        self._add_rows(
            PlayerRecordStat,
            ("player_id", "variant", "layout"),
            RECORD_FIELDS,
            self.records,
        )
        self._add_rows(PlayerPairStat, ("player_id", "other_id"), PAIR_FIELDS, self.pairs)

    def _streaks(self) -> None:
        """Extend the streaks of players whose new finished matches all come after their
        previous ones; count again, from the stored rows, those of every other player."""
        again = []
        for player, changes in self.finishes.items():
            stat = self.stats[player]
            extended = extended_streaks(
                (stat.longest_streak, stat.current_streak), self.latest_before[player], changes
            )
            if extended is None:
                again.append(player)
            else:
                stat.longest_streak, stat.current_streak = extended
        self._count_streaks_again(again)

    def _count_streaks_again(self, players: Iterable[int]) -> None:
        """The players' streaks counted from all their stored finished matches."""
        for some in chunked(sorted(players), IDS_PER_QUERY):
            results: dict[int, list[bool]] = {player: [] for player in some}
            rows = (
                PlayerMatchStat.objects.filter(player_id__in=some, status=WON)
                .order_by("player_id", "finished_at", "match_id")
                .values_list("player_id", "won")
            )
            for player, won in rows.iterator(chunk_size=2000):
                results[player].append(won)
            for player, outcomes in results.items():
                stat = self.stats[player]
                stat.longest_streak, stat.current_streak = streaks(outcomes)

    @staticmethod
    def _add_rows(
        model: type[PlayerRecordStat] | type[PlayerPairStat],
        keys: tuple[str, ...],
        fields: tuple[str, ...],
        deltas: dict[Any, list[int]],
    ) -> None:
        """Add the `deltas` (by the values of `keys`) to the model's `fields`: rows created
        when new, deleted when they are left counting nothing."""
        deltas = {key: values for key, values in deltas.items() if any(values)}
        if not deltas:
            return
        existing = _rows_by_key(model, keys, {key[0] for key in deltas})
        created: list[Any] = []
        emptied: list[int] = []
        for key, values in deltas.items():
            row = existing.get(key)
            if row is None:
                row = model(**dict(zip(keys, key, strict=True)))
                _add_deltas(row, fields, values)
                created.append(row)
            elif _add_deltas(row, fields, values):
                _update_counters(row, fields)
            else:
                emptied.append(row.pk)  # nothing left to count: as if never counted
        for some in chunked(sorted(emptied), IDS_PER_QUERY):
            model.objects.filter(pk__in=some).delete()
        model.objects.bulk_create(created, batch_size=500)


def _changed_keys(old: dict[Key, PlayerMatchStat], new: dict[Key, PlayerMatchStat]) -> set[Key]:
    """The (player, match) keys whose PlayerMatchStat row is new, gone or different."""
    return {
        key
        for key in old.keys() | new.keys()
        if key not in old or key not in new or _line_values(old[key]) != _line_values(new[key])
    }


def _write_match_stat_rows(
    old: dict[Key, PlayerMatchStat], new: dict[Key, PlayerMatchStat], changed: set[Key]
) -> None:
    """Store the `changed` rows as they are in `new`: deleted, updated or inserted."""
    PlayerMatchStat.objects.filter(pk__in=[old[key].pk for key in changed - new.keys()]).delete()
    for key in changed & old.keys() & new.keys():
        before, after = old[key], new[key]
        PlayerMatchStat.objects.filter(pk=before.pk).update(
            **{
                name: getattr(after, name)
                for name in LINE_FIELDS
                if getattr(after, name) != getattr(before, name)
            }
        )
    insert_rows(PlayerMatchStat, (new[key] for key in changed - old.keys()))


def _rows_by_key(
    model: type[PlayerRecordStat] | type[PlayerPairStat],
    keys: tuple[str, ...],
    players: Iterable[int],
) -> dict[tuple[Any, ...], Any]:
    """The players' rows of the model, by the values of `keys`."""
    return {
        tuple(getattr(row, name) for name in keys): row
        for some in chunked(sorted(players), IDS_PER_QUERY)
        for row in model.objects.filter(player_id__in=some)
    }


def _add_deltas(
    row: PlayerRecordStat | PlayerPairStat, fields: Sequence[str], deltas: Sequence[int]
) -> bool:
    """Add the `deltas` to the row's `fields`; whether the row still counts anything."""
    for name, delta in zip(fields, deltas, strict=True):
        setattr(row, name, getattr(row, name) + delta)
    return any(getattr(row, name) for name in fields)


def _update_counters(
    row: PlayerStat | PlayerRecordStat | PlayerPairStat, fields: Sequence[str]
) -> None:
    """One UPDATE of the row's counters (a few rows per refresh: cheaper than bulk_update)."""
    type(row).objects.filter(pk=row.pk).update(**{name: getattr(row, name) for name in fields})


def extended_streaks(
    streaks_before: tuple[int, int],
    latest_before: Finish | None,
    changes: Sequence[StreakChange],
) -> tuple[int, int] | None:
    """A player's (longest, current) streaks after `changes` to the entries of their finished
    matches, from the streaks they had and the latest entry they had before; None when the
    changes do not only append entries (the streaks are then counted again from all the
    player's finished matches: `streaks`)."""
    added = _appended_entries(latest_before, changes)
    if added is None:
        return None
    longest, current = streaks_before
    for _, _, won in sorted(added):
        current = current + 1 if won else 0
        longest = max(longest, current)
    return longest, current


def _appended_entries(
    latest_before: Finish | None, changes: Sequence[StreakChange]
) -> list[Finish] | None:
    """The entries the changes add, when each adds a new one that finished after
    `latest_before`; None when one moves or drops an entry, or has no finishing time."""
    if any(before is not None for before, _ in changes):
        return None
    added = [after for _, after in changes if after is not None]
    if any(entry[0] is None for entry in added):
        return None
    if latest_before is not None and (latest_before[0] is None or min(added) <= latest_before):
        return None
    return added


def streaks(results: Iterable[bool]) -> tuple[int, int]:
    """The longest run of wins and the run the results end with."""
    longest = run = 0
    for won in results:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return longest, run
