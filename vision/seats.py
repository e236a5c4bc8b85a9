"""Seats at the table and the direction of play."""

from __future__ import annotations

import enum

from vision.errors import InvalidSeatError


class Seat(enum.IntEnum):
    """A side of the table, numbered clockwise from North."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def from_str(cls, text: str) -> Seat:
        key = str(text).strip().upper()[:1]
        if str(text).strip().upper() in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
            return cls[key]
        raise InvalidSeatError(f"invalid seat: {text!r} (expected N, E, S or W)")

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    def clockwise(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (to the left of a player facing the table)."""
        return Seat((self + steps) % 4)

    def counter_clockwise(self, steps: int = 1) -> Seat:
        return Seat((self - steps) % 4)

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise."""
        return self.clockwise(1)

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the next seat counter-clockwise."""
        return self.counter_clockwise(1)

    @property
    def side(self) -> str:
        """Bridge partnership: ``'NS'`` or ``'EW'``."""
        return _SIDES[self]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
_SIDES = ("NS", "EW", "NS", "EW")


class Direction(enum.Enum):
    """Direction in which the turn passes around the table."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"

    def next(self, seat: Seat, active: tuple[Seat, ...] | None = None) -> Seat:
        """The seat after ``seat`` among the ``active`` seats (all four by default)."""
        active = tuple(SEATS) if active is None else active
        step = 1 if self is Direction.CLOCKWISE else -1
        s = seat
        for _ in range(4):
            s = Seat((s + step) % 4)
            if s in active:
                return s
        raise InvalidSeatError(f"no active seat after {seat} among {list(map(str, active))}")

    def order_from(self, first: Seat, active: tuple[Seat, ...]) -> list[Seat]:
        """The active seats in playing order starting with ``first``."""
        order = [first]
        while len(order) < len(active):
            order.append(self.next(order[-1], active))
        return order
