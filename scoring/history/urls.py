from django.urls import path

from scoring.history import views

urlpatterns = [
    path("matches/", views.match_list, name="match-list"),
    path("matches/<int:pk>/sheet/", views.match_sheet, name="match-sheet"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("players/<int:pk>/merge/", views.player_merge, name="player-merge"),
    path("players/<int:pk>/vs/<int:other>/", views.head_to_head, name="head-to-head"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
