"""Ratings: each player's openskill rating (scoring/engine/rating.py) after every won match of the circle,
in the order the matches finished, and the trend rows the charts draw.

One loop rates matches (`_rate_in_order`); the ways in differ only in where it starts:
- a match won, un-won or won differently (`replay_after_result_change`, from a hand's save):
  replay from the first rating that change affects, from the ratings the players had before it;
- a match deleted (`replay` from its first rating row);
- two players merged (`recompute`: the whole circle from fresh ratings);
- an import (`rate_imported`): its won matches finished now, after every match already rated, so
  they are rated on top of the current ratings without replaying the history they join.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db.models import Count, Min, OuterRef, Q, Subquery, prefetch_related_objects

from scoring.engine import rating
from scoring.models import Circle, Match, Player, PlayerRating, Side
from scoring.web import chunks

RATING_FIELDS = ["rating_mu", "rating_sigma", "rating", "rated_matches"]


def finishing_ranks(match: Match, sides: Sequence[Side]) -> tuple[int, ...] | None:
    """What a won match gives the ratings: each side's finishing rank; None when not won."""
    if match.status != Match.Status.WON or match.winner_position is None:
        return None
    return tuple(rating.finish_ranks([side.total for side in sides], match.winner_position))


def replay_after_result_change(match: Match, *, was_rated: bool) -> None:
    """A match's finishing ranks changed (it was won, un-won, or won differently): replay the
    circle's ratings from the first match whose ratings that affects, in memory."""
    if was_rated:
        cut = PlayerRating.objects.filter(match=match).aggregate(first=Min("pk"))["first"]
    else:
        cut = None
    if match.status == Match.Status.WON:
        finished = match.finished_at
        later = (
            PlayerRating.objects.filter(player__circle_id=match.circle_id)
            .filter(
                Q(match__finished_at__gt=finished)
                | Q(match__finished_at=finished, match__pk__gt=match.pk)
            )
            .aggregate(first=Min("pk"))["first"]
        )
        cut = later if cut is None else min(cut, later or cut)
    replay(circle_id=match.circle_id, from_pk=cut, also=match)


def replay(*, circle_id: int, from_pk: int | None, also: Match | None = None) -> None:
    """Drop the circle's rating rows from `from_pk` on, then rate again, in the order they
    finished, the matches those rows were for and `also` (when won), from the ratings the
    players had before them. Without `from_pk` only `also` is rated (it is the latest)."""
    stale = PlayerRating.objects.filter(player__circle_id=circle_id)
    if from_pk is not None:
        stale = stale.filter(pk__gte=from_pk)
        replayed = set(stale.values_list("match_id", flat=True))
        stale.delete()
    else:
        replayed = set()
    if also is not None and also.status == Match.Status.WON:
        replayed.add(also.pk)
    replayed_matches = Match.objects.filter(pk__in=replayed, status=Match.Status.WON)
    if from_pk is not None:
        players = list(Player.objects.filter(circle_id=circle_id))
    else:
        players = list(Player.objects.filter(seats__match__in=replayed_matches).distinct())
    _ratings_from_rows(players)
    ordered = replayed_matches.order_by("finished_at", "pk")
    # Every player loaded is saved: one whose rows were dropped may have no match left to rate.
    _rate_in_order(
        ordered.iterator(chunk_size=chunks.PREFETCH_CHUNK),
        {player.pk: player for player in players},
        save=players,
    )


def recompute(*, circle: Circle) -> None:
    """Replay every won match of the circle, in the order they finished, into fresh ratings."""
    PlayerRating.objects.filter(player__circle=circle).delete()
    players = list(Player.objects.filter(circle=circle))
    for player in players:
        player.rating_mu, player.rating_sigma = rating.DEFAULT_MU, rating.DEFAULT_SIGMA
        player.rating, player.rated_matches = rating.Skill().rating, 0
    ordered = Match.objects.filter(circle=circle, status=Match.Status.WON).order_by(
        "finished_at", "pk"
    )
    _rate_in_order(
        ordered.iterator(chunk_size=chunks.PREFETCH_CHUNK),
        {player.pk: player for player in players},
        save=players,
    )


def rate_imported(circle: Circle, won: Sequence[Match], now: datetime) -> None:
    """Rate the imported won matches, in file order, from the players' current ratings.

    They finished `now`, after every match already rated, so this is what replaying the circle's
    whole history would give (`recompute`), without replaying it: an import's cost does not grow
    with the history it joins.
    """
    if not won:
        return
    rated = Match.objects.filter(circle=circle, status=Match.Status.WON).exclude(
        pk__in=[match.pk for match in won]
    )
    if rated.filter(finished_at__gt=now).exists():  # a clock that went back: replay it all
        recompute(circle=circle)
        return
    players = {player.pk: player for player in Player.objects.filter(circle=circle)}
    _rate_in_order(won, players)


def _rate_in_order(
    matches: Iterable[Match], players: dict[int, Player], *, save: Iterable[Player] = ()
) -> None:
    """The one rating loop: rate the won `matches` in the order given, from the ratings the
    `players` (every player of those matches, by pk) hold now; then store the trend rows and
    the players whose ratings changed (and those in `save`).

    Matches are read and prefetched a chunk at a time (three queries a chunk), one object per
    player across all of them, so a whole history costs a few queries per hundred matches."""
    rows: list[PlayerRating] = []
    changed = set(save)
    for chunk in chunks.chunked(matches):
        prefetch_related_objects(chunk, "sides", "seats__side")
        for match in chunk:
            for seat in match.seats.all():
                seat.player = players[seat.player_id]
            changed |= _rate_match(match, rows)
    PlayerRating.objects.bulk_create(rows, batch_size=1000)
    Player.objects.bulk_update(sorted(changed, key=lambda p: p.pk), RATING_FIELDS, batch_size=1000)


def _rate_match(match: Match, rows: list[PlayerRating]) -> set[Player]:
    """Update the in-memory ratings of the match's players; append the trend rows."""
    teams = _match_teams(match)
    totals = [side.total for side in sorted(match.sides.all(), key=lambda side: side.position)]
    assert match.winner_position is not None
    skills = rating.rate(
        [[rating.Skill(p.rating_mu, p.rating_sigma) for p in team] for team in teams],
        rating.finish_ranks(totals, match.winner_position),
    )
    changed = set()
    for team, new_skills in zip(teams, skills, strict=True):
        for player, skill in zip(team, new_skills, strict=True):
            player.rating_mu, player.rating_sigma, player.rating = (
                skill.mu,
                skill.sigma,
                skill.rating,
            )
            player.rated_matches += 1
            rows.append(
                PlayerRating(
                    player=player, match=match, mu=skill.mu, sigma=skill.sigma, rating=skill.rating
                )
            )
            changed.add(player)
    return changed


def _match_teams(match: Match) -> list[list[Player]]:
    teams: dict[int, list[Player]] = {}
    for seat in sorted(match.seats.all(), key=lambda seat: seat.seat):
        teams.setdefault(seat.side.position, []).append(seat.player)
    return [teams[position] for position in sorted(teams)]


def _ratings_from_rows(players: Sequence[Player]) -> None:
    """Set each player's rating to their latest stored rating row (the default without one)."""
    latest = PlayerRating.objects.filter(player=OuterRef("pk")).order_by("-pk")
    stored = (
        Player.objects.filter(pk__in=[player.pk for player in players])
        .annotate(
            last_mu=Subquery(latest.values("mu")[:1]),
            last_sigma=Subquery(latest.values("sigma")[:1]),
            last_rating=Subquery(latest.values("rating")[:1]),
            rows=Count("ratings"),
        )
        .values_list("pk", "last_mu", "last_sigma", "last_rating", "rows")
    )
    state = {pk: rest for pk, *rest in stored}
    for player in players:
        mu, sigma, value, count = state[player.pk]
        if count:
            player.rating_mu, player.rating_sigma, player.rating = mu, sigma, value
        else:
            player.rating_mu, player.rating_sigma = rating.DEFAULT_MU, rating.DEFAULT_SIGMA
            player.rating = rating.Skill().rating
        player.rated_matches = count
