"""URLs of invites (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern, path

from scoring.views import invites as views

urlpatterns: list[URLPattern] = [
    path("circles/<int:circle>/invites/", views.circle_invites, name="circle-invites"),
    path(
        "circles/<int:circle>/invites/<int:invite>/revoke/",
        views.invite_revoke,
        name="invite-revoke",
    ),
    path("circles/<int:circle>/invites/<int:invite>/qr.svg", views.invite_qr, name="invite-qr"),
    # Anyone holding the code sees whose circle it is; an account joins it (casino_site/log_masking.py
    # keeps the code out of logs).
    path("join/<str:code>/", views.invite_join, name="invite-join"),
]
