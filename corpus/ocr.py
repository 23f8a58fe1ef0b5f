"""OCR: the words of a page image, with their boxes in pixels, read by RapidOCR.

RapidOCR (PyPI ``rapidocr``, pinned) runs PaddleOCR's PP-OCRv6 small detection and recognition models
on onnxruntime; the models come from its wheel and are checked against the SHA-256 pinned in
``corpus.model_files`` before they are loaded, and are loaded by path, so RapidOCR never looks for
them on the network. Lines are read by the recognition model quantised to int8, built from the
wheel's in the models folder (``corpus.ocr_model``). One engine is loaded per process (a parse
worker) and kept for its pages, single-threaded (the workers share the cores with the embedding
model), with onnxruntime's memory arena on, so each run reuses the last one's buffers.

A page's reading is bounded in CPU time: the engine's ONNX sessions run with ``RunOptions`` that a
watcher thread sets to terminate once the reading thread has used its seconds, so a page that takes
too long stops with a reason instead of holding the ingest. CPU time, not wall time: whether a page is
read must not depend on what else the machine is doing (single-threaded, ONNX runs in the caller's
thread, so that thread's clock counts all of it).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from corpus.model_files import RAPIDOCR, RAPIDOCR_DET
from corpus.ocr_model import int8_recognizer

#: Recognised lines scoring below this are dropped (RapidOCR's own default).
MIN_LINE_SCORE = 0.5
#: RapidOCR shrinks larger images to this side before detection; the render's own bound
#: (``OcrOptions.max_megapixels``) decides instead.
MAX_SIDE = 20_000
#: Text is found on the page shrunk to this longest side (about 140 dpi for a letter page), and read
#: at the full resolution: detection costs most of the time and needs less detail than reading.
DET_SIDE = 1600
#: Lines are recognised one at a time: a batch pads each line to its widest, and that padding is read
#: too (a line at a time costs ~8% less CPU, single-threaded, and reads the page's words as well).
REC_BATCH = 1
#: RapidOCR's recognition input: lines 48 px high, padded to at least 320 px wide.
REC_HEIGHT = 48
REC_MIN_WIDTH = 320
#: Lines are read at 3/4 of the width they have at the model's height. The model's CPU time grows with
#: that width (~80 us a pixel column, ~80% of a page's), and it reads them as well: 12 scanned pages
#: (benchmarks/ocr_scans.py) 97.5% of words either way, 8.9 -> 6.9 CPU-s a page. Narrower drops letters
#: (one output per 8 px: at 0.7 2304.02623v1 fell from 97.6% to 95.8%, at 0.6 "chlenges"); shrinking the
#: whole line, its height padded, reads worse for the same width (0.7: 97.1%).
REC_SQUEEZE = 0.75
#: How often the watcher looks at the reading thread's CPU clock, in seconds.
WATCH_SECONDS = 0.05


def engine_label() -> str:
    return f"rapidocr {RAPIDOCR.version} (PP-OCRv6 small, int8 recognition)"


@dataclass(frozen=True)
class OcrWord:
    """A recognised word and its box, in the image's pixels."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass
class PageReading:
    """The lines of a page, each its words left to right, as the engine found them; or why there are none."""

    lines: list[list[OcrWord]] = field(default_factory=list)
    problem: str | None = None


class _Stoppable:
    """An onnxruntime session whose runs share ``options``, which a watcher can set to terminate.
    RapidOCR calls ``run(names, feed)`` and reads the model's inputs and metadata; all else passes through."""

    def __init__(self, session: Any):
        import onnxruntime

        self.session = session
        self.options = onnxruntime.RunOptions()

    def run(self, names: Any, feed: Any, run_options: Any = None) -> Any:
        return self.session.run(names, feed, self.options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)


@dataclass(frozen=True)
class _Engine:
    ocr: Any
    sessions: tuple[_Stoppable, ...]


def recognizer(models_dir: Path | None) -> Path:
    """The recognition model OCR reads lines with: the int8 one built in ``models_dir`` (by default
    the settings' models folder)."""
    if models_dir is None:
        from config import Settings

        models_dir = Settings().models_dir
    return int8_recognizer(models_dir)


@lru_cache(maxsize=1)
def _engine(rec_model: Path) -> _Engine:
    from rapidocr import RapidOCR

    paths = RAPIDOCR.verified()
    ocr = RapidOCR(
        params={
            "Global.log_level": "error",
            "Global.use_cls": False,
            "Global.max_side_len": MAX_SIDE,
            "Global.text_score": MIN_LINE_SCORE,
            "Det.limit_type": "max",
            "Det.limit_side_len": DET_SIDE,
            "Rec.rec_batch_num": REC_BATCH,
            "Det.model_path": str(paths[RAPIDOCR_DET]),
            "Rec.model_path": str(rec_model),
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            # RapidOCR turns onnxruntime's memory arena off: every run then maps and unmaps its
            # tensors anew, and the page faults cost a fifth of a page's CPU time (as system time).
            # Kept, the arena's memory serves the next run of the same process; the output is the same.
            "EngineConfig.onnxruntime.enable_cpu_mem_arena": True,
        }
    )
    # RapidOCR loads its models on first use; loaded now, their sessions can be made stoppable.
    # (Its loaders are private: the version is pinned, and tests/test_ocr.py runs this path.)
    models = (ocr._load_det_model(), ocr._load_rec_model())
    models[1].resize_norm_img = _rec_input  # lines read narrower (REC_SQUEEZE)
    sessions = []
    for model in models:
        stoppable = _Stoppable(model.session.session)
        model.session.session = stoppable
        sessions.append(stoppable)
    return _Engine(ocr, tuple(sessions))


def _rec_input(img: np.ndarray, max_wh_ratio: float) -> np.ndarray:
    """A line crop as the recognition model reads it: RapidOCR's ``resize_norm_img`` with every width
    times ``REC_SQUEEZE``. Scaled to ``REC_HEIGHT``, normalised to [-1, 1] and padded on the right to
    the width of ``max_wh_ratio`` (the batch's widest); line and padding narrow alike, so RapidOCR's
    word boxes, placed by the line's share of the width, stay on their words."""
    import cv2

    width = int(max(REC_MIN_WIDTH, REC_HEIGHT * max_wh_ratio) * REC_SQUEEZE)
    line_width = max(1, min(width, math.ceil(REC_HEIGHT * img.shape[1] / img.shape[0] * REC_SQUEEZE)))
    line = cv2.resize(img, (line_width, REC_HEIGHT)).astype(np.float32)
    padded = np.zeros((3, REC_HEIGHT, width), dtype=np.float32)
    padded[:, :, :line_width] = (line.transpose((2, 0, 1)) / 255 - 0.5) / 0.5
    return padded


def read_image(image: np.ndarray, seconds: float, models_dir: Path | None = None) -> PageReading:
    """The words of ``image`` (an RGB array), given at most ``seconds`` of OCR; ``models_dir``: where the
    int8 recognition model is kept (``corpus.ocr_model``)."""
    import onnxruntime

    engine = _engine(recognizer(models_dir))
    options = onnxruntime.RunOptions()
    for session in engine.sessions:
        session.options = options
    done = threading.Event()
    clock = time.pthread_getcpuclockid(threading.get_ident())
    watcher = threading.Thread(target=_watch, args=(clock, seconds, options, done), daemon=True)
    watcher.start()
    try:
        result = engine.ocr(image, return_word_box=True)
    except Exception as exc:  # noqa: BLE001 - the engine wraps onnxruntime's errors in its own types
        if options.terminate:
            return PageReading(problem=f"OCR took longer than {seconds:g} CPU-s (PRP_OCR_PAGE_SECONDS)")
        return PageReading(problem=f"OCR failed ({type(exc).__name__})")
    finally:
        done.set()
    # An image without text gives no lines (``txts`` is None) and one empty placeholder word.
    found = result.word_results if getattr(result, "txts", None) else ()
    lines = [words for line in found if (words := _line_words(line))]
    return PageReading(lines=lines, problem=None if lines else "no text recognised")


def _watch(clock: int, seconds: float, options: Any, done: threading.Event) -> None:
    """Stop the runs of ``options`` once the thread of ``clock`` has used ``seconds`` of CPU time."""
    deadline = time.clock_gettime(clock) + seconds
    while not done.wait(WATCH_SECONDS):
        if time.clock_gettime(clock) >= deadline:
            options.terminate = True
            return


def _line_words(line: Any) -> list[OcrWord]:
    words = []
    for text, _score, quad in line:
        xs = [float(p[0]) for p in quad]
        ys = [float(p[1]) for p in quad]
        if text.strip():
            words.append(OcrWord(text.strip(), min(xs), min(ys), max(xs), max(ys)))
    return words
