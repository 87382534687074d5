"""URLs of club nights (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern, path

from scoring.events import views

urlpatterns: list[URLPattern] = [
    path("events/", views.event_list, name="event-list"),
    path("events/new/", views.event_new, name="event-new"),
    path("events/import/", views.event_import, name="event-import"),
    path("events/<int:pk>/", views.event_detail, name="event"),
    path("events/<int:pk>/pair/", views.event_pair, name="event-pair"),
    path("events/<int:pk>/time/", views.event_time, name="event-time"),
    path("events/<int:pk>/players/", views.event_entrant_add, name="event-entrant-add"),
    path("events/<int:pk>/players/leave/", views.event_entrant_leave, name="event-entrant-leave"),
    path("events/<int:pk>/tables/abandon/", views.event_table_abandon, name="event-table-abandon"),
    path("events/<int:pk>/tables/paper/", views.event_paper_result, name="event-paper"),
    path("events/<int:pk>/scoring-links/", views.event_scoring_links, name="event-scoring-links"),
    path("events/<int:pk>/share/", views.event_share, name="event-share"),
    path("events/<int:pk>/share/revoke/", views.event_share_revoke, name="event-share-revoke"),
    path("events/<int:pk>/share/qr.svg", views.event_share_qr, name="event-share-qr"),
    path("events/<int:pk>/export.json", views.event_export, name="event-export"),
    path("events/<int:pk>/standings.csv", views.event_export_csv, name="event-export-csv"),
    # Anyone holding the token sees the big screen (read-only, no login).
    path("events/screen/<str:token>/", views.event_screen, name="event-screen"),
    path("events/screen/<str:token>/card.png", views.screen_card, name="screen-card"),
    path("events/<int:pk>/card.png", views.event_card, name="event-card"),
]
