"""torite's games as OpenSpiel games.

Importing this module registers one game per preset, named ``torite_`` and the preset id with
``-`` as ``_`` (``pyspiel.load_game("torite_mini_misere_4")``). House rules are parameters, one per option of
RECORD.md, given as text (``pyspiel.load_game("torite_mini_misere_4",
{"lot_timing": "before-lead"})``; ``"true"``/``"false"`` and whole numbers are read as such);
``dealer`` (default 0) is the dealing seat.

A state is one deal. It starts at chance nodes that deal the deck one card at a time (card
``k`` of the deal to seat ``k % players``; the outcomes are the undealt cards' action ids, each
equally likely), then the seats act in torite's fixed action space (:class:`torite.Ruleset`):
the deck's cards, then ``lot``, ``pass``, ``call:S|H|D|C``, ``joker:win``, ``joker:lose``.
Returns are the deal's scores, penalty points counted negative (``Deal.returns``). States
resample from an information state through torite-core's ``Worlds``, so OpenSpiel's
``ISMCTSBot`` runs on them, and serialise (``pyspiel.serialize_game_and_state``).
"""

from __future__ import annotations

import atexit
import random
import weakref

import numpy as np
import pyspiel

import torite

__all__ = ["GAME_NAMES", "game_name", "ToriteGame", "ToriteState"]

_OPTION_NAMES = list(torite.OPTION_NAMES)


def game_name(preset: str) -> str:
    """The OpenSpiel name of a preset: ``torite_mini_misere_4`` for ``mini-misere-4``."""
    return "torite_" + preset.replace("-", "_")


GAME_NAMES = [game_name(p) for p in torite.presets()]


def _option_value(text: str):
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low)
    except ValueError:
        return text


def _ruleset(params: dict, preset: str) -> torite.Ruleset:
    options = {"base": preset}
    for name in _OPTION_NAMES:
        text = params.get(name, "")
        if text != "":
            options[name] = _option_value(str(text))
    return torite.Ruleset(options if len(options) > 1 else options["base"])


# OpenSpiel keeps the games it loads until the process ends, after Python's finalisation has
# begun: the native objects a game holds are let go of before that, here.
_SHAPES: "weakref.WeakSet[_Shape]" = weakref.WeakSet()


@atexit.register
def _release() -> None:
    for shape in list(_SHAPES):
        shape.rules = None


class _Shape:
    """What a state needs of its game, shared by every state and never copied."""

    def __init__(self, rules: torite.Ruleset, dealer: int):
        _SHAPES.add(self)
        self.rules = rules
        self.dealer = dealer
        self.players = rules.players
        self.deck = rules.deck()
        self.deck_len = len(self.deck)
        probe = torite.Deal(rules, dealer=dealer)
        self.observation_size = probe.observation_tensor_size
        self.information_state_size = probe.information_state_tensor_size

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Shape, (self.rules, self.dealer))


def _game_type(short_name: str, long_name: str, preset: str, players: int) -> pyspiel.GameType:
    params = {"dealer": 0}
    params.update({name: "" for name in _OPTION_NAMES})
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class ToriteGame(pyspiel.Game):
    """One torite ruleset as an OpenSpiel game of one deal; each preset has its subclass,
    registered under its name."""

    _preset = "mini-misere-4"
    _game_type: pyspiel.GameType

    def __init__(self, params=None):
        params = dict(params or {})
        rules = _ruleset(params, self._preset)
        dealer = int(params.get("dealer", 0))
        if not 0 <= dealer < rules.players:
            raise ValueError(
                f"dealer {dealer} is out of range: this ruleset's seats are 0 to {rules.players - 1}"
            )
        self._shape = _Shape(rules, dealer)
        shape = self._shape
        scale = rules.score_scale
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.num_actions,
            max_chance_outcomes=shape.deck_len,
            num_players=rules.players,
            min_utility=-scale,
            max_utility=scale,
            utility_sum=None,
            max_game_length=2 * shape.deck_len + rules.players + rules.tricks,
        )
        super().__init__(self._game_type, info, params)

    @property
    def ruleset(self) -> torite.Ruleset:
        """The ruleset."""
        return self._shape.rules

    def new_initial_state(self) -> "ToriteState":
        """The state before the deal: a chance node."""
        return ToriteState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer: the information state with perfect recall, else the observation."""
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(self._shape, perfect_recall)


class ToriteState(pyspiel.State):
    """One deal: chance nodes that deal the cards, then the seats' actions."""

    def __init__(self, game: ToriteGame):
        super().__init__(game)
        self._shape = game._shape
        self._dealt: list[int] = []
        self._deal: torite.Deal | None = None

    def torite_deal(self) -> torite.Deal:
        """The torite deal (once dealt), for torite's bots and playouts."""
        if self._deal is None:
            raise ValueError("the cards are still being dealt")
        return self._deal

    def current_player(self):
        if self._deal is None:
            return pyspiel.PlayerId.CHANCE
        seat = self._deal.current_player()
        return pyspiel.PlayerId.TERMINAL if seat < 0 else seat

    def _legal_actions(self, player):
        return self._deal.legal_actions()

    def chance_outcomes(self):
        dealt = set(self._dealt)
        left = [c for c in range(self._shape.deck_len) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action):
        if self._deal is not None:
            self._deal.apply(int(action))
            return
        shape = self._shape
        if not 0 <= action < shape.deck_len or action in self._dealt:
            raise ValueError(f"chance outcome {action} is not an undealt card")
        self._dealt.append(int(action))
        if len(self._dealt) == shape.deck_len:
            n = shape.players
            hands = [[shape.deck[c] for c in self._dealt[s::n]] for s in range(n)]
            self._deal = torite.Deal(shape.rules, dealer=shape.dealer, hands=hands)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._shape.deck[action]}"
        return self._shape.rules.action_to_string(action)

    def is_terminal(self):
        return self._deal is not None and self._deal.is_terminal()

    def returns(self):
        if self._deal is None:
            return [0.0] * self._shape.players
        return self._deal.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state in ``player_id``'s information set, at random: while dealing, the cards
        dealt to others are redealt from those it has not seen; then the other hands come from
        torite-core's ``Worlds`` (voids respected). ``probability_sampler`` (OpenSpiel's
        samplers, or any callable returning a float in [0, 1)) seeds the draw."""
        seed = int(probability_sampler() * 2**53)
        shape = self._shape
        n = shape.players
        if self._deal is None:
            mine = {c for k, c in enumerate(self._dealt) if k % n == player_id}
            unseen = [c for c in range(shape.deck_len) if c not in mine]
            random.Random(seed).shuffle(unseen)
            dealt = [c if k % n == player_id else unseen.pop() for k, c in enumerate(self._dealt)]
            actions = []
        else:
            world = self._deal.resample_from_infostate(player_id, seed)
            index = {card: i for i, card in enumerate(shape.deck)}
            hands = [sorted(index[c] for c in world.start_hand(s)) for s in range(n)]
            dealt = [hands[k % n][k // n] for k in range(shape.deck_len)]
            actions = [a for _, a in world.history()]
        state = self.get_game().new_initial_state()
        for action in dealt + actions:
            state.apply_action(action)
        return state

    def __str__(self):
        if self._deal is None:
            return f"dealing: {len(self._dealt)} of {self._shape.deck_len} cards dealt"
        n = self._shape.players
        hands = " | ".join(" ".join(self._deal.hand(s)) for s in range(n))
        return f"hands {hands}; history {self._deal.history()}"


class _Observer:
    """OpenSpiel's PyObserver for torite states (tensor layouts in python/README.md)."""

    def __init__(self, shape: _Shape, perfect_recall: bool):
        self._shape = shape
        self._perfect_recall = perfect_recall
        size = shape.information_state_size if perfect_recall else shape.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: ToriteState, player: int):
        self.tensor.fill(0)
        deal = state._deal
        if deal is None:
            # While dealing: only the seat's cards so far, in the hand block.
            n = self._shape.players
            for k, card in enumerate(state._dealt):
                if k % n == player:
                    self.tensor[card] = 1
            return
        if self._perfect_recall:
            self.tensor[:] = deal.information_state_tensor(player)
        else:
            self.tensor[:] = deal.observation_tensor(player)

    def string_from(self, state: ToriteState, player: int) -> str:
        deal = state._deal
        if deal is None:
            n = self._shape.players
            mine = [self._shape.deck[c] for k, c in enumerate(state._dealt) if k % n == player]
            return f"seat {player}; dealing; dealt {len(state._dealt)}; hand {' '.join(mine)}"
        if self._perfect_recall:
            return deal.information_state_string(player)
        return deal.observation_string(player)


def _register(preset: str, short_name: str, long_name: str) -> None:
    players = torite.Ruleset(preset).players
    game_type = _game_type(short_name, long_name, preset, players)
    # A class per preset, as OpenSpiel's own Python games register theirs.
    cls = type(
        f"ToriteGame_{preset.replace('-', '_')}",
        (ToriteGame,),
        {"_preset": preset, "_game_type": game_type, "__module__": __name__},
    )
    pyspiel.register_game(game_type, cls)


for _preset in torite.presets():
    _register(_preset, game_name(_preset), f"torite {_preset}")
