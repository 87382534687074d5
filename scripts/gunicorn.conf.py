"""gunicorn settings for `make serve` and `make bench-load` (production mode, see docs/DEPLOY.md).

Each can be changed without editing this file: WEB_CONCURRENCY (worker processes),
GUNICORN_CMD_ARGS (any other option) and FORWARDED_ALLOW_IPS (the proxies whose
X-Forwarded-* headers gunicorn believes), as gunicorn documents them.
"""

import os

from gunicorn.glogging import Logger

from casino_site.log_masking import MaskShareTokens

# Sync workers: each handles one request at a time, so a slow client ties one up; run gunicorn
# behind a buffering proxy (nginx, Caddy) in production, as gunicorn's documentation advises.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1) + 1))
worker_class = "sync"
timeout = 30
graceful_timeout = 10
# Restart workers now and then, so a slow leak cannot grow without bound.
# Load the app once, before the workers fork: they start at once and share its memory.
preload_app = True
# Recycle a worker now and then (a slow leak cannot grow for ever), at staggered times so they
# never all restart together under load.
max_requests = 20000
max_requests_jitter = 5000
accesslog = "-"
errorlog = "-"


class MaskingLogger(Logger):
    """gunicorn's logger, with share tokens, invite codes and the accounts' reset and
    verification keys masked in the access log (request line, path, referer: whatever
    access_log_format shows) and the error log ("Error handling request")."""

    def setup(self, cfg):
        super().setup(cfg)  # also run on a reload, so add the filter only once
        for log in (self.access_log, self.error_log):
            if not any(isinstance(f, MaskShareTokens) for f in log.filters):
                log.addFilter(MaskShareTokens())


logger_class = MaskingLogger

# gunicorn 27's control socket has one default path per user, which a second instance on the same
# machine (a benchmark, a test) would take over; nothing here uses it.
control_socket_disable = True
