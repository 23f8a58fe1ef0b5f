"""The research settings panel: retrieval depth and mode, filters, retries. Read at each run's start,
so a change applies to the next run and never to one already running.

Every control takes its label, default, bounds and choices from the ``ResearchOptions`` field it
sets, so the chat offers exactly what the command line and the model accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import gradio as gr
from annotated_types import Ge, Le
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from corpus.models import DocType
from research.options import ResearchOptions, UnresolvedPolicy
from tools.hybrid_search import SearchFilters, SearchMode

DEFAULTS = ResearchOptions()


def _field(model: type[BaseModel], name: str) -> FieldInfo:
    return model.model_fields[name]


def _label(info: FieldInfo) -> str:
    return info.title or (info.description or "").rstrip(".")


def _slider(model: type[BaseModel], name: str) -> gr.Slider:
    info = _field(model, name)
    lo = next(m.ge for m in info.metadata if isinstance(m, Ge))
    hi = next(m.le for m in info.metadata if isinstance(m, Le))
    return gr.Slider(lo, hi, value=info.default, step=1, label=_label(info), info=info.description)


def _radio(model: type[BaseModel], name: str, enum: type[Enum]) -> gr.Radio:
    info = _field(model, name)
    return gr.Radio([m.value for m in enum], value=info.default.value, label=_label(info), info=info.description)


def _checkbox(model: type[BaseModel], name: str) -> gr.Checkbox:
    info = _field(model, name)
    return gr.Checkbox(label=_label(info), value=info.default)


@dataclass(frozen=True)
class SettingsPanel:
    k: gr.Slider
    mode: gr.Radio
    year_min: gr.Number
    year_max: gr.Number
    types: gr.CheckboxGroup
    documents: gr.Dropdown
    include_references: gr.Checkbox
    max_retries: gr.Slider
    unresolved: gr.Radio

    @property
    def inputs(self) -> list[gr.components.Component]:
        """In the order ``options_from`` takes them."""
        return [
            self.k,
            self.mode,
            self.year_min,
            self.year_max,
            self.types,
            self.documents,
            self.include_references,
            self.max_retries,
            self.unresolved,
        ]


def build_settings_panel(document_choices: list[tuple[str, str]]) -> SettingsPanel:
    gr.Markdown("Settings apply to the **next** run. Empty filters mean the whole library.", elem_classes="prp-note")
    with gr.Row():
        k = _slider(ResearchOptions, "k")
        max_retries = _slider(ResearchOptions, "max_retries")
    mode = _radio(ResearchOptions, "search_mode", SearchMode)
    with gr.Row():
        year_min = gr.Number(label=_label(_field(SearchFilters, "year_min")), precision=0, value=None)
        year_max = gr.Number(label=_label(_field(SearchFilters, "year_max")), precision=0, value=None)
    types = gr.CheckboxGroup([t.value for t in DocType], label=_label(_field(SearchFilters, "types")), value=[])
    documents = gr.Dropdown(
        document_choices, multiselect=True, label=_label(_field(SearchFilters, "doc_ids")), value=[]
    )
    include_references = _checkbox(SearchFilters, "include_references")
    unresolved = _radio(ResearchOptions, "unresolved", UnresolvedPolicy)
    return SettingsPanel(k, mode, year_min, year_max, types, documents, include_references, max_retries, unresolved)


def options_from(
    k: float,
    mode: str,
    year_min: float | None,
    year_max: float | None,
    types: list[str] | None,
    documents: list[str] | None,
    include_references: bool,
    max_retries: float,
    unresolved: str,
) -> ResearchOptions:
    """The panel's values as run options; a ``gr.Error`` with the model's reason when they do not fit."""
    try:
        return ResearchOptions.model_validate(
            {
                "k": int(k),
                "max_retries": int(max_retries),
                "search_mode": mode,
                "unresolved": unresolved,
                "filters": {
                    "doc_ids": list(documents) if documents else None,
                    "year_min": int(year_min) if year_min is not None else None,
                    "year_max": int(year_max) if year_max is not None else None,
                    "types": list(types) if types else None,
                    "include_references": bool(include_references),
                },
            }
        )
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        raise gr.Error(f"Settings not valid: {reasons}") from None
