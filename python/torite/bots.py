"""torite's bots: ``make("ismcts:2000", seed=1).act(state, player)``.

A bot is shown only the acting seat's view (its hand and the public facts), as everywhere in
torite, and its search runs without the GIL. ``state`` is a :class:`torite.Deal`, a
:class:`torite.Game` or an OpenSpiel/PettingZoo wrapper from this package.
"""

from torite._torite import BOT_NAMES, Bot

__all__ = ["BOT_NAMES", "Bot", "make"]


def make(spec: str, seed: int = 0) -> Bot:
    """The bot a spec names (``random``, ``heuristic``, ``ismcts[:BUDGET]``,
    ``pimc[:BUDGET]``; a budget is iterations, ``2000``, or milliseconds, ``200ms``), seeded.
    A bad spec raises ``ValueError`` with the message ``torite arena`` gives."""
    if not isinstance(spec, str):
        raise TypeError(f"a bot spec is a str such as 'ismcts:2000', not {type(spec).__name__}")
    return Bot(spec, seed)
