from django.contrib import admin

from scoring.models import Hand, Match, Player, Seat, Side, Tally


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    list_filter = ["owner"]
    search_fields = ["name", "owner__username"]


class SideInline(admin.TabularInline):
    model = Side
    extra = 0


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "owner", "variant", "target", "status", "hand_count", "created_at"]
    list_filter = ["variant", "status"]
    search_fields = ["owner__username", "seats__player__name"]
    date_hierarchy = "created_at"
    inlines = [SideInline, SeatInline]


class TallyInline(admin.TabularInline):
    model = Tally
    extra = 0


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "dealer_seat", "created_at"]
    raw_id_fields = ["match"]
    inlines = [TallyInline]


@admin.register(Side)
class SideAdmin(admin.ModelAdmin):
    list_display = ["match", "position", "start_total", "total"]
    raw_id_fields = ["match"]
