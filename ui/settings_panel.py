"""The research settings panel: retrieval depth and mode, filters, retries. Read at each run's start,
so a change applies to the next run and never to one already running."""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
from pydantic import ValidationError

from corpus.models import DocType
from graph.context import ResearchOptions, UnresolvedPolicy
from tools.hybrid_search import SearchFilters, SearchMode

DEFAULTS = ResearchOptions()


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
        return [self.k, self.mode, self.year_min, self.year_max, self.types, self.documents,
                self.include_references, self.max_retries, self.unresolved]


def build_settings_panel(document_choices: list[tuple[str, str]]) -> SettingsPanel:
    gr.Markdown("Settings apply to the **next** run. Empty filters mean the whole library.", elem_classes="prp-note")
    with gr.Row():
        k = gr.Slider(1, 30, value=DEFAULTS.k, step=1, label="Top-k chunks per search")
        max_retries = gr.Slider(0, 5, value=DEFAULTS.max_retries, step=1, label="Max gap retries")
    mode = gr.Radio([m.value for m in SearchMode], value=DEFAULTS.search_mode.value, label="Retrieval mode",
                    info="hybrid = dense MiniLM + BM25, fused with RRF")
    with gr.Row():
        year_min = gr.Number(label="Year from", precision=0, value=None)
        year_max = gr.Number(label="Year to", precision=0, value=None)
    types = gr.CheckboxGroup([t.value for t in DocType], label="Document types", value=[])
    documents = gr.Dropdown(document_choices, multiselect=True, label="Only these documents", value=[])
    include_references = gr.Checkbox(label="Also search reference lists / bibliographies", value=False)
    unresolved = gr.Radio(
        [("mark as unverified", UnresolvedPolicy.MARK.value), ("drop the claim", UnresolvedPolicy.DROP.value)],
        value=DEFAULTS.unresolved.value, label="Claims whose quote matches no stored block",
    )
    return SettingsPanel(k, mode, year_min, year_max, types, documents, include_references, max_retries, unresolved)


def options_from(
    k: float, mode: str, year_min: float | None, year_max: float | None, types: list[str] | None,
    documents: list[str] | None, include_references: bool, max_retries: float, unresolved: str,
) -> ResearchOptions:
    """The panel's values as run options; a ``gr.Error`` with the reason when they do not fit."""
    if year_min is not None and year_max is not None and year_min > year_max:
        raise gr.Error(f"Year range is empty: from {int(year_min)} to {int(year_max)}.")
    try:
        return ResearchOptions(
            k=int(k),
            max_retries=int(max_retries),
            search_mode=SearchMode(mode),
            unresolved=UnresolvedPolicy(unresolved),
            filters=SearchFilters(
                doc_ids=list(documents) if documents else None,
                year_min=int(year_min) if year_min is not None else None,
                year_max=int(year_max) if year_max is not None else None,
                types=[DocType(t) for t in types] if types else None,
                include_references=bool(include_references),
            ),
        )
    except (ValidationError, ValueError) as exc:
        raise gr.Error(f"Settings not valid: {exc}") from None
