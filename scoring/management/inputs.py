"""What the commands that read a match file share."""

import sys

from django.core.management.base import BaseCommand


def read_text(command: BaseCommand, path: str) -> str:
    """The text of `path` (or standard input for "-"); on failure, say why and exit 2."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        command.stderr.write(f"{path}: {error}")
        sys.exit(2)
