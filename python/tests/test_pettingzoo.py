"""PettingZoo's own API test on every preset."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import torite
import torite.pettingzoo
from conftest import PRESETS


@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset):
    api_test(torite.pettingzoo.env(preset), num_cycles=300)


def test_rewards_come_at_the_end_of_the_deal_and_match_the_engine():
    env = torite.pettingzoo.env("mini-misere-4")
    env.reset(seed=7)
    total = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    deal = env.unwrapped.deal
    assert [total[a] for a in env.possible_agents] == deal.returns()
    assert deal.to_record()["deals"][0]["hands"] == torite.Deal("mini-misere-4", seed=7, dealer=3).to_record()["deals"][0]["hands"]


def test_house_rules_env():
    env = torite.pettingzoo.env({"base": "mini-misere-4", "lot_timing": "before-lead"})
    api_test(env, num_cycles=100)


@pytest.mark.parametrize("preset", ["molotow-jass", "plus-minus-jass-4", "mura-3"])
def test_whole_game_api_test(preset):
    api_test(torite.pettingzoo.env(preset, whole_game=True), num_cycles=300)


def test_whole_game_rewards_each_deal_its_score_in_the_game():
    env = torite.pettingzoo.env("plus-minus-jass-4", whole_game=True)
    env.reset(seed=3)
    rewards = []
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        step = env.unwrapped.rewards
        if any(step.values()):
            rewards.append([step[a] for a in env.possible_agents])
    game = env.unwrapped.game
    assert game.is_terminal()
    sign = -1 if game.ruleset.penalty else 1
    nonzero = [[sign * x for x in d] for d in game.deal_scores() if any(d)]
    assert rewards == nonzero
    replay = torite.Game("plus-minus-jass-4", seed=3, dealer=3)
    assert replay.deal().to_record()["deals"][0]["hands"] == game.to_record()["deals"][0]["hands"]
