"""Boilerplate: text a collection repeats across its documents (site titles, navigation menus,
breadcrumbs, footers, cookie banners, running headers) rather than any one document's content.

The rule, applied per block:

- A block's **fingerprint** is a hash of its normalised text: lower-cased, punctuation and spacing
  dropped, every free-standing number read as one placeholder (so "© 2023" and "© 2024", "page 3 of
  12" and "page 4 of 12" match) while a digit run glued to letters stays as written ("tinyword1500",
  "ISO9001", "v2", "note_17": a name, and often the one thing telling two notes of a template
  apart), and the document's own title masked (so "Documentation / User Guide / Overview" on the
  Overview page matches "... / Installation" on the Installation page). Text with no letters has no
  fingerprint and is never boilerplate.
- A block holding a free-standing number also has a **number fingerprint**: the same, with its
  numbers as written. When fewer than ``MIN_DOCUMENTS`` documents hold that, and the block occurs
  once in its document, the numbers are the document's own ("Invoice number 481200", "Case
  2023-0042", "DOI 10.5555/1234") and the block is content, however many documents share its
  template ("Invoice number #"). A running header occurring on every page of a document ("Page 3 of
  12") and a number every document repeats ("© 2024") stay the template's. So a document can be
  found by the number, code or identifier that tells it apart, as by a word.
- A non-heading block is **boilerplate** when its fingerprint occurs in at least ``MIN_DOCUMENTS``
  (3) distinct documents of the collection (and its numbers are not its own, above). Two is not enough: two versions of one report, or a
  paper and its preprint, share their paragraphs, and those are content. There is no share-of-the-
  collection threshold: a documentation site is usually a small part of a mixed library (12 pages
  among 300 papers is 4%), and its boilerplate must still be found.
- **Copies** are not boilerplate: when at least half of a document's paragraph-length text (blocks
  of ``LONG_BLOCK_WORDS`` words or more), and at least ``COPY_MIN_WORDS`` words of it, is repeated,
  the document is a version of the others rather than a page with a template around it, and only
  its short repeated blocks are marked. A cookie banner or a licence notice is a few dozen words;
  three drafts of a report share thousands.
- A **heading** is section structure and is kept, unless it is repeated too and the block right
  after it is boilerplate: a site title or a "Menu" heading over the navigation, not a section.
- Marking never takes a document's **last body block** (any block but a heading or a reference
  entry: the only kind certain to land in a chunk a default search sees). When every one would be
  marked (notes written from one template, pages differing only in a free-standing number) none
  is: the document keeps all its text. So a document an ingest reports as ok can be found by a
  word or a number only it holds, if it holds one.

Marking depends only on the set of documents in the collection, never on the order they came in;
the registry keeps, per document, the fingerprints it holds, so counting a fingerprint's
documents is an index lookup, not a scan of the blocks.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence

from corpus.models import Block, BlockKind

MIN_DOCUMENTS = 3
LONG_BLOCK_WORDS = 25
COPY_SHARE = 0.5
COPY_MIN_WORDS = 200
# Bumped whenever ``fingerprint`` or the rule in ``detect`` changes: a registry written under another
# version recomputes its fingerprints when opened and queues them all, so the next ingest re-marks.
FINGERPRINT_VERSION = "3"

# Runs of letters, digits and underscores holding a letter or a digit: a digit run glued to letters
# is part of the word, and a blank to fill in ("Name: ____") is no word.
_WORD = re.compile(r"\w*[^\W_]\w*")
_TITLE_MARK = "\x00"
_HEADING_MARK = "\x01"
_NUMBER_MARK = "\x02"  # a number fingerprint never equals a fingerprint


def normalise(text: str, numbers: bool = False) -> str:
    """Lower-case words, and a placeholder for each free-standing number (``numbers``: the number as
    written), separated by single spaces."""
    words = _WORD.findall(unicodedata.normalize("NFKC", text).lower())
    return " ".join("#" if w.isdigit() and not numbers else w for w in words)


def number_fingerprint(text: str, title: str = "", heading: bool = False) -> str | None:
    """The fingerprint of the block's text with its free-standing numbers as written; None when it
    holds none (its fingerprint says all) or has no fingerprint."""
    if not any(w.isdigit() for w in _WORD.findall(text)):
        return None
    return _hashed(normalise(text, numbers=True), normalise(title, numbers=True), heading, _NUMBER_MARK)


def fingerprint(text: str, title: str = "", heading: bool = False) -> str | None:
    """The block's normalised text with the document title masked, hashed; None without letters.

    A block that is nothing but the title (a navigation entry naming this very page) keeps its
    unmasked text, so it still matches the same entry on every other page. Headings are counted
    apart from body text: "Summary" as a heading in two documents does not make a paragraph that
    reads "Summary" in a third one boilerplate.
    """
    return _hashed(normalise(text), normalise(title), heading)


def _hashed(norm: str, title: str, heading: bool, mark: str = "") -> str | None:
    if not any(c.isalpha() for c in norm):
        return None
    masked = _mask(norm, title)
    if any(c.isalpha() for c in masked):
        norm = masked
    if heading:
        norm = f"{_HEADING_MARK} {norm}"
    if mark:
        norm = f"{mark} {norm}"
    return hashlib.blake2b(norm.encode(), digest_size=10).hexdigest()


def _mask(norm: str, title: str) -> str:
    if not title or not any(c.isalpha() for c in title):
        return norm
    return f" {norm} ".replace(f" {title} ", f" {_TITLE_MARK} ").strip()


def fingerprints(blocks: Sequence[Block], title: str) -> list[str | None]:
    return [fingerprint(b.text, title, b.kind is BlockKind.HEADING) for b in blocks]


def number_fingerprints(blocks: Sequence[Block], title: str) -> list[str | None]:
    return [number_fingerprint(b.text, title, b.kind is BlockKind.HEADING) for b in blocks]


def detect(
    blocks: Sequence[Block],
    fps: Sequence[str | None],
    documents: Mapping[str, int],
    nfps: Sequence[str | None] | None = None,
) -> list[bool]:
    """Which of one document's ``blocks`` are boilerplate.

    ``fps`` are the blocks' fingerprints, ``nfps`` their number fingerprints (None: not known, no
    number is a document's own); ``documents`` maps either kind to the number of distinct documents
    of the collection holding it, this one included.
    """
    repeated = _repeated(fps, nfps if nfps is not None else [None] * len(fps), documents)
    marked = [r and b.kind is not BlockKind.HEADING for r, b in zip(repeated, blocks, strict=True)]
    marked = _keep_searchable(blocks, _spare_copies(blocks, marked))
    return _mark_headings_over(blocks, repeated, marked)


def _repeated(fps: Sequence[str | None], nfps: Sequence[str | None], documents: Mapping[str, int]) -> list[bool]:
    """Whether each block's text is the collection's: its fingerprint held by ``MIN_DOCUMENTS``
    documents, and not a one-off block whose numbers are its document's own."""
    here = Counter(fp for fp in fps if fp)
    return [
        fp is not None
        and documents.get(fp, 0) >= MIN_DOCUMENTS
        and not (nfp is not None and here[fp] == 1 and documents.get(nfp, 0) < MIN_DOCUMENTS)
        for fp, nfp in zip(fps, nfps, strict=True)
    ]


def _spare_copies(blocks: Sequence[Block], marked: list[bool]) -> list[bool]:
    """Unmark the long blocks of a copy: a document most of whose paragraph-length text is marked is
    a version of the others, and only its short repeated blocks are template."""
    words = [len(b.text.split()) for b in blocks]
    long_total = sum(
        n for n, b in zip(words, blocks, strict=True) if n >= LONG_BLOCK_WORDS and b.kind is not BlockKind.HEADING
    )
    long_repeated = sum(n for i, n in enumerate(words) if n >= LONG_BLOCK_WORDS and marked[i])
    if long_repeated >= COPY_MIN_WORDS and long_repeated >= COPY_SHARE * long_total:
        return [m and n < LONG_BLOCK_WORDS for m, n in zip(marked, words, strict=True)]
    return marked


def _mark_headings_over(blocks: Sequence[Block], repeated: list[bool], marked: list[bool]) -> list[bool]:
    """Mark a repeated heading whose next block is marked (a site title over the navigation)."""
    marked = list(marked)
    # Backwards, so a repeated heading over another repeated heading over boilerplate goes too.
    for i in range(len(blocks) - 2, -1, -1):
        if blocks[i].kind is BlockKind.HEADING and repeated[i] and marked[i + 1]:
            marked[i] = True
    return marked


def _is_body(block: Block) -> bool:
    """Text that always lands in a chunk a default search sees: not a heading (a heading over a
    reference list opens the references' chunk, which default searches leave out, see
    ``corpus.chunking``), not a reference entry, not a figure's text (in no chunk), not empty."""
    return block.kind not in (BlockKind.HEADING, BlockKind.REFERENCE, BlockKind.FIGURE) and bool(block.text.strip())


def _keep_searchable(blocks: Sequence[Block], marked: list[bool]) -> list[bool]:
    """Unmark every body block when marking would take them all.

    Repetition says a block belongs to the collection's template, but a document that is all
    template (notes written from one form, pages differing only in a free-standing number) is
    still a document the user added and must be able to find. Which of its blocks tells it apart
    cannot be read from counts: keeping only the rarest would keep a line five notes share and drop
    the "Note 1500" shared, as "note #", by all of them. So it keeps its whole text. Runs before the
    heading rule, so the headings over that text stay with it.
    """
    body = [i for i, b in enumerate(blocks) if _is_body(b)]
    if not body or not all(marked[i] for i in body):
        return marked
    return [m and not _is_body(b) for b, m in zip(blocks, marked, strict=True)]
