"""What the commands that read a match file share."""

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils.translation import gettext


def circle_option(command: BaseCommand, username: str | None, circle_id: int | None) -> Any:
    """The circle named by --circle ID, or the personal circle of the user named by --owner;
    None without either. An unknown one says so and exits 2."""
    from scoring.access import personal_circle
    from scoring.models import Circle

    if circle_id is not None:
        circle = Circle.objects.filter(pk=circle_id).first()
        if circle is None:
            command.stderr.write(gettext("There is no circle %(id)s.") % {"id": circle_id})
            sys.exit(2)
        return circle
    if username is None:
        return None
    owner = get_user_model().objects.filter(username=username).first()
    if owner is None:
        command.stderr.write(gettext("There is no user called %(name)s.") % {"name": username})
        sys.exit(2)
    return personal_circle(owner)


def add_circle_arguments(parser: Any, *, what: str) -> None:
    parser.add_argument(
        "--owner", metavar="USERNAME", help=f"{what} of this user's personal circle"
    )
    parser.add_argument("--circle", metavar="ID", type=int, help=f"{what} of this circle")


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
