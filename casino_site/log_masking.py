"""Share tokens out of logs: a share link (/shared/<token>/) opens a match to whoever holds it,
and access logs are read and kept by more people than the match's owner.

`MaskShareTokens` is a logging filter; settings.LOGGING puts it on Django's loggers and
scripts/gunicorn.conf.py on gunicorn's access and error logs. Standard library only, so gunicorn's
configuration can import it without Django.
"""

from __future__ import annotations

import logging
import re

# The path of scoring:shared-match, wherever it appears: request line, path, referer.
SHARE_LINK = re.compile(r"(/shared/)[^/?#\s\"'<>]+")
MASK = "***"


def mask_share_tokens(text: str) -> str:
    return SHARE_LINK.sub(rf"\g<1>{MASK}", text)


class MaskShareTokens(logging.Filter):
    """Replace share tokens in a record's message (formatted with its arguments first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: leave it to the handler to report
            return True
        masked = mask_share_tokens(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
