from django.contrib import admin

from scoring.models import (
    Circle,
    Event,
    EventPlayer,
    Hand,
    HandRevision,
    Invite,
    Match,
    Membership,
    Player,
    Seat,
    Side,
    Tally,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user", "player"]


class InviteInline(admin.TabularInline):
    model = Invite
    extra = 0
    fields = ["created_by", "created_at", "expires_at", "max_uses", "uses", "revoked_at"]
    readonly_fields = ["created_by", "created_at", "uses"]


@admin.register(Circle)
class CircleAdmin(admin.ModelAdmin):
    list_display = ["name", "personal_for", "created_at"]
    search_fields = ["name", "memberships__user__username"]
    raw_id_fields = ["personal_for"]
    inlines = [MembershipInline, InviteInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "circle", "role", "player", "joined_at"]
    list_filter = ["role"]
    list_editable = ["role"]
    search_fields = ["user__username", "circle__name"]
    raw_id_fields = ["user", "circle", "player"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "circle", "created_at"]
    search_fields = ["name", "circle__name"]
    raw_id_fields = ["circle"]


class SideInline(admin.TabularInline):
    model = Side
    extra = 0


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "circle", "variant", "target", "status", "hand_count", "created_at"]
    list_filter = ["variant", "status"]
    search_fields = ["circle__name", "seats__player__name"]
    date_hierarchy = "created_at"
    raw_id_fields = ["circle", "created_by", "rematch_of", "event"]
    inlines = [SideInline, SeatInline]


class EventPlayerInline(admin.TabularInline):
    model = EventPlayer
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["pk", "name", "circle", "date", "format", "variant", "rounds"]
    list_filter = ["format", "variant"]
    search_fields = ["name", "circle__name"]
    date_hierarchy = "date"
    raw_id_fields = ["circle", "created_by"]
    inlines = [EventPlayerInline]


class TallyInline(admin.TabularInline):
    model = Tally
    extra = 0


class HandRevisionInline(admin.TabularInline):
    model = HandRevision
    extra = 0
    readonly_fields = ["tallies", "by", "at", "replaced_by", "replaced_at"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "dealer_seat", "entered_by", "created_at", "changed_at"]
    raw_id_fields = ["match", "entered_by", "changed_by"]
    inlines = [TallyInline, HandRevisionInline]


@admin.register(Side)
class SideAdmin(admin.ModelAdmin):
    list_display = ["match", "position", "start_total", "total"]
    raw_id_fields = ["match"]
