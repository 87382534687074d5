"""URLs of accounts (included in scoring/urls.py, same namespace): the account's own page, deleting
it, the sign-up page's former address and the language. E-mail, password and passkeys are
allauth's pages under accounts/ (casino_site/urls.py, which also routes allauth's sign-up to
`views.signup`)."""

from django.urls import URLPattern, path

from scoring.accounts import views

urlpatterns: list[URLPattern] = [
    path("signup/", views.signup_moved, name="signup"),
    path("language/", views.language_set, name="language"),
    # Public: "Start a match" without an account (a guest, signed in).
    path("play/", views.guest_start, name="guest-start"),
    path("account/keep/", views.account_keep, name="account-keep"),
    path("account/", views.account_page, name="account"),
    path("account/export/<int:circle>.json", views.account_export, name="account-export"),
    path("account/delete/", views.account_delete, name="account-delete"),
    # Public: the goodbye, shown once the account is deleted and its session ended.
    path("account/deleted/", views.account_deleted, name="account-deleted"),
]
