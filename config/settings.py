"""Settings for the rugby tournament manager.

Everything that differs between machines comes from the environment
(DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS, ...). The embedded
defaults need no server: a SQLite file and a file-system Celery broker under
``var/`` (ignored by git), so a fresh clone runs with no manual steps.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import dj_email_url
from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """Read a whole number from the environment (the default when unset or empty)."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    return float(value) if value else default


DEBUG = env_bool("DEBUG", True)
# The fallback key is only good for local development: with DEBUG off a real
# SECRET_KEY must be provided, and `check --deploy` says so otherwise (scripts/serve refuses to start).
DEVELOPMENT_SECRET_KEY = "django-insecure-local-development-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "csp",
    "league",
    "matches",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "config.middleware.RequestSizeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.TimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.DomainErrorMiddleware",
    # Last: it turns a sign-in refused by the lock-out into the 429 page (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection is checked before each request uses it: after a PostgreSQL restart the first
        # request on each gunicorn worker reconnects instead of failing on the dead connection.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Web requests and worker processes share one SQLite file in the demo. Two players' simultaneous moves
    # must queue, never fail with "database is locked":
    # * IMMEDIATE transactions take the write lock when they begin, so a transaction never has to upgrade a read
    #   lock to a write lock (SQLite refuses that upgrade at once, whatever the busy timeout, when another
    #   writer is in: the 500s of issue 19);
    # * the busy timeout makes a writer wait for the lock (seconds) instead of failing;
    # * WAL lets readers (the 1-second polls) go on while a move is written.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    })
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("af", _("Afrikaans")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# Uploaded team logos (checked and re-encoded by league.services.team_logo_set, served by league.views.team_logo).
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Parallel tests (pytest -n, pytest-xdist): each worker gets a Redis database of its own. They would otherwise share
# scripts/test's one Redis, where a worker's cache.clear() (FLUSHDB) empties the others' caches and limit counters
# mid-test, and where one worker's cached page of tournament 1 is another's (each worker's test database numbers its
# rows from 1). Worker gwN uses database XDIST_REDIS_DATABASES[N]; 9 is left to tests/matches/test_tasks_integration.
# The environment is set too, so the servers and workers a test starts use the same database.
XDIST_REDIS_DATABASES = (*range(1, 9), *range(10, 16))
_xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and _xdist_worker.startswith("gw"):
    _number = int(_xdist_worker[2:])
    if _number >= len(XDIST_REDIS_DATABASES):
        raise RuntimeError(f"at most {len(XDIST_REDIS_DATABASES)} test workers can share one Redis")
    REDIS_URL = os.environ["REDIS_URL"] = urlsplit(REDIS_URL)._replace(
        path=f"/{XDIST_REDIS_DATABASES[_number]}").geturl()
# How long a call to Redis (cache or broker) may take before it counts as down: short, so a Redis that
# hangs costs a request a fraction of a second, not a worker for good.
REDIS_TIMEOUT = env_float("REDIS_TIMEOUT", 0.5)
# After a failure the cache is skipped (every read a miss) for this many seconds before Redis is tried again.
CACHE_RETRY_SECONDS = env_float("CACHE_RETRY_SECONDS", 5)
# How long a process may use a value of the cache's mirror at most, even with every change heard (config.cache): a
# safety bound only (a session expired in Redis is honoured this much longer by a process that had it).
CACHE_MIRROR_SECONDS = env_float("CACHE_MIRROR_SECONDS", 5)

if REDIS_URL:
    # The cache fails open (config.cache): with Redis down or hanging, every read is a miss and every write is
    # dropped (and logged), so pages are built from the database instead of failing.
    CACHES = {"default": {
        "BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": REDIS_URL,
        "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT,
                    # Read by nearly every request, changed only through this cache: kept by each process and
                    # dropped when a change is published (config.cache's mirror). A tournament's row and section
                    # tokens, the site's data version, and the signed-in visitors' sessions.
                    "mirror": ("league:tournament:", "league:tok:", "league:data-version:",
                               "django.contrib.sessions.cached_db")},
    }}
elif "pytest" in sys.modules:
    # A test process is the whole site (Celery runs eagerly in it): its own memory is enough, and one test's
    # cache.clear() must not empty another run's.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rugby"}}
else:
    # No Redis (the demo): files under var/, which the site and its Celery worker share. A memory cache would be
    # each process's own, so a result simulated by the worker would never refresh the pages the site had cached.
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("CACHE_DIR") or str(VAR_DIR / "cache"),
        # Culling drops random entries: a dropped section token only means that section is built again.
        "OPTIONS": {"MAX_ENTRIES": 20000},
    }}

# A signed-in request reads its session from the cache (written through to the database, so a flushed cache
# signs no one out): a session row fetched from the database on every request was a third of a cached page.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# -- Accounts: mail, sign-in lock-outs, request limits ---------------------------------------------------------

# EMAIL_URL, e.g. smtp://user:password@mail.example.org:587/?tls=True; the console by default, so the demo
# prints the password-reset mail in its terminal.
_email = dj_email_url.parse(os.environ.get("EMAIL_URL") or "console://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"] or 10
if _email.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Rugby tournaments <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The client's address: X-Forwarded-For is read only through this many reverse proxies of our own (0: the
# connection's address; 1: one nginx or load balancer in front). See league.clients.client_ip.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)

AUTHENTICATION_BACKENDS = [
    # Refuses sign-ins from a client locked out after too many wrong passwords (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("SIGNIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_float("SIGNIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_CLIENT_IP_CALLABLE = "league.clients.client_ip"
AXES_LOCKOUT_CALLABLE = "config.views.signin_locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Per-client request limits (django-ratelimit's counters in the cache; "N/Xm" = N per X minutes).
RATELIMIT_FAIL_OPEN = True  # the cache down must not lock everyone out
SIGNUP_RATE = os.environ.get("SIGNUP_RATE", "10/h")
PASSWORD_RESET_RATE = os.environ.get("PASSWORD_RESET_RATE", "5/h")
TOKEN_RATE = os.environ.get("TOKEN_RATE", "20/m")
JOIN_FAILURE_RATE = os.environ.get("JOIN_FAILURE_RATE", "30/10m")
# Players registering for an event: a whole room may share one connection (the venue's Wi-Fi), so it is generous.
EVENT_REGISTRATION_RATE = os.environ.get("EVENT_REGISTRATION_RATE", "60/h")

# -- Limits on what one organiser's request may create or send -------------------------------------------------

# A 1,000-team league (499,500 fixtures in a single round robin) by default: its generation runs on the workers.
MAX_TEAMS_PER_TOURNAMENT = env_int("MAX_TEAMS_PER_TOURNAMENT", 1000)
# Fixtures written in one go: a generation that would make more runs as a background task with progress.
FIXTURES_PER_REQUEST = env_int("FIXTURES_PER_REQUEST", 2000)
MAX_FIXTURES_PER_TOURNAMENT = env_int("MAX_FIXTURES_PER_TOURNAMENT", 500_000)
# Every import (web forms and API, file or pasted text): the size of the file, and the errors listed.
MAX_UPLOAD_BYTES = env_int("MAX_UPLOAD_BYTES", 1_000_000)
MAX_IMPORT_ERRORS = env_int("MAX_IMPORT_ERRORS", 50)
# Whole request bodies (config.middleware.RequestSizeMiddleware answers 413 beyond): a little more than the
# largest upload, for the multipart envelope or the JSON around a pasted CSV.
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES

REST_FRAMEWORK = {
    # Token first: an unauthenticated write is then a 401 with "WWW-Authenticate: Token" (session
    # authentication has no such header, and DRF answers 403 when the first class has none).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.api.Pagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.Negotiation",
    # Throttles key on league.clients.client_ip (X-Forwarded-For through TRUSTED_PROXIES only).
    "NUM_PROXIES": TRUSTED_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Rugby tournament manager API",
    "DESCRIPTION": "Teams, tournaments, pools, fixtures, results, standings, brackets and matches.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc assets come from drf-spectacular-sidecar: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # validatorUrl None: Swagger UI would otherwise send the schema to validator.swagger.io for a badge.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
    # Tournaments and events share their statuses: one enum, with the name it always had.
    "ENUM_NAME_OVERRIDES": {"TournamentStatusEnum": "league.models.Tournament.Status",
                            "RegistrationStatusEnum": "league.models.Registration.Status",
                            # An event's fees and donations: paid by cash, card or transfer.
                            "PaymentMethodEnum": "league.models.PaymentMethod",
                            "NationDrawMethodEnum": "league.models.NationDraw.Method"},
}

# Celery: Redis when REDIS_URL is set; otherwise a file-system broker that
# needs no server, so the demo's worker runs on a fresh machine.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "filesystem://"
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or (
    REDIS_URL or f"file://{VAR_DIR / 'celery-results'}"
)
if CELERY_BROKER_URL == "filesystem://":
    _broker_dir = VAR_DIR / "celery-broker"
    (_broker_dir / "out").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "processed").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "control").mkdir(parents=True, exist_ok=True)
    (VAR_DIR / "celery-results").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
        # kombu would otherwise write its exchange tables to ./control in whatever folder the worker starts.
        "control_folder": str(_broker_dir / "control"),
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Nothing reads a task's return value: no result store to depend on (or to wait for when Redis is down).
CELERY_TASK_IGNORE_RESULT = True
# A message that cannot be sent fails fast (league.queue queues best-effort; periodic tasks catch up).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT * 4
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_TIMEOUT * 4
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT * 4
# Periodic work (celery beat, started by scripts/serve): simulation runs whose messages were lost (Redis
# restarted) are handed out again, and odds that could not be queued after a result are queued.
CELERY_BEAT_SCHEDULE = {
    "resume-stalled-simulations": {"task": "matches.tasks.resume_stalled_runs",
                                   "schedule": env_float("RESUME_STALLED_EVERY", 30)},
    "odds-catch-up": {"task": "matches.tasks.odds_catch_up", "schedule": env_float("ODDS_CATCH_UP_EVERY", 120)},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A running simulation whose progress has not moved for this long has its ready fixtures handed out again.
SIMULATION_STALL_SECONDS = env_float("SIMULATION_STALL_SECONDS", 60)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Workers on other machines: a broker message not acknowledged within this time (its worker died) goes to
# another worker (Redis). Simulation tasks are idempotent and short, so a low value is safe.
if CELERY_BROKER_URL.startswith("redis"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300")),
        # Short socket timeouts: queueing on a Redis that hangs fails in a second instead of holding a request.
        "socket_timeout": REDIS_TIMEOUT * 4, "socket_connect_timeout": REDIS_TIMEOUT * 4,
    }

# Keep each worker process's database connection between tasks (Celery would otherwise open a new
# PostgreSQL connection for every task); matches/tasks.py closes broken or old ones (CONN_MAX_AGE) instead.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))

# Qualification odds (matches/odds.py): runs per computation, engine matches per score model, and the
# debounce delay after a result before they are computed again. ODDS_COALESCE: one refresh per burst of results
# (needs a cache the web and the workers share: on by default with Redis), computed once the results have
# stopped for ODDS_DELAY seconds, or ODDS_MAX_WAIT seconds after the burst's first result at the latest.
ODDS_RUNS = int(os.environ.get("ODDS_RUNS", "10000"))
ODDS_MODEL_MATCHES = int(os.environ.get("ODDS_MODEL_MATCHES", "300"))
ODDS_DELAY = float(os.environ.get("ODDS_DELAY", "3"))
ODDS_MAX_WAIT = float(os.environ.get("ODDS_MAX_WAIT", "30"))
ODDS_AFTER_RESULT = env_bool("ODDS_AFTER_RESULT", True)
ODDS_COALESCE = env_bool("ODDS_COALESCE", bool(REDIS_URL))

# Production hardening: active whenever DEBUG is off.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # SECURE_COOKIES=false only for the demo (scripts/run), served over plain HTTP on this machine.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Error reports (the DEBUG page, mailed reports) never show local variables or POST data: in a live match they
# hold the moves of both seats, the other seat's hidden choice among them.
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.reporting.QuietExceptionReporterFilter"

# Content-Security-Policy (django-csp): only the site's own scripts, styles, images and fonts; no inline script
# or style (the pages' behaviour is in static/js/, and the API docs' init scripts are static files too). Framing
# is left to X-Frame-Options, so a page that must be embeddable only needs @xframe_options_exempt.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}
# Features no page of the site uses, refused for every page (and anything embedded in it).
PERMISSIONS_POLICY = ("accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
                      "payment=(), usb=()")
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
