"""URLs of invites (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
