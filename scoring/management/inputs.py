"""What the commands that read a match file share."""

import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext


def read_text(command: BaseCommand, path: str) -> str:
    """The text of `path` (or standard input for "-"); on failure, say why and exit 2.

    Standard input is read as bytes and decoded like a file: text that is not UTF-8 is refused
    here, instead of reaching the JSON reader as lone surrogates.
    """
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # already text (a StringIO in tests)
                return sys.stdin.read()
            return stream.read().decode("utf-8-sig")
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except UnicodeDecodeError:
        command.stderr.write(
            gettext("%(path)s: the file is not text (UTF-8): it cannot be a match file")
            % {"path": path}
        )
        sys.exit(2)
    except OSError as error:
        command.stderr.write(f"{path}: {error}")
        sys.exit(2)
