"""Command-line flags generated from an options model (``ResearchOptions``, ``RetrievalOptions``).

Defaults, bounds, choices and help come from the model's fields, so ``prp report``, ``ask``,
``search`` and ``eval`` cannot drift from each other or from the chat's settings. A flag left out
takes the model's default; the values given are validated by the model itself while the command
line is parsed (``OptionsParser``), so a value it refuses (``--k 0``) is a usage error naming the
flag, before anything is opened.
"""

from __future__ import annotations

import argparse
import types
import typing
from enum import Enum

from annotated_types import Ge, Le
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from corpus.errors import PrpError

# Shorter flag names where the field name reads badly on a command line.
FLAG_NAMES = {
    "search_mode": "mode",
    "doc_ids": "doc",
    "types": "type",
    "scope_to_named_documents": "title-scope",
}


class OptionsError(PrpError):
    """Flags whose values the options model refuses."""


class OptionsParser(argparse.ArgumentParser):
    """An argument parser that leaves the validated options model in ``args.options``."""

    def parse_known_args(self, args=None, namespace=None):
        parsed, extras = super().parse_known_args(args, namespace)
        try:
            parsed.options = read_options(parsed)
        except OptionsError as exc:
            self.error(str(exc))
        return parsed, extras


def _flag(name: str) -> str:
    return "--" + FLAG_NAMES.get(name, name).replace("_", "-")


def _dest(path: tuple[str, ...]) -> str:
    return "opt__" + "__".join(path)


def _bounds(info: FieldInfo) -> str:
    lo = next((m.ge for m in info.metadata if isinstance(m, Ge)), None)
    hi = next((m.le for m in info.metadata if isinstance(m, Le)), None)
    return f", {lo}-{hi}" if lo is not None and hi is not None else ""


def _base(annotation: object) -> tuple[type, bool]:
    """The field's type without ``| None``, and whether it is a list of that type."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    if typing.get_origin(annotation) is list:
        return typing.get_args(annotation)[0], True
    return annotation, False  # type: ignore[return-value]


def add_option_flags(parser: argparse.ArgumentParser, model: type[BaseModel]) -> None:
    """One flag per field of ``model`` (nested models flattened: ``filters.year_min`` -> ``--year-min``);
    ``read_options`` turns the parsed flags into the model."""
    parser.set_defaults(options_model=model)
    _add_fields(parser, model, ())


def _add_fields(parser: argparse.ArgumentParser, model: type[BaseModel], path: tuple[str, ...]) -> None:
    for name, info in model.model_fields.items():
        kind, many = _base(info.annotation)
        dest = _dest((*path, name))
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            _add_fields(parser, kind, (*path, name))
            continue
        help_text = (info.description or "").rstrip(".")
        if kind is bool:
            if info.default:
                parser.add_argument(
                    "--no-" + _flag(name)[2:],
                    dest=dest,
                    action="store_false",
                    default=None,
                    help=f"turn off (on by default): {help_text}",
                )
            else:
                parser.add_argument(_flag(name), dest=dest, action="store_true", default=None, help=help_text)
            continue
        choices = [m.value for m in kind] if issubclass(kind, Enum) else None
        default = info.get_default(call_default_factory=True)
        shown = f"default {default.value if isinstance(default, Enum) else default}" if default is not None else ""
        detail = ", ".join(x for x in (shown + _bounds(info), "repeatable" if many else "") if x)
        parser.add_argument(
            _flag(name),
            dest=dest,
            type=None if choices else (int if kind is int else str),
            choices=choices,
            metavar=None if choices else _flag(name)[2:].upper().replace("-", "_"),
            action="append" if many else "store",
            default=None,
            help=f"{help_text} ({detail})" if detail else help_text,
        )


def _given(model: type[BaseModel], args: argparse.Namespace, path: tuple[str, ...] = ()) -> dict:
    values: dict = {}
    for name, info in model.model_fields.items():
        kind, _ = _base(info.annotation)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            nested = _given(kind, args, (*path, name))
            if nested:
                values[name] = nested
            continue
        value = getattr(args, _dest((*path, name)), None)
        if value is not None:
            values[name] = value
    return values


def read_options(args: argparse.Namespace) -> BaseModel | None:
    """The options the flags give (the model's defaults for the rest), validated by the model; None
    for a command without option flags."""
    model = getattr(args, "options_model", None)
    if model is None:
        return None
    try:
        return model.model_validate(_given(model, args))
    except ValidationError as exc:
        raise OptionsError("; ".join(_problem(e) for e in exc.errors())) from None


def _problem(error: dict) -> str:
    """``--k: Input should be ...`` for a flag's own value; the message alone for a rule across flags."""
    message = error["msg"].removeprefix("Value error, ")
    # A rule across several fields (an empty year range) fails on the whole (sub-)model's input.
    across = not error["loc"] or isinstance(error.get("input"), dict)
    return message if across else f"{_flag(str(error['loc'][-1]))}: {message}"
