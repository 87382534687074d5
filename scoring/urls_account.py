"""URLs of the account's own page and of deleting it (included in scoring/urls.py, same
namespace). E-mail, password and passkeys are allauth's pages under accounts/."""

from django.urls import URLPattern, path

from scoring.views import account as views

urlpatterns: list[URLPattern] = [
    path("account/", views.account_page, name="account"),
    path("account/export/<int:circle>.json", views.account_export, name="account-export"),
    path("account/delete/", views.account_delete, name="account-delete"),
    # Public: the goodbye, shown once the account is deleted and its session ended.
    path("account/deleted/", views.account_deleted, name="account-deleted"),
]
