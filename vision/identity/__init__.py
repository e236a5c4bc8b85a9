"""Reading face-up cards: corner crops of each card and a small classifier on them.

>>> from vision.identity import IdentityReader  # doctest: +SKIP
>>> reader = IdentityReader()                    # shipped model, checksum verified
>>> reader.read(image_bgr, quads, game="bridge") # one IdentityResult per quad
"""

from vision.identity.reader import IdentityModelError, IdentityReader, IdentityResult, deck_for

__all__ = ["IdentityModelError", "IdentityReader", "IdentityResult", "deck_for"]
