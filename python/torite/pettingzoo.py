"""torite's games as PettingZoo AEC environments.

``torite.pettingzoo.env("mini-misere-4")`` (a preset id, a house-rule dict or a
:class:`torite.Ruleset`) is one deal per episode: agents ``player_0`` … act in turn, each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}`` (the layouts of
``Deal.observation_tensor`` and ``Deal.legal_actions_mask``, in python/README.md), actions are
torite's fixed action space, and every agent's reward comes when the deal ends: its return
(``Deal.returns``: the deal's score, penalty points negative). ``reset(seed=N)`` deals the
first deal of table seed ``N`` dealt by seat ``N % players`` (``torite deal ID --seed N
--dealer D``); without a seed, the next seed, so the dealer rotates.

With ``whole_game=True`` an episode is a whole game (:class:`torite.Game`, dealt from the
seed as ``torite deal ID --seed N --play`` deals): at the end of each deal every agent is
rewarded with its score for that deal in the game (held-over points and Molotow draws
included, penalty points negative), and the episode ends with the game.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import torite

__all__ = ["env", "raw_env"]


def env(ruleset="mini-misere-4", render_mode: str | None = None, whole_game: bool = False) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (order enforcing, bounds checks)."""
    e = raw_env(ruleset, render_mode=render_mode, whole_game=whole_game)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """One torite deal (or, with ``whole_game``, one game) per episode as an AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "torite_v0", "is_parallelizable": False}

    def __init__(self, ruleset="mini-misere-4", render_mode: str | None = None, whole_game: bool = False):
        super().__init__()
        self.ruleset = torite.Ruleset(ruleset)
        self.whole_game = bool(whole_game)
        self.game: torite.Game | None = None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of 'ansi', 'human' or None")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"torite_{self.ruleset.id.replace('-', '_')}_v0")
        n = self.ruleset.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        probe = torite.Deal(self.ruleset)
        size = probe.observation_tensor_size
        actions = self.ruleset.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seed = 0
        self.deal: torite.Deal | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def torite_deal(self) -> torite.Deal:
        """The deal being played, for torite's bots and playouts."""
        return self.deal if self.game is None else self.game.deal()

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = int(seed)
        n = self.ruleset.players
        if self.whole_game:
            self.game = torite.Game(self.ruleset, seed=self._seed, dealer=self._seed % n)
            self.deal = self.game.deal()
        else:
            self.deal = torite.Deal(self.ruleset, seed=self._seed, dealer=self._seed % n)
        self._seed += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.deal.current_player()]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = (
            self.deal.legal_actions_mask()
            if agent == self.agent_selection and not self.deal.is_terminal()
            else np.zeros(self.ruleset.num_actions, np.int8)
        )
        return {"observation": self.deal.observation_tensor(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game is not None:
            played = self.game.deals_played()
            self.game.apply(int(action))
            self.deal = self.game.deal()
            if self.game.deals_played() > played:
                sign = -1.0 if self.ruleset.penalty else 1.0
                for a, score in zip(self.agents, self.game.deal_scores()[-1]):
                    self.rewards[a] = sign * score + 0.0
            over = self.game.is_terminal()
        else:
            self.deal.apply(int(action))
            over = self.deal.is_terminal()
            if over:
                for a, r in zip(self.agents, self.deal.returns()):
                    self.rewards[a] = float(r)
        if over:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.deal.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        return self.deal.observation_string(seat)

    def close(self):
        pass
