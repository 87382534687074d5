from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path

from scoring.accounts.views import signup
from scoring.pages.health import healthz
from scoring.pages.offline import manifest, service_worker

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # At the root, so the service worker's scope is the whole site (scoring/pages/offline.py).
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("admin/", admin.site.urls),
    # Accounts (django-allauth): sign up and log in by username or e-mail address, verify and
    # change the address, reset a forgotten password, passkeys. "login" and "logout" are the
    # names the app's pages use. Sign-up is a creating form: sent twice, it answers once
    # (scoring/accounts/views.py).
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/signup/", signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("", include("scoring.urls")),
]

# Over an account action's limit (settings.ACCOUNT_RATE_LIMITS): allauth calls this.
handler429 = "scoring.accounts.rate_limits.too_many"
