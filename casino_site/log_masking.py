"""Share tokens, invite codes and the accounts' mailed keys out of logs: a share link
(/shared/<token>/) opens a match to whoever holds it, an invite link (/join/<code>/) lets whoever
holds it into a circle, a password-reset link (/accounts/password/reset/key/<uid>-<key>/) sets the
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

# The paths of scoring:shared-match, scoring:invite-join, account_confirm_email and
# account_reset_password_from_key (its done page aside), wherever they appear: request line, path,
# referer, and percent-encoded in a query (the login page's ?next=%2Fjoin%2F<code>%2F).
SHARE_LINK = re.compile(
    r"(/(?:shared|join|confirm-email)/|/password/reset/key/(?!done/))[^/?#\s\"'<>]+"
)
ENCODED_SHARE_LINK = re.compile(
    r"(%2F(?:shared|join|confirm-email)%2F|%2Fpassword%2Freset%2Fkey%2F(?!done%2F))"
    r"[^/?#&%\s\"'<>]+",
    re.IGNORECASE,
)
MASK = "***"


def mask_share_tokens(text: str) -> str:
    text = SHARE_LINK.sub(rf"\g<1>{MASK}", text)
    return ENCODED_SHARE_LINK.sub(rf"\g<1>{MASK}", text)


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
