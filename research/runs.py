"""A research run as a list shows it. Every run is one thread of the graph's checkpointer
(``graph.threads`` lists them); the chat groups them into conversations."""

from __future__ import annotations

from pydantic import BaseModel, Field, computed_field


class RunSummary(BaseModel):
    thread_id: str
    topic: str
    single_question: bool
    started: str = Field(description="When its first checkpoint was written (ISO 8601, UTC).")
    finished: bool
    mode: str | None = Field(description="offline or llm (<model>) for a finished run; None while unfinished.")
    citations: int

    @computed_field(description="question or topic report")
    @property
    def kind(self) -> str:
        return "question" if self.single_question else "topic report"
