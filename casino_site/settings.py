"""Settings for the Casino score keeper, read from DJANGO_* environment variables.

With nothing set the project runs in development mode on SQLite (db.sqlite3). Production mode
(DJANGO_DEBUG=False) refuses to start without DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS, and turns
on HTTPS-only cookies, HSTS and the redirect to HTTPS (docs/DEPLOY.md lists every variable).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

from casino_site.env import env_addresses, env_bool, env_header, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false")
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false")
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "scoring",
]

MIDDLEWARE = [
    # First: the database down, met by any middleware below or the view, is a 503 to retry.
    "scoring.web.middleware.DatabaseDownMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # An open board's poll that finds nothing new: 204 from one indexed read, before the rest.
    "scoring.web.watch.WatchMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages are compressed (static files come compressed from WhiteNoise, above). BREACH:
    # docs/DEPLOY.md says why this is safe here.
    "django.middleware.gzip.GZipMiddleware",
    # Before anything reads the session, the query or a form: NUL bytes and foreign charsets.
    "scoring.web.middleware.BadBytesMiddleware",
    # Django's, telling a session not saved for the database being down from one deleted.
    "scoring.web.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scoring.web.middleware.NoStoreMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scoring.accounts.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scoring.circles.context_processors.header_circle",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

WSGI_APPLICATION = "casino_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction starts (BEGIN IMMEDIATE) and wait for it, so two
    # requests writing together queue up instead of failing with "database is locked". The
    # write-ahead log lets pages be read while a hand is written, and commits without waiting
    # for the disk twice (a power cut may lose the last hands, never the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, not memory, so tests with several threads share one database; one per process,
    # so two test runs side by side do not create and drop the same file under each other.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test_db.{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Several app servers may share one database (docs/DEPLOY.md), so nothing lives in a process
# between requests: sessions and login failures are in the database, messages in a signed cookie
# (the session only for what does not fit, Django's default FallbackStorage). The default cache
# is a table in the same database (`manage.py createcachetable`, which `make run` and `make serve`
# run and the tests' database gets by itself): allauth counts its mail limits there, so every
# server sees the same counts. Room for many entries: counts pushed out early would be limits
# lifted. The one cache kept in a process holds fragments named by everything they depend on (a
# match's version, names, language), so every server renders the same thing for a name and none
# can serve a stale one.
MESSAGE_STORAGE = "django.contrib.messages.storage.fallback.FallbackStorage"
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "casino_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
}

# django-axes first: it refuses a locked-out login before the password is even checked. Then
# allauth's, which logs in by username or e-mail address, and by passkey. With several backends,
# code that logs a user in without authenticate() must name the backend.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "scoring:match-list"
LOGOUT_REDIRECT_URL = "scoring:home"

# --- Accounts (django-allauth) ------------------------------------------------------------------
# Log in with the username or the e-mail address; an address is optional at sign-up, and verified
# by a link when given (or changed). Accounts made before addresses existed keep logging in.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
# The password once (sign-up's "Show password" lets a person check what they typed).
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = False
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address per account; a new one replaces it once verified
ACCOUNT_USERNAME_MIN_LENGTH = 1
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_SIGNUP_REDIRECT_URL = "scoring:match-new"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# The one-time invitation to add an address, the verification link that keeps the sign-up's `next`,
# a mail that cannot be sent (scoring/accounts/adapter.py); sign-up answers a race for a username
# with the form's message (scoring/accounts/views.py).
ACCOUNT_ADAPTER = "scoring.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "scoring.accounts.forms.LoginForm",
    "signup": "scoring.accounts.forms.SignupForm",
    "reset_password": "scoring.accounts.forms.ResetPasswordForm",
    "add_email": "scoring.accounts.forms.AddEmailForm",
    "reauthenticate": "scoring.accounts.forms.ReauthenticateForm",
    "change_password": "scoring.accounts.forms.ChangePasswordForm",
}
# Nobody learns whether an address has an account. "strict": a sign-up with an address another
# account has verified is answered as any sign-up with an address ("we sent you a link"), and the
# address's owner gets a mail saying someone tried instead of a link (scoring/accounts/adapter.py).
# The address stays unverified on the new account; it can never be verified there while the
# owner keeps it. allauth's plain True would refuse the sign-up with "already registered".
ACCOUNT_PREVENT_ENUMERATION = "strict"
# A mail to the account's address when its password or address changes: a stranger who got in is
# noticed.
ACCOUNT_EMAIL_NOTIFICATIONS = True
# The address is the key to the password reset: adding, changing or removing it asks for the
# password (or a passkey) again, so a session left open is not enough to take the account over.
# The reset itself goes only to verified addresses (scoring/accounts/adapter.py).
ACCOUNT_REAUTHENTICATION_REQUIRED = True
# One throttle against guessing: django-axes (below), which counts failures in the database (so
# every app server shares them) by username and client address behind the configured proxies;
# allauth's guessing limits are off. allauth limits what sends mail, counted in the default cache
# (the database's table, shared by every server) per client address (`ip`, the login throttle's,
# scoring/accounts/adapter.py), per account (`user`) and per e-mail address (`key`): "3/h/key" is
# three an hour to one address. Over a limit the page is a 429 saying when to try again
# (templates/429.html); a verification link over its limit is not sent, and the sign-up or
# e-mail form says when one can be.
# A guest account ("Start a match" without signing up) not kept by a sign-up is deleted this
# many days after it was made (manage.py purge_guests); guests count as sign-ups, below.
CASINO_GUEST_DAYS = int(os.environ.get("CASINO_GUEST_DAYS", "30"))
ACCOUNT_RATE_LIMITS = {
    "reset_password": "10/h/ip,3/h/key",  # reset links, and "no account" mails to unknown addresses
    "confirm_email": "20/h/ip,1/3m/key,5/d/key",  # verification links (sign-up, change, resend)
    "manage_email": "30/h/ip,10/h/user",  # the e-mail page's posts: add, resend, cancel
    "signup": "20/h/ip",
    "reset_password_from_key": "20/m/ip",
    "login": None,
    "login_failed": None,
    "reauthenticate": None,
    "change_password": None,
}
# Passkeys: add one, log in with it instead of a password, remove it (allauth's MFA app).
MFA_SUPPORTED_TYPES = ["webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
# A passkey belongs to the site's host name. fido2 checks the browser's origin against it: https, or
# http://localhost (a secure context for browsers too), so development and the browser tests need
# no exception; turned on, this setting would skip the check altogether. In development open
# http://localhost:8000, not 127.0.0.1: browsers refuse passkeys for an IP address.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = False

# Mail (password reset, address verification): to the console while developing, to the SMTP server
# named by the environment in production (docs/DEPLOY.md), to an outbox in memory in tests.
EMAIL_BACKEND = env_str(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", False)  # TLS from the start (port 465)
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", not EMAIL_USE_SSL)  # STARTTLS (port 587)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set DJANGO_EMAIL_USE_TLS or DJANGO_EMAIL_USE_SSL, not both")
EMAIL_HOST = env_str("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 465 if EMAIL_USE_SSL else 587)
EMAIL_HOST_USER = env_str("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("DJANGO_EMAIL_HOST_PASSWORD", "")
# Seconds to wait for the SMTP server: a server that does not answer must not hold a request.
EMAIL_TIMEOUT = env_int("DJANGO_EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DJANGO_DEFAULT_FROM_EMAIL", "Casino Scorekeeper <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
# The browser's language on the first visit, then the footer's choice (cookie, and the account).
LANGUAGES = [
    ("en", "English"),
    ("bg", "Български"),
    ("es", "Español"),
    ("ru", "Русский"),
    ("sl", "Slovenščina"),
    ("th", "ไทย"),
    ("uk", "Українська"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- HTTPS and headers -------------------------------------------------------------------------
# Behind a proxy that ends TLS, set DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https" (only
# if the proxy always sets or overwrites that header), or the redirect to HTTPS never ends.
SECURE_PROXY_SSL_HEADER = env_header("DJANGO_SECURE_PROXY_SSL_HEADER")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG

# No inline script or style anywhere: JavaScript and CSS come only from static files (htmx from
# django-htmx's; its indicator <style> is turned off by the htmx-config meta in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    },
}

# --- Login throttling (django-axes) ----------------------------------------------------------
# Failures are counted in the database, so several app servers share them. A lock is per
# username and client address together, so a guesser elsewhere cannot lock a player out.
AXES_FAILURE_LIMIT = env_int("DJANGO_AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_COOLOFF_MESSAGE = gettext_lazy("Too many failed logins: try again in a few minutes.")
# allauth's login form names its field "login" (a username or an e-mail address).
AXES_USERNAME_CALLABLE = "casino_site.proxies.login_name"
# Behind N proxies REMOTE_ADDR is the nearest proxy; the client is then the Nth address from the
# right of X-Forwarded-For (each proxy appends the address the request came from), read only from
# requests that come from a trusted proxy (casino_site/proxies.py). docs/DEPLOY.md gives the one
# right value for each deployment; `check --deploy` warns when these contradict each other
# (casino_site/checks.py).
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(
        f"DJANGO_TRUSTED_PROXY_COUNT must be 0 or more, not {TRUSTED_PROXY_COUNT}"
    )
# gunicorn's own variable, with its default: the proxies whose X-Forwarded-* headers are believed
# (by gunicorn for the scheme, here for the client's address).
TRUSTED_PROXIES = env_addresses("FORWARDED_ALLOW_IPS", ["127.0.0.1", "::1"])
AXES_CLIENT_IP_CALLABLE = "casino_site.proxies.client_ip"

# Errors go to standard error (gunicorn passes it on), in production too, where Django's default
# would only e-mail them to ADMINS. Share tokens, invite codes and the accounts' reset and
# verification keys are masked in every line (each is the key to something): on the way to
# standard error, and in Django's own loggers that name a path, before their own handlers
# (runserver's access log, the e-mail to ADMINS) see it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_share_tokens": {"()": "casino_site.log_masking.MaskShareTokens"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["mask_share_tokens"],
        },
        # As in Django's default logging, which configuring the logger below would drop.
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "loggers": {
        "django.request": {"filters": ["mask_share_tokens"]},
        "django.security.csrf": {"filters": ["mask_share_tokens"]},
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["mask_share_tokens"],
        },
    },
    "root": {"handlers": ["stderr"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}
