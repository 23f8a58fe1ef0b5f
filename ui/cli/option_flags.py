"""Command-line flags generated from an options model (``ResearchOptions``, ``RetrievalOptions``).

Defaults, bounds, choices and help come from the model's fields (``ui.core.option_fields``), so
``prp report``, ``ask``, ``search`` and ``eval`` cannot drift from each other or from the chat's
settings. A flag left out takes the model's default; the values given are validated by the model
itself while the command line is parsed (``OptionsParser``), so a value it refuses (``--k 0``) is a
usage error naming the flag, before anything is opened.
"""

from __future__ import annotations

import argparse
from enum import Enum

from pydantic import BaseModel, ValidationError

from corpus.errors import PrpError
from ui.core.option_fields import OptionField, given_options, option_fields

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


def _dest(field: OptionField) -> str:
    return "opt__" + "__".join(field.path)


def add_option_flags(parser: argparse.ArgumentParser, model: type[BaseModel]) -> None:
    """One flag per option of ``model`` (nested models flattened: ``filters.year_min`` -> ``--year-min``);
    ``read_options`` turns the parsed flags into the model."""
    parser.set_defaults(options_model=model)
    for field in option_fields(model):
        _add_flag(parser, field)


def _add_flag(parser: argparse.ArgumentParser, field: OptionField) -> None:
    help_text = (field.info.description or "").rstrip(".")
    if field.kind is bool:
        _add_switch(parser, field, help_text)
        return
    detail = _detail(field)
    parser.add_argument(
        _flag(field.name),
        dest=_dest(field),
        type=None if field.choices else (int if field.kind is int else str),
        choices=field.choices,
        metavar=None if field.choices else _flag(field.name)[2:].upper().replace("-", "_"),
        action="append" if field.many else "store",
        default=None,
        help=f"{help_text} ({detail})" if detail else help_text,
    )


def _add_switch(parser: argparse.ArgumentParser, field: OptionField, help_text: str) -> None:
    """A yes/no option's flag: ``--no-…`` for one that is on by default."""
    if field.default:
        parser.add_argument(
            "--no-" + _flag(field.name)[2:],
            dest=_dest(field),
            action="store_false",
            default=None,
            help=f"turn off (on by default): {help_text}",
        )
    else:
        parser.add_argument(_flag(field.name), dest=_dest(field), action="store_true", default=None, help=help_text)


def _detail(field: OptionField) -> str:
    """What a value flag's help adds: "default 10, 1-50", "repeatable"."""
    default = field.default
    shown = f"default {default.value if isinstance(default, Enum) else default}" if default is not None else ""
    lo, hi = field.bounds
    bounds = f", {lo}-{hi}" if lo is not None and hi is not None else ""
    return ", ".join(x for x in (shown + bounds, "repeatable" if field.many else "") if x)


def read_options(args: argparse.Namespace) -> BaseModel | None:
    """The options the flags give (the model's defaults for the rest), validated by the model; None
    for a command without option flags."""
    model = getattr(args, "options_model", None)
    if model is None:
        return None
    given = {field.name: getattr(args, _dest(field), None) for field in option_fields(model)}
    try:
        return model.model_validate(given_options(model, given))
    except ValidationError as exc:
        raise OptionsError("; ".join(_problem(e) for e in exc.errors())) from None


def _problem(error: dict) -> str:
    """``--k: Input should be ...`` for a flag's own value; the message alone for a rule across flags."""
    message = error["msg"].removeprefix("Value error, ")
    # A rule across several fields (an empty year range) fails on the whole (sub-)model's input.
    across = not error["loc"] or isinstance(error.get("input"), dict)
    return message if across else f"{_flag(str(error['loc'][-1]))}: {message}"
