from django.urls import path

from scoring.accounts.urls import urlpatterns as accounts_urlpatterns
from scoring.circles.urls import urlpatterns as circles_urlpatterns
from scoring.events.urls import urlpatterns as events_urlpatterns
from scoring.history import views as history
from scoring.matches import views
from scoring.pages import views as pages
from scoring.sharing.urls import urlpatterns as sharing_urlpatterns

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", pages.rules_page, name="rules"),
    path("rules/<str:variant>/", pages.rules_page, name="rules-variant"),
    path("players/", views.player_list, name="player-list"),
    path("matches/", history.match_list, name="match-list"),
    path("matches/<int:pk>/sheet/", history.match_sheet, name="match-sheet"),
    path("players/<int:pk>/", history.player_detail, name="player"),
    path("players/<int:pk>/merge/", history.player_merge, name="player-merge"),
    path("players/<int:pk>/vs/<int:other>/", history.head_to_head, name="head-to-head"),
    path("leaderboard/", history.leaderboard, name="leaderboard"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/sync/", views.match_sync, name="match-sync"),
    path("matches/offline/", views.match_offline, name="match-offline"),
    path("matches/waiting/", views.outbox, name="outbox"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/hands/", views.hand_create, name="hand-create"),
    path("matches/<int:pk>/hands/sync/", views.hand_sync, name="hand-sync"),
    path("matches/<int:pk>/hands/preview/", views.hand_preview, name="hand-preview"),
    path("matches/<int:pk>/hands/<int:number>/", views.hand_detail, name="hand"),
    path("matches/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand-edit"),
    path("matches/<int:pk>/hands/<int:number>/history/", views.hand_history, name="hand-history"),
    path("matches/<int:pk>/hands/last/delete/", views.hand_delete, name="hand-delete"),
    path("matches/<int:pk>/abandon/", views.match_abandon, name="match-abandon"),
    path("matches/<int:pk>/delete/", views.match_delete, name="match-delete"),
    path("matches/<int:pk>/rematch/", views.match_rematch, name="match-rematch"),
]

# Each room's own URLs: club nights; share links, export and import; circles, members and invites; the
# account's page, deleting it, signing up, the language.
urlpatterns += events_urlpatterns
urlpatterns += sharing_urlpatterns
urlpatterns += circles_urlpatterns
urlpatterns += accounts_urlpatterns
