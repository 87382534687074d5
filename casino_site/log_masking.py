"""Share tokens, big-screen tokens, invite codes, watch tokens and the accounts' mailed keys out
of logs: a share link (/shared/<token>/) opens a match to whoever holds it, a big screen's link
(/events/screen/<token>/) an event, a watch token (?watch=) is one session's view of a board, an
invite link (/join/<code>/) lets whoever holds it into a circle, a password-reset link (/accounts/password/reset/key/<uid>-<key>/) sets the
account's password and a verification link (/accounts/confirm-email/<key>/) confirms an address;
access logs are read and kept by more people than the match's owner, the circle's admins or the
account's holder.

`MaskShareTokens` is a logging filter; settings.LOGGING puts it on Django's loggers and
scripts/gunicorn.conf.py on gunicorn's access and error logs. Standard library only, so gunicorn's
configuration can import it without Django.
"""

from __future__ import annotations

import logging
import re

# The paths of scoring:shared-match, scoring:scoring-open, scoring:event-screen (and their result cards),
# scoring:invite-join, account_confirm_email and account_reset_password_from_key (its done page
# aside), wherever they appear: request line, path, referer (a static file's, asked for by such
# a page), and percent-encoded in a query, once or twice (the login page's
# ?next=%2Fjoin%2F<code>%2F, a sign-up's ?next= holding that login page's address).
# tests/cross/test_log_masking.py walks the URLs and fails on a new one with a token that is not
# here.
SECRET_PATHS = r"(?:shared|score|join|events/screen|confirm-email)/|password/reset/key/(?!done/)"
SHARE_LINK = re.compile(rf"(/(?:{SECRET_PATHS}))[^/?#&\s\"'<>]+")
# The same, encoded: "/" is %2F (%252F twice encoded), and an encoded token ends at the next
# encoded "/", "?", "#" or "&" (its ":" are %3A, part of it).
_SLASH = "%(?:25)*2F"
_END = r"%(?:25)*(?:2F|3F|23|26)"
ENCODED_SHARE_LINK = re.compile(
    rf"({_SLASH}(?:shared|score|join|events{_SLASH}screen|confirm-email){_SLASH}"
    rf"|{_SLASH}password{_SLASH}reset{_SLASH}key{_SLASH}(?!done%))"
    rf"(?:(?!{_END})[^/?#&\s\"'<>])+",
    re.IGNORECASE,
)
# Query parameters that hold a secret: an open board's and an event page's watch token
# (scoring/web/watch.py), in a request line or, encoded, in a login page's ?next=.
SECRET_QUERY = ("watch",)
SECRET_PARAMETER = re.compile(
    rf"((?:[?&]|%(?:25)*(?:3F|26))(?:{'|'.join(SECRET_QUERY)})(?:=|%(?:25)*3D))"
    r"(?:(?!%(?:25)*(?:26|23))[^&#\s\"'<>])+",
    re.IGNORECASE,
)
MASK = "***"


def mask_share_tokens(text: str) -> str:
    text = SHARE_LINK.sub(rf"\g<1>{MASK}", text)
    text = ENCODED_SHARE_LINK.sub(rf"\g<1>{MASK}", text)
    return SECRET_PARAMETER.sub(rf"\g<1>{MASK}", text)


class MaskShareTokens(logging.Filter):
    """Replace share tokens, invite codes and account keys in a record's message (formatted with
    its arguments first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: leave it to the handler to report
            return True
        masked = mask_share_tokens(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
