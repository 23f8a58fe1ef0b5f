"""Upload validation: allowed types, size limit, safe names, nothing outside the uploads folder."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    settings = make_settings(PRP_UPLOAD_MAX_MB=0.001)  # 1,000 bytes
    incoming = tmp_path / "incoming"
    files = [
        ("good.md", _file(incoming, "a/good.md", b"# Title\n\nSome text.\n")),
        ("tool.exe", _file(incoming, "b/tool.exe", b"MZ...")),
        ("empty.txt", _file(incoming, "c/empty.txt", b"")),
        ("huge.txt", _file(incoming, "d/huge.txt", b"x" * 5000)),
        ("../../escape.txt", _file(incoming, "e/escape.txt", b"escaped?")),
    ]
    stored, rejected = store_uploads(files, settings)
    reasons = {r.name: r.reason for r in rejected}
    assert set(reasons) == {"tool.exe", "empty.txt", "huge.txt"}
    assert "not supported" in reasons["tool.exe"] and ".pdf" in reasons["tool.exe"]
    assert reasons["empty.txt"] == "the file is empty"
    assert "over the 0.001 MB limit" in reasons["huge.txt"]
    uploads = settings.uploads_dir.resolve()
    assert sorted(p.name for p in uploads.iterdir()) == ["escape.txt", "good.md"]
    assert all(s.path.resolve().parent == uploads for s in stored)
    assert not (settings.data_dir.parent / "escape.txt").exists()


def test_same_name_other_content_gets_a_new_name_and_identical_files_are_reused(make_settings, tmp_path):
    settings = make_settings()
    one = _file(tmp_path / "1", "notes.md", b"first version")
    two = _file(tmp_path / "2", "notes.md", b"second version")
    (first,), _ = store_uploads([("notes.md", one)], settings)
    (again,), _ = store_uploads([("notes.md", one)], settings)
    (other,), _ = store_uploads([("notes.md", two)], settings)
    assert first.new and not again.new and again.path == first.path
    assert other.new and other.path.name == "notes-2.md"
    discard(again)  # not created by that upload: the earlier copy stays
    assert first.path.exists()
    discard(other)
    assert not other.path.exists()
