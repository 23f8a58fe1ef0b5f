"""A page's characters -> words (spacing accents put onto their letters) -> segments, and
segments -> rows."""

from __future__ import annotations

import re
import unicodedata

from pdfplumber.utils.text import LIGATURES, WordExtractor

from corpus.loaders.pdf.elements import Segment, Word

# Words on one baseline further apart than this (in em) belong to different segments. Column
# gutters are 1.2 em (IEEE) or wider; justified inter-word spaces stay well below one em.
SEGMENT_GAP_EM = 1.0
# Vertical bucket size (pt) for matching words to open segments.
SEGMENT_BUCKET = 4.0
# Spacing accents that TeX places over a letter as a separate glyph ("Fa¨rber" -> "Färber").
ACCENTS = {
    "\u00a8": "\u0308",
    "\u00b4": "\u0301",
    "`": "\u0300",
    "\u02c6": "\u0302",
    "\u02dc": "\u0303",
    "\u00b8": "\u0327",
    "\u02c7": "\u030c",
    "\u02d8": "\u0306",
    "\u02d9": "\u0307",
    "\u02da": "\u030a",
    "\u02dd": "\u030b",
    "\u00af": "\u0304",
}
ACCENT_CHARS = re.compile("[" + "".join(ACCENTS) + "]")


def page_words(chars: list[dict], extractor: WordExtractor, bbox: tuple[float, ...]) -> tuple[list[Word], str]:
    """Upright words of the page, and the text of rotated characters (the arXiv stamp)."""
    upright: list[dict] = []
    rotated: list[dict] = []
    seen: set[tuple[str, int, int]] = set()
    left, top, right, bottom = bbox
    for c in chars:
        text = c["text"]
        if text.startswith("(cid:"):
            continue
        if c["x1"] < left or c["x0"] > right or c["bottom"] < top or c["top"] > bottom:
            continue  # outside the visible page
        # Fake bold draws each glyph twice, a fraction of a point apart: keep one.
        key = (text, round(c["x0"]), round(c["top"]))
        if key in seen:
            continue
        seen.add(key)
        if c["upright"]:
            upright.append(c)
        else:
            rotated.append(c)
    words: list[Word] = []
    for w, chars in extractor.iter_extract_tuples(upright):
        text = w["text"]
        if not text.strip():
            continue
        if len(chars) > 1 and ACCENT_CHARS.search(text):
            text = _compose_accents(chars)
        first = chars[0]
        words.append(
            Word(text, w["x0"], w["x1"], w["top"], w["bottom"], first["baseline"], first["size"], first["fontname"])
        )
    stamp = "".join(c["text"] for c in rotated)
    return words, stamp


def _compose_accents(chars: list[dict]) -> str:
    """Put each spacing accent onto the letter it sits over, as one precomposed character."""
    texts = [LIGATURES.get(c["text"], c["text"]) for c in chars]
    combining = [""] * len(chars)
    for i, c in enumerate(chars):
        mark = ACCENTS.get(c["text"])
        if mark is None:
            continue
        width = max(c["x1"] - c["x0"], 0.1)
        best, best_overlap = None, 0.5 * width
        for j in (i - 1, i + 1):
            if 0 <= j < len(chars) and texts[j].isalpha() and not combining[j]:
                overlap = min(c["x1"], chars[j]["x1"]) - max(c["x0"], chars[j]["x0"])
                if overlap > best_overlap:
                    best, best_overlap = j, overlap
        if best is not None:
            combining[best] = mark
            texts[i] = ""
    return unicodedata.normalize("NFC", "".join(t + m for t, m in zip(texts, combining, strict=False)))


def build_segments(words: list[Word]) -> list[Segment]:
    """Chain words left to right into segments: same baseline band, gap below ~1 em.

    Open segments are bucketed by the vertical centre of their main text, so each word is only
    compared with the segments at its height.
    """
    order = sorted(range(len(words)), key=lambda i: (words[i].x0, words[i].top, i))
    buckets: dict[int, list[Segment]] = {}
    done: list[Segment] = []

    def key(seg: Segment) -> int:
        return int((seg.ref_top + seg.ref_bottom) / 2 // SEGMENT_BUCKET)

    for i in order:
        w = words[i]
        h = max(w.bottom - w.top, 0.1)
        best: Segment | None = None
        best_score = 0.0
        lo = int((w.top - w.size) // SEGMENT_BUCKET)
        hi = int((w.bottom + w.size) // SEGMENT_BUCKET)
        for k in range(lo, hi + 1):
            bucket = buckets.get(k)
            if not bucket:
                continue
            keep: list[Segment] = []
            for seg in bucket:
                last = seg.words[-1]
                gap = w.x0 - last.x1
                if gap > SEGMENT_GAP_EM * max(last.size, w.size, seg.ref_size):
                    done.append(seg)  # every later word starts further right: this segment is finished
                    continue
                keep.append(seg)
                if gap < -0.3 * w.size:
                    continue
                overlap = min(w.bottom, seg.ref_bottom) - max(w.top, seg.ref_top)
                ref_h = max(seg.ref_bottom - seg.ref_top, 0.1)
                if overlap < 0.5 * min(h, ref_h):
                    continue
                score = overlap / min(h, ref_h) - max(gap, 0) / (10 * w.size)
                if score > best_score:
                    best, best_score = seg, score
            bucket[:] = keep
        if best is None:
            seg = Segment(w)
            buckets.setdefault(key(seg), []).append(seg)
        else:
            old = key(best)
            best.add(w)
            new = key(best)
            if new != old:  # its main text changed (a larger word joined): move it
                buckets[old].remove(best)
                buckets.setdefault(new, []).append(best)
    for k in sorted(buckets):
        done.extend(buckets[k])
    done.sort(key=lambda s: (s.top, s.x0, s.x1))
    return done


def group_rows(segs: list[Segment]) -> list[list[Segment]]:
    """Segments -> rows of vertically overlapping segments (top to bottom, each left to right)."""
    rows: list[list[Segment]] = []
    bands: list[tuple[float, float, float]] = []  # (top, bottom, size) of each row's largest text
    for s in sorted(segs, key=lambda s: (s.top, s.x0)):
        placed = False
        for k in range(len(rows) - 1, max(len(rows) - 4, -1), -1):
            top, bottom, size = bands[k]
            overlap = min(bottom, s.ref_bottom) - max(top, s.ref_top)
            if overlap >= 0.5 * max(min(bottom - top, s.ref_bottom - s.ref_top), 0.1):
                rows[k].append(s)
                if s.ref_size > size + 0.1:
                    bands[k] = (s.ref_top, s.ref_bottom, s.ref_size)
                placed = True
                break
        if not placed:
            rows.append([s])
            bands.append((s.ref_top, s.ref_bottom, s.ref_size))
    for row in rows:
        row.sort(key=lambda s: (s.x0, s.top))
    return rows
