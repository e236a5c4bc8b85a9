"""The three rule sets, found by name: ``find_game("bridge")``.

>>> find_game("lhombre").hand_size
9
"""

from __future__ import annotations

from vision.errors import UnknownGameError
from vision.games.base import Game
from vision.games.bridge import Bridge
from vision.games.lhombre import Lhombre
from vision.games.preferans import Preferans

GAMES: dict[str, Game] = {g.name: g for g in (Bridge(), Preferans(), Lhombre())}

_ALIASES = {
    "l'hombre": "lhombre", "hombre": "lhombre", "l_hombre": "lhombre",
    "preference": "preferans", "preferance": "preferans",
}


def find_game(name: str | Game) -> Game:
    """The rule set called ``name`` (bridge, preferans, lhombre)."""
    if isinstance(name, Game):
        return name
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGameError(
            f"unknown game: {name!r} (expected one of {', '.join(GAMES)})"
        ) from None


__all__ = ["GAMES", "Bridge", "Game", "Lhombre", "Preferans", "find_game"]
