"""The import form: a match file, refused before any JSON is read when too large or not text."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.sharing import exchange


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Match file (JSON)"),
        help_text=gettext_lazy("A file exported from this app, or written by hand. Up to 2 MB."),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> str:
        """The file's text; too large or not text is refused before any JSON is read."""
        upload: UploadedFile = self.cleaned_data["file"]
        if upload.size is not None and upload.size > exchange.MAX_IMPORT_BYTES:
            raise ValidationError(
                _("This file is larger than %(limit)s, the most that can be imported at once.")
                % {"limit": filesizeformat(exchange.MAX_IMPORT_BYTES)}
            )
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(
                _("This file is not text (UTF-8): it cannot be a match file.")
            ) from None
