"""The int8 recognition model OCR reads lines with, built once from RapidOCR's float model into the
models folder (``Settings.models_dir``), the same bytes each time, checked against a pinned SHA-256.

Recognition takes ~80% of a scanned page's CPU, three quarters of it in convolutions. Quantised to int8
(weights per output channel, activations uint8, ONNX's QuantizeLinear/DequantizeLinear form, which
onnxruntime runs as QLinearConv on the CPU's integer instructions), recognition takes ~40% less CPU
(a scanned page 6.8 -> 4.3 CPU-s, benchmarks/ocr_scans.py) and reads 98.4% of the float model's words
on 12 scanned pages. Only the convolutions: the attention and the output layer stay float (with
every op int8 and one scale a tensor, 91%).

Static quantisation needs each activation's range. They were measured once, on lines of scanned pages
(``benchmarks/ocr_calibrate.py``), and are kept in ``corpus/resources/ocr_rec_ranges.json``: the build
runs no model and reads no data, so it gives the same bytes wherever the pinned onnx and onnxruntime
run it. Nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import tempfile
from importlib import resources
from pathlib import Path

from corpus.errors import ConfigError
from corpus.model_files import RAPIDOCR, RAPIDOCR_REC, RAPIDOCR_REC_INT8, sha256_of

#: The opset the float graph is raised to: per-channel quantisation needs 13 or later (the wheel's is 11).
OPSET = 17
RANGES = "ocr_rec_ranges.json"
INT8_NAME = "PP-OCRv6_rec_small.int8.onnx"


def int8_recognizer(models_dir: Path) -> Path:
    """The int8 recognition model in ``models_dir``, built there first if it is missing or differs."""
    target = models_dir / "rapidocr" / INT8_NAME
    if target.is_file() and sha256_of(target) == RAPIDOCR_REC_INT8:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # Built beside its place and renamed into it: a crash or a second worker never leaves half a file.
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
        built = _quantize(RAPIDOCR.verified()[RAPIDOCR_REC], Path(tmp))
        if (digest := sha256_of(built)) != RAPIDOCR_REC_INT8:
            raise ConfigError(
                f"the int8 OCR model built from {RAPIDOCR.label()} does not match its pinned SHA-256: expected "
                f"{RAPIDOCR_REC_INT8}, got {digest}; reinstall the pinned onnx and onnxruntime (`make setup`)"
            )
        os.replace(built, target)
    return target


def float_graph(source: Path, folder: Path) -> object:
    """The float model as it is quantised (and calibrated): shapes inferred, onnxruntime's basic graph
    rewrites applied (batch norms and biases folded into the convolutions), raised to ``OPSET``."""
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import quant_pre_process

    prepared = folder / "prepared.onnx"
    quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
    return version_converter.convert_version(onnx.load(prepared), OPSET)


#: How the model is quantised, for the build and for the calibration that measures its ranges alike.
QUANTISATION = {"per_channel": True, "op_types_to_quantize": ["Conv"]}


def _quantize(source: Path, folder: Path) -> Path:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    ranges = folder / "ranges.json"
    write_ranges_cache(json.loads(resources.files("corpus").joinpath("resources", RANGES).read_text()), ranges)
    output = folder / INT8_NAME
    quantize_static(
        float_graph(source, folder),
        str(output),
        None,
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        calibration_cache_path=str(ranges),
        **QUANTISATION,
    )
    return output


def write_ranges_cache(ranges: dict[str, list[float]], path: Path) -> None:
    """``ranges`` (tensor -> [lowest, highest]) as onnxruntime's calibration cache, which
    ``quantize_static`` reads instead of running the model on calibration data."""
    import numpy as np
    from onnxruntime.quantization import CalibrationMethod
    from onnxruntime.quantization.calibrate import TensorData, TensorsData, save_tensors_data

    data = {
        name: TensorData(lowest=np.array([low], np.float32), highest=np.array([high], np.float32))
        for name, (low, high) in sorted(ranges.items())
    }
    save_tensors_data(TensorsData(CalibrationMethod.MinMax, data), path)
