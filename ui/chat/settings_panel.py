"""The research settings panel: one control per run option, generated from ``ResearchOptions``
(``ui.core.option_fields``) — retrieval depth and mode, filters, retries. Read at each run's start,
so a change applies to the next run and never to one already running.

Every control takes its label, default, bounds and choices from the field it sets, so the chat offers
exactly what the command line and the model accept. Handlers take the run options by name
(``with_options``): the panel's values reach them as one ``ResearchOptions``, and the chat's API
takes each option under its field's name (``/research`` with ``k=``, ``types=``...).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import gradio as gr
from pydantic import ValidationError

from research.options import ResearchOptions
from ui.core.option_fields import OptionField, given_options, option_fields

OPTIONS = option_fields(ResearchOptions)
#: Controls small enough to stand side by side in one row when they follow each other.
SIDE_BY_SIDE = (gr.Slider, gr.Textbox, gr.Checkbox)


@dataclass(frozen=True)
class SettingsPanel:
    controls: dict[str, gr.components.Component]  # by option name, in the model's order

    @property
    def inputs(self) -> list[gr.components.Component]:
        """The controls in the order ``with_options`` handlers take them."""
        return list(self.controls.values())

    @property
    def documents(self) -> gr.Dropdown:
        """The document filter, whose choices change with the library."""
        return self.controls["doc_ids"]


def build_settings_panel(document_choices: list[tuple[str, str]]) -> SettingsPanel:
    gr.Markdown("Settings apply to the **next** run. Empty filters mean the whole library.", elem_classes="prp-note")
    controls: dict[str, gr.components.Component] = {}
    for kind, fields in groupby(OPTIONS, key=_control_type):
        with gr.Row() if kind in SIDE_BY_SIDE else nullcontext():
            for field in fields:
                controls[field.name] = _control(field, document_choices)
    return SettingsPanel(controls)


def _control_type(field: OptionField) -> type[gr.components.Component]:
    if field.kind is bool:
        return gr.Checkbox
    if field.many:
        return gr.CheckboxGroup if field.choices else gr.Dropdown
    if field.choices:
        return gr.Radio
    return gr.Slider if None not in field.bounds else gr.Textbox


def _control(field: OptionField, document_choices: list[tuple[str, str]]) -> gr.components.Component:
    label, info = field.label, field.info.description
    match _control_type(field):
        case gr.Checkbox:
            return gr.Checkbox(label=label, value=field.default)
        case gr.CheckboxGroup:
            return gr.CheckboxGroup(field.choices, label=label, value=[])
        case gr.Dropdown:  # the only free list is of documents: offered by title
            return gr.Dropdown(document_choices, multiselect=True, label=label, value=[])
        case gr.Radio:
            return gr.Radio(field.choices, value=_shown(field.default), label=label, info=info)
        case gr.Slider:
            lo, hi = field.bounds
            return gr.Slider(lo, hi, value=field.default, step=1, label=label, info=info)
        case _:
            # An open-ended number that may be left empty (a year filter): a Number box would show
            # and send 0 for "none", and filter the whole library away.
            return gr.Textbox(label=label, value="", placeholder="any", info=info)


def _shown(value: Any) -> Any:
    """A model value as a control holds it (an enum member as its value)."""
    return getattr(value, "value", value)


def _option(field: OptionField, value: Any) -> Any:
    """A control's value as the option takes it: numbers as whole numbers, an empty choice as none."""
    if field.many:
        return list(value) if value else None
    if field.kind is int:
        if isinstance(value, float):  # a slider's
            return int(value)
        # A text box's: empty is none; the model reads the digits and says what is wrong with the rest.
        return str(value).strip() or None if value is not None else None
    return value


def options_from(values: Mapping[str, Any]) -> ResearchOptions:
    """The panel's values by option name as run options; a ``gr.Error`` with the model's reason when
    they do not fit. Options not given take the model's defaults."""
    given = {f.name: _option(f, values[f.name]) for f in OPTIONS if f.name in values}
    try:
        return ResearchOptions.model_validate(given_options(ResearchOptions, given))
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        raise gr.Error(f"Settings not valid: {reasons}") from None


def with_options(handler: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    """A streaming handler as Gradio calls it: its ``options`` parameter becomes one parameter per
    run option, named and defaulted as in the model and in the panel's order (``SettingsPanel.inputs``),
    and the values given reach ``handler`` as one validated ``ResearchOptions``."""
    signature = inspect.signature(handler)
    parameters = list(signature.parameters.values())
    at = [p.name for p in parameters].index("options")

    in_order = inspect.Parameter.POSITIONAL_OR_KEYWORD  # Gradio passes its inputs in order
    one_each = [inspect.Parameter(f.name, in_order, default=None if f.many else _shown(f.default)) for f in OPTIONS]
    generated = signature.replace(
        parameters=[
            *(p.replace(kind=in_order) for p in parameters[:at]),
            *one_each,
            *(p.replace(kind=in_order) for p in parameters[at + 1 :]),
        ]
    )

    @functools.wraps(handler)
    def by_name(*args: Any, **kwargs: Any) -> Iterator[Any]:
        bound = generated.bind(*args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        options = options_from({f.name: values.pop(f.name) for f in OPTIONS})
        yield from handler(**values, options=options)

    by_name.__signature__ = generated  # type: ignore[attr-defined]
    return by_name
