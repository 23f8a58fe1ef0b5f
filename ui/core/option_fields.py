"""An options model's fields, flattened (``filters.year_min`` is the option ``year_min``): what the
command line's flags and the chat's controls are generated from, and how values given by option name
become the model again, validated by the model itself."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from annotated_types import Ge, Le
from pydantic import BaseModel
from pydantic.fields import FieldInfo


@dataclass(frozen=True)
class OptionField:
    path: tuple[str, ...]  # ("filters", "year_min")
    info: FieldInfo
    kind: type  # the field's type without ``| None``; for a list, its items' type
    many: bool  # a list of ``kind``

    @property
    def name(self) -> str:
        return self.path[-1]

    @property
    def default(self) -> Any:
        return self.info.get_default(call_default_factory=True)

    @property
    def choices(self) -> list[str] | None:
        return [m.value for m in self.kind] if issubclass(self.kind, Enum) else None

    @property
    def bounds(self) -> tuple[int | None, int | None]:
        lo = next((m.ge for m in self.info.metadata if isinstance(m, Ge)), None)
        hi = next((m.le for m in self.info.metadata if isinstance(m, Le)), None)
        return lo, hi

    @property
    def label(self) -> str:
        return self.info.title or (self.info.description or "").rstrip(".")


def option_fields(model: type[BaseModel], path: tuple[str, ...] = ()) -> list[OptionField]:
    """Every field of ``model`` in order, nested models' fields in their place."""
    fields = []
    for name, info in model.model_fields.items():
        kind, many = _base(info.annotation)
        if issubclass(kind, BaseModel):
            fields += option_fields(kind, (*path, name))
        else:
            fields.append(OptionField((*path, name), info, kind, many))
    return fields


def given_options(model: type[BaseModel], values: Mapping[str, Any]) -> dict:
    """The values given by option name (None: not given, the model's default) nested as ``model``
    takes them."""
    nested: dict = {}
    for field in option_fields(model):
        value = values.get(field.name)
        if value is None:
            continue
        place = nested
        for part in field.path[:-1]:
            place = place.setdefault(part, {})
        place[field.name] = value
    return nested


def _base(annotation: object) -> tuple[type, bool]:
    """The field's type without ``| None``, and whether it is a list of that type."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if typing.get_origin(annotation) is list:
        return typing.get_args(annotation)[0], True
    return annotation, False  # type: ignore[return-value]
