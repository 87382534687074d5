"""URLs of circles (included in scoring/urls.py, same namespace)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
