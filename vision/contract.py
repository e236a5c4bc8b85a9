"""Contracts: what the declarer undertook, as far as the trick rules care."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from vision.cards import Suit
from vision.seats import Seat


class ContractKind(enum.Enum):
    TRICKS = "tricks"
    MISERE = "misere"
    NOLO = "nolo"
    NOLO_OUVERT = "nolo_ouvert"
    RASPASY = "raspasy"


@dataclass(frozen=True)
class Contract:
    """``trump`` is None for no-trump; ``declarer`` is None in raspasy."""

    trump: Suit | None = None
    declarer: Seat | None = None
    kind: ContractKind = ContractKind.TRICKS
    level: int | None = None

    @property
    def is_no_trump(self) -> bool:
        return self.trump is None
