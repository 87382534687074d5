"""Sharing: read-only share links to a match, and matches leaving and entering the app (export and
import in the match JSON format, CSV of hands)."""
