from django.urls import path

from scoring.matches import sync, views

urlpatterns = [
    path("players/", views.player_list, name="player-list"),
    path("matches/new/", views.match_new, name="match-new"),
    path("matches/sync/", sync.match_sync, name="match-sync"),
    path("matches/offline/", views.match_offline, name="match-offline"),
    path("matches/waiting/", views.outbox, name="outbox"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/hands/", views.hand_create, name="hand-create"),
    path("matches/<int:pk>/hands/sync/", sync.hand_sync, name="hand-sync"),
    path("matches/<int:pk>/hands/preview/", views.hand_preview, name="hand-preview"),
    path("matches/<int:pk>/hands/<int:number>/", views.hand_detail, name="hand"),
    path("matches/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand-edit"),
    path("matches/<int:pk>/hands/<int:number>/history/", views.hand_history, name="hand-history"),
    path("matches/<int:pk>/hands/last/delete/", views.hand_delete, name="hand-delete"),
    path("matches/<int:pk>/abandon/", views.match_abandon, name="match-abandon"),
    path("matches/<int:pk>/delete/", views.match_delete, name="match-delete"),
    path("matches/<int:pk>/rematch/", views.match_rematch, name="match-rematch"),
]
