"""Card detection: the detections container, box decoding and the ONNX detector."""

from vision.detect.detections import CARD_DOWN, CARD_UP, CLASS_NAMES, Detections

__all__ = ["CARD_DOWN", "CARD_UP", "CLASS_NAMES", "CardDetector", "Detections"]


def __getattr__(name: str):  # noqa: ANN202 - lazy import keeps onnxruntime off the import path
    if name == "CardDetector":
        from vision.detect.onnx_detector import CardDetector

        return CardDetector
    raise AttributeError(name)
