"""Circles: making one, renaming it, its members' roles, leaving it, and "this is me" (what the
pages about circles read is scoring/circles/selectors.py).

Who may ask for a change is decided by scoring/access.py; the rules here hold whoever asks: a
circle always keeps an admin, and a personal circle keeps its owner, as an admin. A change to the
members is one transaction that first locks the circle's memberships, so two admins demoting each
other at the same moment cannot leave the circle without one. Each change can be sent again (a
double tap, a retry): it is done once, and the resend finds nothing left to do.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Circle, Membership, Player, Removal

ADMIN = Membership.Role.ADMIN
MEMBER = Membership.Role.MEMBER
NAME_MAX = int(Circle._meta.get_field("name").max_length or 0)


# --- changes -------------------------------------------------------------------------------------


def clean_name(name: str) -> str:
    """A circle's name: trimmed, 1 to 60 characters."""
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the circle a name."), code="required")
    if len(name) > NAME_MAX:
        raise ValidationError(
            _("A circle's name has at most %(limit)d characters.") % {"limit": NAME_MAX},
            code="max_length",
        )
    return name


@transaction.atomic
def circle_create(*, name: str, by: User) -> Circle:
    """A new circle, with the account that made it as its admin."""
    circle = Circle.objects.create(name=clean_name(name))
    Membership.objects.create(circle=circle, user=by, role=ADMIN)
    return circle


@transaction.atomic
def circle_rename(*, circle: Circle, name: str) -> Circle:
    circle.name = clean_name(name)
    circle.save(update_fields=["name"])
    return circle


def _locked_members(circle: Circle) -> list[Membership]:
    """The circle's memberships, locked until the transaction ends."""
    return list(Membership.objects.select_for_update().filter(circle_id=circle.pk).order_by("pk"))


def _keeps_an_admin(members: Sequence[Membership], leaving: Membership) -> bool:
    """Whether the circle still has an admin once `leaving` is no longer one."""
    return any(member.is_admin for member in members if member.pk != leaving.pk)


def _is_owner(circle: Circle, member: Membership) -> bool:
    return circle.personal_for_id is not None and circle.personal_for_id == member.user_id


def _last_admin() -> ValidationError:
    return ValidationError(
        _("A circle always needs an admin: make another member an admin first."),
        code="last_admin",
    )


@transaction.atomic
def member_set_role(*, circle: Circle, member_id: int | None, role: str) -> Membership:
    """Make a member of the circle an admin or a plain member."""
    if role not in Membership.Role.values:
        raise ValidationError(_("Choose a role: admin or member."), code="invalid_role")
    members = _locked_members(circle)
    member = next((member for member in members if member.pk == member_id), None)
    if member is None:
        raise ValidationError(
            _("That account is no longer a member of this circle."), code="not_a_member"
        )
    if member.role == role:
        return member
    if role != ADMIN:
        if _is_owner(circle, member):
            raise ValidationError(
                _("The owner of a personal circle stays its admin."), code="owner"
            )
        if not _keeps_an_admin(members, member):
            raise _last_admin()
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def member_remove(*, circle: Circle, member_id: int | None, by: User) -> Membership | None:
    """Take a member out of the circle: their access ends with their next request. None when
    they are no longer a member (removed already)."""
    members = _locked_members(circle)
    member = next((member for member in members if member.pk == member_id), None)
    if member is None:
        return None
    if member.user_id == by.pk:
        raise ValidationError(
            _("You cannot remove yourself: leave the circle instead."), code="self"
        )
    if _is_owner(circle, member):
        raise ValidationError(
            _("The owner of a personal circle cannot be removed from it."), code="owner"
        )
    if member.is_admin and not _keeps_an_admin(members, member):
        raise _last_admin()
    member.delete()
    # Remembered, so that the invite the account joined with (or any other made before now)
    # does not let it straight back in.
    Removal.objects.update_or_create(
        circle_id=circle.pk, user_id=member.user_id, defaults={"removed_at": timezone.now()}
    )
    return member


@transaction.atomic
def member_leave(*, circle: Circle, user: User) -> None:
    """The account leaves the circle (nothing to do when it has left already)."""
    members = _locked_members(circle)
    member = next((member for member in members if member.user_id == user.pk), None)
    if member is None:
        return
    if _is_owner(circle, member):
        raise ValidationError(_("You cannot leave your personal circle."), code="personal")
    if member.is_admin and not _keeps_an_admin(members, member):
        if len(members) == 1:
            raise ValidationError(
                _("You are the only member of this circle, so you cannot leave it."),
                code="last_member",
            )
        raise ValidationError(
            _("You are this circle's only admin: make another member an admin before you leave."),
            code="last_admin",
        )
    member.delete()


@transaction.atomic
def member_link_player(*, membership: Membership, player_id: int | None) -> Membership:
    """ "This is me": link the account to one player of the circle (None: to nobody). A player
    is one account's at most."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    player = None
    if player_id is not None:
        player = Player.objects.filter(circle_id=membership.circle_id, pk=player_id).first()
        if player is None:
            raise ValidationError(_("Choose one of this circle's players."), code="invalid_player")
        holder = (
            Membership.objects.filter(player=player)
            .exclude(pk=membership.pk)
            .select_related("user")
            .first()
        )
        if holder is not None:
            raise _taken(player, holder)
    if membership.player_id == (player.pk if player else None):
        return membership
    membership.player = player
    try:
        with transaction.atomic():
            membership.save(update_fields=["player"])
    except IntegrityError:  # linked to another account by a concurrent request
        assert player is not None  # unlinking takes nobody's player
        holder = Membership.objects.select_related("user").get(player=player)
        raise _taken(player, holder) from None
    return membership


def _taken(player: Player, holder: Membership) -> ValidationError:
    return ValidationError(
        _("%(player)s is already linked to %(user)s.")
        % {"player": player.name, "user": holder.user.get_username()},
        code="taken",
    )
