from django.urls import path

from scoring.urls_account import urlpatterns as account_urlpatterns
from scoring.urls_circles import urlpatterns as circles_urlpatterns
from scoring.urls_invites import urlpatterns as invites_urlpatterns
from scoring.urls_sharing import urlpatterns as sharing_urlpatterns
from scoring.views import history, pages
from scoring.views import matches as views

app_name = "scoring"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("rules/", pages.rules_page, name="rules"),
    path("rules/<str:variant>/", pages.rules_page, name="rules-variant"),
    path("language/", pages.language_set, name="language"),
    path("players/", views.player_list, name="player-list"),
    path("matches/", history.match_list, name="match-list"),
    path("matches/<int:pk>/sheet/", history.match_sheet, name="match-sheet"),
    path("players/<int:pk>/", history.player_detail, name="player"),
    path("players/<int:pk>/merge/", history.player_merge, name="player-merge"),
    path("players/<int:pk>/vs/<int:other>/", history.head_to_head, name="head-to-head"),
    path("leaderboard/", history.leaderboard, name="leaderboard"),
    path("matches/new/", views.match_new, name="match-new"),
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

# Share links, export and import live in their own module.
urlpatterns += sharing_urlpatterns
# Circles (members, roles, switching) and invites to them.
urlpatterns += circles_urlpatterns
urlpatterns += invites_urlpatterns
# The account's own page, and deleting the account.
urlpatterns += account_urlpatterns
