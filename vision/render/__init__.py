"""Pictures for people: the annotated photo of a table reading."""

from vision.render.annotate import annotate

__all__ = ["annotate"]
