"""Measure the activation ranges of OCR's int8 recognition model (``corpus.ocr_model``) and write them to
``corpus/resources/ocr_rec_ranges.json``, which the model's build reads.

The first pages of four shared PDFs (not those ``ocr_scans.py`` is quoted on) are scanned at 200 dpi
(as ``ocr_scans.py`` does) and read by OCR; every fifth line, as the recognition model gets it, is
calibration data for onnxruntime's MinMax calibrator, run on the float graph the build quantises. Run it
again only to change the calibration; then pin the built model's new SHA-256 in ``corpus.model_files``.

    python benchmarks/ocr_calibrate.py [--pages 2] [PDF ...]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pdfplumber  # noqa: E402
from common import SHARED  # noqa: E402
from ocr_scans import SCAN_DPI, scanned_copy  # noqa: E402

from corpus import ocr  # noqa: E402
from corpus.model_files import RAPIDOCR, RAPIDOCR_REC  # noqa: E402
from corpus.ocr_model import QUANTISATION, RANGES, float_graph  # noqa: E402

CALIBRATION_PDFS = ("1903.10676", "2203.00130v1", "2206.10883v3", "2023.eacl-main.121")
EVERY = 5
OUTPUT = Path(__file__).resolve().parents[1] / "corpus" / "resources" / RANGES


def lines(pdfs: list[Path], pages: int, folder: Path) -> list[np.ndarray]:
    """The recognition inputs of the scanned pages' lines, one in ``EVERY``."""
    seen: list[np.ndarray] = []
    reading = ocr._rec_input

    def keep(img: np.ndarray, max_wh_ratio: float) -> np.ndarray:
        seen.append(reading(img, max_wh_ratio))
        return seen[-1]

    # The float model reads them (the int8 one is built from these ranges); the engine takes the lines
    # from ``_rec_input`` as it is when the engine is made.
    ocr._rec_input = keep
    engine = ocr._engine(RAPIDOCR.verified()[RAPIDOCR_REC])
    for pdf in pdfs:
        scan, _ = scanned_copy(pdf, folder, pages)
        with pdfplumber.open(scan) as doc:
            for page in doc.pages:
                engine.ocr(np.asarray(page.to_image(resolution=SCAN_DPI, antialias=True).original.convert("RGB")))
    return seen[::EVERY]


def calibrate(inputs: list[np.ndarray], folder: Path) -> dict[str, list[float]]:
    from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, quantize_static
    from onnxruntime.quantization.calibrate import load_tensors_data

    class Lines(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(inputs)

        def get_next(self) -> dict | None:
            line = next(self.left, None)
            return None if line is None else {"x": line[None]}

    cache = folder / "cache.json"
    model = float_graph(RAPIDOCR.verified()[RAPIDOCR_REC], folder)
    quantize_static(
        model,
        str(folder / "q.onnx"),
        Lines(),
        calibrate_method=CalibrationMethod.MinMax,
        calibration_cache_path=str(cache),
        **QUANTISATION,
    )
    data = load_tensors_data(cache).data
    return {name: [float(d.lowest[0]), float(d.highest[0])] for name, d in sorted(data.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages", type=int, default=2)
    args = parser.parse_args()
    pdfs = args.pdfs or [SHARED / "data" / "pdfs" / f"{name}.pdf" for name in CALIBRATION_PDFS]
    with tempfile.TemporaryDirectory(prefix="prp-ocr-cal-") as tmp:
        inputs = lines(pdfs, args.pages, Path(tmp))
        ranges = calibrate(inputs, Path(tmp))
    entries = ",\n".join(f"{json.dumps(name)}: {json.dumps(bounds)}" for name, bounds in ranges.items())
    OUTPUT.write_text("{\n" + entries + "\n}\n")
    print(f"{len(inputs)} lines, {len(ranges)} ranges -> {OUTPUT}")


if __name__ == "__main__":
    main()
