"""OpenSpiel's own checks on every preset: random simulations with serialisation, and its
Python MCTS and IS-MCTS bots playing whole deals."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import torite
import torite.openspiel
from conftest import PRESETS

NAMES = [torite.openspiel.game_name(p) for p in PRESETS]


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_house_rules_by_parameters():
    game = pyspiel.load_game("torite_mini_misere_4", {"lot_timing": "before-lead"})
    assert game.ruleset == torite.Ruleset({"base": "mini-misere-4", "lot_timing": "before-lead"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(Exception, match="unknown option|no Lot|lot"):
        pyspiel.load_game("torite_mittlere_jass", {"lot_timing": "before-lead"})


def _play(game, bots, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            player = state.current_player()
            action = bots[player].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_bots_play_a_whole_deal(name):
    game = pyspiel.load_game(name)
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(s))
        for s in range(n)
    ]
    state = _play(game, bots, seed=1)
    assert len(state.returns()) == n


@pytest.mark.parametrize("name", NAMES)
def test_mcts_bots_play_a_whole_deal(name):
    game = pyspiel.load_game(name)
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=evaluator, random_state=np.random.RandomState(s))
        for s in range(n)
    ]
    state = _play(game, bots, seed=2)
    assert len(state.returns()) == n


def test_resampled_states_share_the_information_state():
    game = pyspiel.load_game("torite_mini_misere_5_1989")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for step in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        if step in (3, 30, 33, 36):
            player = 0
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            for _ in range(5):
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.information_state_tensor(player) == state.information_state_tensor(player)


def test_torite_bots_act_on_openspiel_states():
    game = pyspiel.load_game("torite_mura_4")
    bot = torite.bots.make("heuristic", 1)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(bot.act(state, state.current_player()))
    assert state.returns() == state.torite_deal().returns()


def test_strings_and_tensors_are_the_deals():
    game = pyspiel.load_game("torite_mini_misere_4_1989")
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    deal = state.torite_deal()
    for p in range(4):
        assert state.information_state_string(p) == deal.information_state_string(p)
        assert state.observation_string(p) == deal.observation_string(p)
        assert np.array_equal(state.information_state_tensor(p), deal.information_state_tensor(p))
        assert np.array_equal(state.observation_tensor(p), deal.observation_tensor(p))
    assert game.information_state_tensor_size() == deal.information_state_tensor_size
    assert game.observation_tensor_size() == deal.observation_tensor_size
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        deal.action_to_string(a) for a in deal.legal_actions()
    ]
