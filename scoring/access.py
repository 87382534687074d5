"""Who may see and change what: the one place that knows about circles and roles.

Every private view is `@scoped`: it needs a login and gets `request.scope`, the account in its
current circle. Lists start from `scope.matches()`, `scope.players()` and `scope.events()`; a
match, player or event named in the URL comes from `scope.match(pk)` / `scope.player(pk)` /
`scope.event(pk)`, which find it in any circle of the
account (and make that circle the current one), answer 404 when the account is not a member of
its circle (a removed member included, at once), and 403 when the member lacks the role
(`admin=True`). A circle named in the URL comes from `scope.circle_membership(pk)`, with the same
answers. New things are made with `**scope.stamp()`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from scoring import locks
from scoring.models import Circle, Event, Match, Membership, Player

SESSION_KEY = "circle"
ADMIN = Membership.Role.ADMIN

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def personal_circle_name(username: str) -> str:
    """A new account's own circle, named as a person would name it ("ana’s circle"), in the
    language the account was made in; its admin may rename it."""
    return (_("%(name)s’s circle") % {"name": username[:45]})[:60]


def personal_circle(user: User) -> Circle:
    """The account's own circle, made when first needed (accounts are given one when made)."""
    circle = Circle.objects.filter(personal_for=user).first()
    if circle is None:
        with transaction.atomic():
            circle, _made = Circle.objects.get_or_create(
                personal_for=user, defaults={"name": personal_circle_name(user.get_username())}
            )
            Membership.objects.get_or_create(circle=circle, user=user, defaults={"role": ADMIN})
    return circle


def _role_of(user: User) -> Subquery:
    """The account's role in the circle of the row (null when not a member)."""
    return Subquery(
        Membership.objects.filter(circle=OuterRef("circle_id"), user=user).values("role")[:1]
    )


class Scope:
    """The signed-in account in its current circle (kept in the session; the personal circle
    when none is chosen or the account has left the one chosen)."""

    # A match reached through its scoring link rather than a membership (`linked` views).
    via_link = False

    def __init__(self, user: User, session: Any = None) -> None:
        self.user = user
        self._session = session if session is not None else {}
        self.link: LinkScope | None = None  # set by `linked` views

    @property
    def author(self) -> User:
        """Who a hand saved here is entered by."""
        return self.user

    @cached_property
    def membership(self) -> Membership:
        chosen = self._session.get(SESSION_KEY)
        memberships = Membership.objects.select_related("circle").filter(user=self.user)
        membership = memberships.filter(circle_id=chosen).first() if chosen else None
        if membership is None:
            circle = personal_circle(self.user)
            membership = memberships.get(circle=circle)
            self._remember(circle.pk)
        return membership

    @property
    def circle(self) -> Circle:
        return self.membership.circle

    @property
    def known_circle(self) -> Circle | None:
        """The current circle when this request has read it already (no query), else None."""
        membership = self.__dict__.get("membership")
        return membership.circle if membership is not None else None

    @property
    def role(self) -> str:
        return self.membership.role

    @property
    def is_admin(self) -> bool:
        """An admin of the current circle (never on a match reached through its scoring link)."""
        return not self.via_link and self.role == ADMIN

    def _remember(self, circle_id: int) -> None:
        if self._session.get(SESSION_KEY) != circle_id:
            self._session[SESSION_KEY] = circle_id

    def _enter(self, circle: Circle, role: str) -> None:
        """Make `circle` the current one (an object of it was opened)."""
        current = self.__dict__.get("membership")
        if current is None or current.circle_id != circle.pk or current.role != role:
            membership = Membership(circle=circle, user=self.user, role=role)
            membership.circle = circle
            self.__dict__["membership"] = membership
        self._remember(circle.pk)

    def switch(self, circle_id: int) -> Circle:
        """Make another circle of the account's the current one (404 if not a member)."""
        membership = self.circle_membership(circle_id)
        self.__dict__["membership"] = membership
        self._remember(membership.circle_id)
        return membership.circle

    # --- the account's circles -----------------------------------------------------------------

    def memberships(self) -> QuerySet[Membership]:
        """The account's memberships, one per circle it is in (with the circle)."""
        return Membership.objects.filter(user=self.user).select_related("circle")

    def circle_membership(self, circle_id: Any, *, admin: bool = False) -> Membership:
        """The account's membership of a circle named in the URL, the current one or another
        (which this does not make current): 404 when the account is not a member (a removed
        member included, at once), 403 when `admin` and the account is not an admin there."""
        try:
            membership = self.memberships().filter(circle_id=circle_id).first()
        except (ValueError, TypeError, OverflowError):  # past SQLite's integers, too
            raise Http404 from None
        if membership is None:
            raise Http404
        if admin and not membership.is_admin:
            raise PermissionDenied(_("Only an admin of the circle can do that."))
        return membership

    # --- what the current circle holds ----------------------------------------------------------

    def matches(self) -> QuerySet[Match]:
        return Match.objects.filter(circle=self.circle)

    def players(self) -> QuerySet[Player]:
        return Player.objects.filter(circle=self.circle)

    def stamp(self) -> dict[str, Any]:
        """The fields of something new made here."""
        return {"circle": self.circle, "by": self.user}

    def require_admin(self) -> None:
        if not self.is_admin:
            raise PermissionDenied(_("Only an admin of the circle can do that."))

    # --- one object named in the URL, in any of the account's circles ---------------------------

    def _get(self, queryset: QuerySet[Any], pk: Any, admin: bool) -> Any:
        try:
            found = (
                queryset.select_related("circle")
                .annotate(member_role=_role_of(self.user))
                .filter(pk=pk, member_role__isnull=False)
                .get()
            )
        except (queryset.model.DoesNotExist, ValueError, TypeError):
            raise Http404 from None
        self._enter(found.circle, found.member_role)
        if admin:
            self.require_admin()
        return found

    def match(self, pk: Any, *, admin: bool = False, lock: bool = False) -> Match:
        """`lock`: the match's row locked until the caller's transaction ends (a save), after
        its event's when it is a table of one (the lock order, `scoring.locks`)."""
        matches = locks.matches() if lock else Match.objects.all()
        try:
            return self._get(matches, pk, admin)
        except Http404:
            if self.link is None:
                raise
        found = self.link.match(pk, admin=admin, lock=lock)
        self.via_link = True
        return found

    def player(self, pk: Any, *, admin: bool = False) -> Player:
        return self._get(Player.objects.all(), pk, admin)

    def event(self, pk: Any, *, manage: bool = False, lock: bool = False) -> Event:
        """An event (club night) of the account's circles. `manage`: pairing rounds, calling
        time, players in and out, abandoning a table: the circle's admins and the member who
        made the event (403 for the others)."""
        events = Event.objects.select_for_update(of=("self",)) if lock else Event.objects.all()
        # The account's player there ("this is me"), read with it: the page says "your table".
        mine = Membership.objects.filter(circle=OuterRef("circle_id"), user=self.user)
        events = events.annotate(member_player=Subquery(mine.values("player_id")[:1]))
        event = self._get(events, pk, admin=False)
        if manage and not self.organises(event):
            raise PermissionDenied(
                _("Only an admin of the circle or the event's organiser can do that.")
            )
        return event

    def organises(self, event: Event) -> bool:
        """Whether the account may run the event (see `event`)."""
        return self.is_admin or (
            event.created_by_id is not None and event.created_by_id == self.user.pk
        )

    def events(self) -> QuerySet[Event]:
        return Event.objects.filter(circle=self.circle)


LINKS_KEY = "scoring_links"


def link_grant(session: Any, match: Match) -> None:
    """Let this session score `match` through its scoring link (opened with its token)."""
    grants = dict(session.get(LINKS_KEY, {}))
    if grants.get(str(match.pk)) != match.scoring_token:
        grants[str(match.pk)] = match.scoring_token
        session[LINKS_KEY] = grants


class LinkScope:
    """Whoever opened a match's scoring link (signed in or not): that one match, to record, undo
    and fix its hands while it is open; nothing else (no other match, no history, no players,
    no event). The session keeps the token it was opened with: a link turned off, or made
    again with a new token, gives nothing at once."""

    via_link = True
    is_admin = False

    def __init__(self, request: HttpRequest) -> None:
        self.user = request.user
        self._grants: dict[str, str] = request.session.get(LINKS_KEY, {})
        self._writes = request.method not in ("GET", "HEAD")

    @property
    def author(self) -> User | None:
        return self.user if self.user.is_authenticated else None

    def match(self, pk: Any, *, admin: bool = False, lock: bool = False) -> Match:
        token = self._grants.get(str(pk))
        if not token:
            raise Http404
        matches = locks.matches() if lock else Match.objects.all()
        found = matches.filter(pk=pk, scoring_token=token).first()
        if found is None:
            raise Http404
        if admin:
            raise PermissionDenied(_("Only an admin of the circle can do that."))
        if self._writes and not found.is_open:
            raise PermissionDenied(
                _("This match is over: its scoring link can change nothing more.")
            )
        return found

    def event(self, pk: Any, **_kwargs: Any) -> Event:
        raise Http404


def linked(view: View) -> View:
    """A view of one match that the holder of its scoring link may use too (`LinkScope`): a
    member gets `request.scope` as in `scoped` (the link reaching what the membership does
    not), anyone else holding a link gets the link's scope, and without a link it is `scoped`."""
    guarded = scoped(view)

    @functools.wraps(view)
    def entry(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        holds = bool(request.session.get(LINKS_KEY))
        if request.user.is_authenticated:
            scope = scope_of(request)
            if holds:
                scope.link = LinkScope(request)
            request.scope = scope  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)
        if not holds:
            return guarded(request, *args, **kwargs)
        request.scope = LinkScope(request)  # type: ignore[attr-defined]
        return view(request, *args, **kwargs)

    return entry  # type: ignore[return-value]


def scope_of(request: HttpRequest) -> Scope:
    scope = getattr(request, "_scope", None)
    if scope is None:
        scope = Scope(cast(User, request.user), request.session)  # behind login_required
        request._scope = scope  # type: ignore[attr-defined]
    return scope


def scoped(view: View) -> View:
    """A private view: a login is needed, and `request.scope` is the account in its circle.

    Signed out (a session ended), an htmx request is told to take the whole page to the login
    (HX-Redirect, back to the page it came from): htmx would follow a plain redirect and swap the
    login page into the part it asked for (a board's poll, a hand's form)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        request.scope = scope_of(request)  # type: ignore[attr-defined]
        return view(request, *args, **kwargs)

    guarded = login_required(wrapper)

    @functools.wraps(view)
    def entry(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.headers.get("HX-Request") and not request.user.is_authenticated:
            login = redirect_to_login(_page_of(request))["Location"]
            return HttpResponse(status=401, headers={"HX-Redirect": login})
        return guarded(request, *args, **kwargs)

    return entry  # type: ignore[return-value]


def _page_of(request: HttpRequest) -> str:
    """The page an htmx request was made from (its path on this site), else the request's."""
    current = urlsplit(request.headers.get("HX-Current-URL", ""))
    if current.path and current.netloc == request.get_host():
        return current.path
    return request.path
