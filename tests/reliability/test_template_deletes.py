"""Deleting from a template-like library costs what is removed (issue 34, item 6). Reported: in a
watched folder of 4,800 template notes, deleting 10 files took 622 s: every note sharing the
heading was marked again, once per deletion. Now a sync's removals are one batch, marked again
once, and only documents holding a fingerprint whose count crossed the boilerplate threshold are
looked at (``benchmarks/hostile_ingest.py --deletes`` times the full size)."""

from __future__ import annotations

from pathlib import Path

from corpus.ingest import Ingestor
from corpus.registry import Registry
from corpus.retrieval import SearchMode
from tools.hybrid_search import hybrid_search
from ui.core.local import LocalPortal

WORDS = "alder birch cedar dogwood elm fir ginkgo hazel ivy juniper larch maple".split()


def template_note(folder: Path, word: str) -> Path:
    path = folder / f"{word}.md"
    path.write_text(
        f"# Weekly notes\n\nAttendees: the whole team.\n\nAgenda as circulated beforehand.\n\n"
        f"Decided to plant a {word} by the gate.\n",
        encoding="utf-8",
    )
    return path


def test_removals_are_one_batch_marked_again_once_and_only_where_counts_cross(make_library, tmp_path, monkeypatch):
    folder = tmp_path / "notes"
    folder.mkdir()
    notes = [template_note(folder, w) for w in WORDS]
    library = make_library()
    remarks: list[int] = []  # per re-marking with work queued: how many documents it looked at
    candidates = Registry.remark_candidates
    remark = Ingestor.remark

    def counted_remark(self):
        if self.registry.remark_queue():
            remarks.append(-1)
        return remark(self)

    def counted_candidates(self):
        found = candidates(self)
        remarks[-1] = len(found)
        return found

    with LocalPortal(library, foreground=True) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        marked = {b.text for d in library.registry.documents() for b in library.registry.blocks_of(d.doc_id)}
        assert library.registry.counts()["documents"] == 12 and "Attendees: the whole team." in marked
        monkeypatch.setattr(Ingestor, "remark", counted_remark)
        monkeypatch.setattr(Registry, "remark_candidates", counted_candidates)

        def sync() -> list[str]:
            remarks.clear()
            outcome = portal.follow(portal.sync().job_id, lambda e: None)
            return [Path(d.path).stem for d in outcome.sync.removed]

        for path in notes[:5]:
            path.unlink()
        assert sorted(sync()) == sorted(WORDS[:5])
        # One re-marking for the five removals, and no note looked at: 12 -> 7 holders of the
        # shared lines, boilerplate before and after.
        assert remarks == [0]
        for path in notes[5:10]:
            path.unlink()
        assert sorted(sync()) == sorted(WORDS[5:10])
        # 7 -> 2: the lines two notes share are content again, in both, once.
        assert remarks == [2]
    left = library.registry.documents()
    assert sorted(Path(d.path).stem for d in left) == sorted(WORDS[10:])
    for doc in left:
        assert not any(b.boilerplate for b in library.registry.blocks_of(doc.doc_id))
    hits = hybrid_search(library, "Attendees whole team", 5, mode=SearchMode.SPARSE)
    assert {h.doc_id for h in hits} == {d.doc_id for d in left}
    assert library.store.count() == library.registry.counts()["chunks"] and library.registry.remark_queue() == []
