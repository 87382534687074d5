from django.urls import path

from scoring.pages import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("rules/<str:variant>/", views.rules_page, name="rules-variant"),
]
