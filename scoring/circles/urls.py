"""URLs of circles and their invites (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern, path

from scoring.circles import views

urlpatterns: list[URLPattern] = [
    path("circles/", views.circle_list, name="circles"),
    path("circles/<int:pk>/", views.circle_detail, name="circle"),
    path("circles/<int:pk>/switch/", views.circle_switch, name="circle-switch"),
    path("circles/<int:pk>/rename/", views.circle_rename, name="circle-rename"),
    path("circles/<int:pk>/members/role/", views.member_role, name="circle-role"),
    path("circles/<int:pk>/members/remove/", views.member_remove, name="circle-remove"),
    path("circles/<int:pk>/me/", views.member_me, name="circle-me"),
    path("circles/<int:pk>/leave/", views.circle_leave, name="circle-leave"),
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
