"""Many rows inserted at once when their pks are not needed back (tallies, statistics rows).

For hundreds of thousands of rows, `QuerySet.bulk_create` spends far more time preparing each
value than the database spends writing it; this prepares only the values that need it (dates)
and hands the rows to the driver's executemany.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, models

from scoring.web.chunks import chunked

# Field types whose Python values the drivers take as they are.
PLAIN = (models.IntegerField, models.BooleanField, models.CharField, models.ForeignKey)
BATCH = 5000


def insert_rows(model: type[models.Model], objs: Iterable[models.Model | dict[str, Any]]) -> int:
    """INSERT the unsaved objects, or dicts of their field values by attname (cheaper to make
    by the hundred thousand), every concrete field but an auto pk; returns how many."""
    fields = _inserted_fields(model)
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
    )
    getters = [_getter(field) for field in fields]
    count = 0
    with connection.cursor() as cursor:
        for batch in chunked((tuple(get(obj) for get in getters) for obj in objs), BATCH):
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


def _inserted_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's concrete fields but an auto pk; ValueError for one that is set on save."""
    fields = [
        field
        for field in model._meta.concrete_fields
        if not (field.primary_key and isinstance(field, models.AutoField))
    ]
    for field in fields:
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            raise ValueError(f"{model.__name__}.{field.name} is set on save: use bulk_create")
    return fields


def _getter(field: models.Field) -> Callable[[models.Model | dict[str, Any]], Any]:
    name = field.attname

    def value(obj: models.Model | dict[str, Any]) -> Any:
        return obj[name] if isinstance(obj, dict) else getattr(obj, name)

    if isinstance(field, PLAIN):
        return value
    return lambda obj: field.get_db_prep_save(value(obj), connection)
