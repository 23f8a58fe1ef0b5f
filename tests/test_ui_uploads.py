"""Upload validation: allowed types, size limit, safe names, nothing outside the uploads folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import LimitSettings
from corpus.registry import Registry
from ui.core.uploads import discard, sanitize_filename, store_uploads


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("paper.pdf", "paper.pdf"),
        ("../../etc/passwd.md", "passwd.md"),
        ("C:\\Users\\me\\Notes 2024.TXT", "Notes_2024.txt"),
        ("/abs/path/x.html", "x.html"),
        (".hidden.md", "hidden.md"),
        ("..", "upload"),
        ("Résumé — café.md", "Resume_cafe.md"),
        ("a;rm -rf $(x).pdf", "a_rm_-rf_x.pdf"),
        ("report.tar.gz", "report.tar.gz"),
        ("noext", "noext"),
    ],
)
def test_sanitize_filename(name, safe):
    assert sanitize_filename(name) == safe


def test_long_names_are_cut_keeping_the_suffix():
    name = sanitize_filename("x" * 500 + ".pdf")
    assert len(name) <= 120 and name.endswith(".pdf")


def _file(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_each_bad_file_is_rejected_with_its_reason_and_the_rest_are_stored(make_settings, tmp_path):
    settings = make_settings(limits=LimitSettings(upload_max_mb=0.001))  # 1,000 bytes
    incoming = tmp_path / "incoming"
    files = [
        ("good.md", _file(incoming, "a/good.md", b"# Title\n\nSome text.\n")),
        ("tool.exe", _file(incoming, "b/tool.exe", b"MZ...")),
        ("empty.txt", _file(incoming, "c/empty.txt", b"")),
        ("huge.txt", _file(incoming, "d/huge.txt", b"x" * 5000)),
        ("../../escape.txt", _file(incoming, "e/escape.txt", b"escaped?")),
    ]
    stored, rejected = store_uploads(files, settings, Registry(settings.storage.registry_path))
    reasons = {r.name: r.reason for r in rejected}
    assert set(reasons) == {"tool.exe", "empty.txt", "huge.txt"}
    assert "not supported" in reasons["tool.exe"] and ".pdf" in reasons["tool.exe"]
    assert reasons["empty.txt"] == "the file is empty"
    assert "over the 0.001 MB limit" in reasons["huge.txt"]
    uploads = settings.storage.uploads_dir.resolve()
    assert sorted(p.name for p in uploads.iterdir()) == ["escape.txt", "good.md"]
    assert all(s.path.resolve().parent == uploads for s in stored)
    assert not (settings.storage.data_dir.parent / "escape.txt").exists()


def test_same_name_other_content_gets_a_new_name_and_identical_files_are_reused(make_settings, tmp_path):
    settings = make_settings()
    registry = Registry(settings.storage.registry_path)
    one = _file(tmp_path / "1", "notes.md", b"first version")
    two = _file(tmp_path / "2", "notes.md", b"second version")
    (first,), _ = store_uploads([("notes.md", one)], settings, registry)
    (again,), _ = store_uploads([("notes.md", one)], settings, registry)
    (other,), _ = store_uploads([("notes.md", two)], settings, registry)
    assert first.new and not again.new and again.path == first.path
    assert other.new and other.path.name == "notes-2.md"
    discard(again)  # not created by that upload: the earlier copy stays
    assert first.path.exists()
    discard(other)
    assert not other.path.exists()


def test_the_same_bytes_under_other_names_are_stored_once(make_settings, tmp_path):
    settings = make_settings()
    registry = Registry(settings.storage.registry_path)
    data = b"# Field notes\n\nThe same bytes, uploaded under three names.\n"
    files = [(name, _file(tmp_path / name, name, data)) for name in ("a.md", "b.md", "c.txt")]
    stored, rejected = store_uploads(files, settings, registry)
    assert not rejected and [s.name for s in stored] == ["a.md", "b.md", "c.txt"]
    assert {s.path for s in stored} == {settings.storage.uploads_dir.resolve() / "a.md"}  # one copy, not three
    assert [s.new for s in stored] == [True, False, False]
    assert [p.name for p in settings.storage.uploads_dir.iterdir()] == ["a.md"]


def test_an_upload_the_library_holds_is_not_stored_and_names_the_document(make_library, tmp_path):
    library = make_library()
    original = _file(tmp_path / "kept", "apiary.md", b"# Rooftop Apiaries\n\nEach hive made 14.5 kg of honey.\n")
    (document,) = [f for f in library.ingest([original]).files]
    copy = _file(tmp_path / "elsewhere", "renamed.md", original.read_bytes())
    stored, (rejected,) = store_uploads([("renamed.md", copy)], library.settings, library.registry)
    assert stored == [] and rejected.duplicate_of.doc_id == document.doc_id
    assert "Rooftop Apiaries" in rejected.reason and document.doc_id in rejected.reason
    assert not any(library.settings.storage.uploads_dir.iterdir())
