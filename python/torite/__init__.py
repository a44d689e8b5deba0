"""torite's trick-taking games and bots for Python.

Everything is torite's Rust engine (torite-core and torite-bots) through a native module: the
rules, the scoring, the worlds a seat may imagine and the bots are the ones the `torite` command
and the server use; nothing is reimplemented here.

- :func:`presets`, :class:`Ruleset`: the games and house rules (RECORD.md's JSON form).
- :class:`Deal`, :class:`Game`: one deal, or a whole game, with a fixed action space per ruleset.
- :mod:`torite.bots`: torite's bots; :func:`arena`: duplicate matches between them.
- :func:`random_playouts`, :func:`playout_returns`: batch playouts without the GIL.
- :mod:`torite.openspiel` and :mod:`torite.pettingzoo`: the games as OpenSpiel games and
  PettingZoo AEC environments.
"""

from torite._torite import (
    BOT_NAMES,
    OPTION_NAMES,
    Bot,
    Deal,
    Game,
    Ruleset,
    arena,
    playout_returns,
    presets,
    random_playouts,
    replay,
)

from torite import bots

__all__ = [
    "BOT_NAMES",
    "OPTION_NAMES",
    "Bot",
    "Deal",
    "Game",
    "Ruleset",
    "arena",
    "bots",
    "playout_returns",
    "presets",
    "random_playouts",
    "replay",
]
