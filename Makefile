# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.stamp
# Python keeps its compiled modules (and pytest its rewritten tests) in __pycache__, even where the
# machine's environment asks it not to: compiling the suite again took 7 of the 10 s pytest needs
# to collect it, in every worker of every run.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: messages screenshots run serve test test-fast soak lint format bench-rules bench-pages bench-load bench-match bench-files bench-offline bench-live bench-event install clean

$(STAMP): pyproject.toml | $(NODE_STAMP)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

# make lint's JavaScript linter, ESLint (package.json), as package-lock.json pins it: installed
# again when the lock changes. Without npm, everything but make lint works: it says so and goes on.
$(NODE_STAMP): package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		echo "npm ci --no-audit --no-fund --silent"; npm ci --no-audit --no-fund --silent && touch $(NODE_STAMP); \
	else echo "npm not found: make lint needs Node.js and npm for ESLint (apt-get install nodejs npm)"; fi

install: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runserver 127.0.0.1:8000

# Production mode: gunicorn, WhiteNoise serving the compressed, hashed static files. Needs
# DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS; SQLite or DATABASE_URL (docs/DEPLOY.md).
SERVE_BIND ?= 127.0.0.1:8000
serve: export DJANGO_DEBUG = False
serve: $(STAMP)
	$(PY) manage.py check --deploy
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py migrate --noinput
	$(VENV)/bin/gunicorn casino_site.wsgi --config scripts/gunicorn.conf.py --bind $(SERVE_BIND)

# The linters: ruff, the import contracts of .importlinter (docs/ARCHITECTURE.md), mypy with
# django-stubs ([tool.mypy] in pyproject.toml), no model change without its migration, ESLint on
# the JavaScript (eslint.config.js), and in a git checkout no commit subject over 72 characters.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) scripts/check_units.py
	$(VENV)/bin/mypy
	$(PY) manage.py makemigrations --check --dry-run
	npx --no-install eslint scoring/static/scoring tests/engine/engine_diff.js
	if [ -e .git ]; then scripts/check_subjects.sh; fi

# The whole suite on every core (pytest-xdist: each worker has its own test database and live
# server), browser tests, migrations and the random evenings included; the longest tests start
# first (tests/conftest.py) and an idle worker takes over part of a busy one's queue (worksteal).
test: lint
	$(PY) -m pytest -n auto --dist worksteal

# The quick loop: no browser tests and none marked slow, on every core (pytest-xdist), the test
# database made from the models (make test runs the migrations; make lint checks none is missing),
# fewer examples of each property; prints the time it took.
test-fast: $(STAMP)
	@start=$$(date +%s); \
	CASINO_HYPOTHESIS=casino-quick $(PY) -m pytest -q -p no:cacheprovider -n auto --nomigrations \
		-m "not browser and not slow"; status=$$?; \
	echo "test-fast: $$(( $$(date +%s) - start )) s"; exit $$status

# A long run of the random evenings (tests/cross/test_evenings.py): EVENINGS evenings of at most
# EVENING_STEPS steps, in shards of SOAK_SHARD evenings shared out over every core; prints the
# evenings, steps and requests played and the distinct states reached (games x how matches
# ended, tables, club-night formats). Each shard writes its figures when it ends, so a run cut
# short still reports what it played, and SOAK_RESUME=1 plays only the shards it has no figures
# of yet (a long soak over several sittings). A failure prints its shrunk steps.
EVENINGS ?= 10000
EVENING_STEPS ?= 40
SOAK_SHARD ?= 250
SOAK_REPORT ?= $(CURDIR)/.soak/evenings
SOAK_RESUME ?= 0
# Then the phone's side (tests/browser/test_phone_walk.py): two phones in Chromium, PHONE_STEPS
# random steps for each of PHONE_SEEDS; prints each walk's steps by kind and its time, and a
# failure's seed and steps.
PHONE_STEPS ?= 400
PHONE_SEEDS ?= 1,2,3,4
soak: $(STAMP)
	mkdir -p $(dir $(SOAK_REPORT)) && { test "$(SOAK_RESUME)" = 1 || rm -f $(SOAK_REPORT).*.json; }
	CASINO_EVENINGS_RESUME=$(SOAK_RESUME) CASINO_EVENINGS=$(EVENINGS) CASINO_EVENING_STEPS=$(EVENING_STEPS) \
		CASINO_EVENING_SHARDS=$$(( ($(EVENINGS) + $(SOAK_SHARD) - 1) / $(SOAK_SHARD) )) CASINO_EVENINGS_REPORT=$(SOAK_REPORT) \
		$(PY) -m pytest -q -p no:cacheprovider -n auto tests/cross/test_evenings.py; status=$$?; \
	$(PY) tests/cross/evenings_report.py $(SOAK_REPORT); \
	CASINO_PHONE_STEPS=$(PHONE_STEPS) CASINO_PHONE_SEED=$(PHONE_SEEDS) \
		$(PY) -m pytest -q -s -p no:cacheprovider tests/browser/test_phone_walk.py || status=1; \
	exit $$status

# Refresh the catalogues after changing texts (needs Debian's gettext), translate what is new
# in locale/*/LC_MESSAGES/django.po, then compile; the compiled .mo files are committed.
LOCALES := bg es ru sl th uk
messages: $(STAMP)
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) --no-location --no-obsolete --ignore=.venv --ignore=node_modules --ignore=tests --ignore=scripts --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv --ignore=node_modules

# Retake the README's screenshots (the browser tests save them to docs/screenshots).
screenshots: $(STAMP)
	UPDATE_SCREENSHOTS=1 $(PY) -m pytest tests/browser -q

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench-rules: $(STAMP)
	$(PY) manage.py bench_rules

# A 400-hand match played through the views: save time per hand, scoreboard, swap size, edits.
BENCH_MATCH_DB ?= $(CURDIR)/bench_match.sqlite3
bench-match: $(STAMP)
	rm -f $(BENCH_MATCH_DB)
	DATABASE_URL=sqlite:///$(BENCH_MATCH_DB) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(BENCH_MATCH_DB) $(PY) manage.py bench_match

# score against a naive reference scorer on 20,000 random hands (time ratio), score's peak memory
# on 50,000 hands, export_matches' and the web export's at 10,000 matches (a throwaway database):
# about three minutes, everything in a temporary directory.
bench-files: $(STAMP)
	$(PY) manage.py bench_files

# gunicorn on a free loopback port under wrk: scoreboard reads and hand writes mixed, for 20 s.
bench-load: $(STAMP)
	command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	$(PY) scripts/bench_load.py

# Idle scoreboards polling against /healthz, one poll at a time, and polls with saves mixed in
# (gunicorn, production mode, wrk); BENCH_DATABASE_URL=postgres://... for PostgreSQL.
bench-live: $(STAMP)
	command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	$(PY) scripts/bench_live.py

# Seeds a user with 10,000 matches and one with 50,000 into a database of its own (kept for the
# next run), then times the pages at both sizes against the home page, and compares the sizes.
BENCH_DB ?= sqlite:///$(CURDIR)/bench_pages.sqlite3
# The offline board's answer to a tap, Chromium's CPU throttled 4x (Playwright, Debian's Chromium).
bench-offline: $(STAMP)
	$(PY) -m pytest -q -s -p no:cacheprovider tests/browser/bench_offline.py

# An event of 64 players and 6 Swiss rounds: its page and big screen against the home page (a
# database of its own, kept), and one Swiss and one partners round of 64 paired by the engine.
BENCH_EVENT_DB ?= sqlite:///$(CURDIR)/bench_event.sqlite3
bench-event: $(STAMP)
	DATABASE_URL=$(BENCH_EVENT_DB) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_EVENT_DB) $(PY) manage.py bench_event
	$(PY) scripts/bench_pairing.py

bench-pages: $(STAMP)
	DATABASE_URL=$(BENCH_DB) $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=$(BENCH_DB) $(PY) manage.py bench_pages --matches 10000 --matches 50000

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis .mypy_cache
