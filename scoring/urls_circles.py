"""URLs of circles (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern, path

from scoring.views import circles as views

urlpatterns: list[URLPattern] = [
    path("circles/", views.circle_list, name="circles"),
    path("circles/<int:pk>/", views.circle_detail, name="circle"),
    path("circles/<int:pk>/switch/", views.circle_switch, name="circle-switch"),
    path("circles/<int:pk>/rename/", views.circle_rename, name="circle-rename"),
    path("circles/<int:pk>/members/role/", views.member_role, name="circle-role"),
    path("circles/<int:pk>/members/remove/", views.member_remove, name="circle-remove"),
    path("circles/<int:pk>/me/", views.member_me, name="circle-me"),
    path("circles/<int:pk>/leave/", views.circle_leave, name="circle-leave"),
]
