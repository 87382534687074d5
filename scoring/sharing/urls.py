"""URLs of share links, export and import (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern, path

from scoring.sharing import views

urlpatterns: list[URLPattern] = [
    # Anyone holding the token sees the match (read-only, no login).
    path("shared/<str:token>/", views.shared_match, name="shared-match"),
    path("shared/<str:token>/card.png", views.shared_card, name="shared-card"),
    path("matches/<int:pk>/card.png", views.match_card, name="match-card"),
    path("matches/<int:pk>/share/", views.share_create, name="share-create"),
    path("matches/<int:pk>/share/panel/", views.share_panel, name="share-panel"),
    path("matches/<int:pk>/share/revoke/", views.share_revoke, name="share-revoke"),
    path("matches/<int:pk>/share/qr.svg", views.share_qr, name="share-qr"),
    # Whoever holds the token scores that one match (scoring/access.py LinkScope).
    path("score/<str:token>/", views.scoring_open, name="scoring-open"),
    path("matches/<int:pk>/scoring-link/", views.scoring_create, name="scoring-create"),
    path("matches/<int:pk>/scoring-link/revoke/", views.scoring_revoke, name="scoring-revoke"),
    path("matches/<int:pk>/scoring-link/qr.svg", views.scoring_qr, name="scoring-qr"),
    path("matches/export.json", views.export_all, name="export-all"),
    path("matches/hands.csv", views.export_hands, name="export-hands"),
    path("matches/<int:pk>/export.json", views.export_match, name="export-match"),
    path("matches/<int:pk>/hands.csv", views.export_match_hands, name="export-match-hands"),
    path("matches/import/", views.match_import, name="match-import"),
]
