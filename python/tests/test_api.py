"""The package's own API: rulesets, deals, games, bots, playouts and their errors."""

import copy
import pickle

import numpy as np
import pytest

import torite
from conftest import PRESETS


def play_random(deal: torite.Deal, seed: int) -> torite.Deal:
    rng = np.random.default_rng(seed)
    while not deal.is_terminal():
        legal = deal.legal_actions()
        deal.apply(int(rng.choice(legal)))
    return deal


def test_presets_are_the_engines():
    assert PRESETS[0] == "mini-misere-4"
    assert len(PRESETS) == 14
    for preset in PRESETS:
        rules = torite.Ruleset(preset)
        assert rules.id == preset and rules.is_preset
        # The deck's cards, then lot, pass, four suit calls and the two joker sayings.
        assert rules.num_actions == len(rules.deck()) + 8
        assert rules.to_json() == preset


def test_house_rules_and_their_errors():
    rules = torite.Ruleset({"base": "mini-misere-4", "lot_timing": "before-lead"})
    assert not rules.is_preset
    assert rules.options()["lot_timing"] == "before-lead"
    assert rules.to_json() == {"base": "mini-misere-4", "lot_timing": "before-lead"}
    assert torite.Ruleset(rules) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    with pytest.raises(ValueError, match=r'^unknown ruleset "nope" \(known: mini-misere-4, '):
        torite.Ruleset("nope")
    with pytest.raises(ValueError, match=r'^unknown option "bogus" \(known: target, '):
        torite.Ruleset({"base": "mura-4", "bogus": 1})
    with pytest.raises(ValueError, match="target"):
        torite.Ruleset({"base": "mura-4", "target": 10, "deals": 3})
    with pytest.raises(TypeError, match="not int"):
        torite.Ruleset(3)


def test_action_space_round_trips():
    rules = torite.Ruleset("mini-misere-5-1989")
    for action in range(rules.num_actions):
        text = rules.action_to_string(action)
        assert rules.string_to_action(text) == action
    extras = [rules.action_to_string(a) for a in range(len(rules.deck()), rules.num_actions)]
    assert extras[:6] == ["lot", "pass", "call:S", "call:H", "call:D", "call:C"]
    with pytest.raises(ValueError, match="out of range"):
        rules.action_to_string(rules.num_actions)
    with pytest.raises(ValueError, match="not in this ruleset's deck"):
        rules.string_to_action("6C")
    with pytest.raises(ValueError, match="unknown action"):
        rules.string_to_action("bogus")


@pytest.mark.parametrize("preset", PRESETS)
def test_random_deal_plays_to_the_end(preset):
    deal = play_random(torite.Deal(preset, seed=3), seed=3)
    assert deal.current_player() == -1 and deal.legal_actions() == []
    # A deal ends when its outcome is settled (a failed Lot ends a 1989 deal at once).
    assert 1 <= len(deal.tricks()) <= deal.ruleset.tricks
    assert sum(deal.tricks_won()) == len(deal.tricks())
    returns = deal.returns()
    assert len(returns) == deal.players
    scale = deal.ruleset.score_scale
    assert all(-scale <= r <= scale for r in returns)
    mask = deal.legal_actions_mask()
    assert mask.dtype == np.int8 and mask.sum() == 0


def test_illegal_actions_raise_the_engines_reason_and_change_nothing():
    deal = torite.Deal("mini-misere-4", seed=1)
    before = deal.information_state_string(0)
    hand = deal.hand(deal.current_player())
    other = next(c for c in deal.ruleset.deck() if c not in hand)
    with pytest.raises(ValueError, match=f"^{other} is not in the seat's hand$"):
        deal.apply(other)
    with pytest.raises(ValueError, match="out of range"):
        deal.apply(999)
    with pytest.raises(TypeError, match="an action is an int id or a str"):
        deal.apply(1.5)
    assert deal.information_state_string(0) == before


def test_numbers_out_of_range_or_of_the_wrong_type_are_value_and_type_errors():
    with pytest.raises(ValueError, match="-1 is out of range: expected a whole number"):
        torite.Deal("mura-4", seed=-1)
    with pytest.raises(ValueError, match="is out of range: expected a whole number"):
        torite.random_playouts("mura-4", 2**70)
    with pytest.raises(ValueError, match="dealer 4 is out of range"):
        torite.Game("mura-4", dealer=4)
    with pytest.raises(TypeError, match="expected an int, not str"):
        torite.bots.make("random", "x")
    with pytest.raises(TypeError, match="expected an int, not bool"):
        torite.Deal("mura-4", seed=True)
    deal = torite.Deal("mura-4", seed=np.uint64(3))
    with pytest.raises(ValueError, match="out of range: expected a 64-bit integer"):
        deal.observation_tensor(2**64)
    with pytest.raises(ValueError, match="player -1 is out of range"):
        deal.hand(-1)


def test_clone_copy_and_pickle_are_independent():
    deal = torite.Deal("mura-4", seed=2)
    twin = deal.clone()
    deal.apply(deal.legal_actions()[0])
    assert len(twin.history()) == 0 and len(deal.history()) == 1
    for other in (copy.deepcopy(deal), pickle.loads(pickle.dumps(deal))):
        assert other.history() == deal.history()
        assert other.information_state_string(2) == deal.information_state_string(2)


def test_tensors_have_their_documented_sizes():
    deal = torite.Deal("mini-misere-4", seed=0)
    obs = deal.observation_tensor(0)
    info = deal.information_state_tensor(0)
    assert obs.dtype == np.float32 and obs.shape == (deal.observation_tensor_size,)
    assert info.shape == (deal.information_state_tensor_size,)
    # The first block is the seat's hand, in action-id order.
    hand = {deal.string_to_action(c) for c in deal.hand(0)}
    assert {i for i in range(24) if obs[i] == 1} == hand
    assert np.array_equal(info[: obs.size], obs)
    with pytest.raises(ValueError, match="player 4 is out of range"):
        deal.observation_tensor(4)


# The sizes python/README.md gives: (observation, information state).
DOCUMENTED_SIZES = {"mini-misere-4": (271, 999), "mini-misere-6": (543, 2139), "mini-misere-3": (192, 741)}


@pytest.mark.parametrize("preset", PRESETS)
def test_tensor_sizes_follow_the_documented_layout(preset):
    rules = torite.Ruleset(preset)
    n, d, t = rules.players, len(rules.deck()), rules.tricks
    e = rules.num_actions - d
    obs = d + n * d + n * d + n * 4 + 6 + 4 + n + n + 5 + n + n + n + n
    info = obs + d + t * n * (n + d) + n * e
    deal = torite.Deal(preset, seed=1)
    assert (deal.observation_tensor_size, deal.information_state_tensor_size) == (obs, info)
    assert DOCUMENTED_SIZES.get(preset, (obs, info)) == (obs, info)
    play_random(deal, seed=1)
    for seat in range(n):
        assert deal.observation_tensor(seat).shape == (obs,)
        assert deal.information_state_tensor(seat).shape == (info,)


def test_three_player_joker_is_said_and_seen():
    """mini-misere-3: the seat that plays the joker as a trick's last card says joker:win or
    joker:lose before the trick is complete; the phase block and the information state show it."""
    for seed in range(100):
        deal = torite.Deal("mini-misere-3", seed=seed)
        rng = np.random.default_rng(seed)
        while not deal.is_terminal():
            legal = deal.legal_actions()
            if [deal.action_to_string(a) for a in legal] == ["joker:win", "joker:lose"]:
                break
            deal.apply(int(rng.choice(legal)))
        else:
            continue
        break
    else:
        pytest.fail("no joker said in 100 random deals")
    seat = deal.current_player()
    n, d = 3, len(deal.ruleset.deck())
    assert deal.history()[-1] == (seat, deal.string_to_action("JK"))
    tricks = len(deal.tricks())
    phase = deal.observation_tensor(seat)[d + 2 * n * d + 4 * n + 10 + 2 * n :][:5]
    assert list(phase) == [0, 0, 0, 0, 1]
    for other in ("lot", "pass", "call:S"):
        with pytest.raises(ValueError):
            deal.apply(other)
    deal.apply("joker:win")
    assert len(deal.tricks()) == tricks + 1
    leader, cards, winner = deal.tricks()[-1]
    assert cards[-1] == "JK" and winner == seat
    assert f" {seat}:joker:win" in deal.information_state_string(seat)
    info = deal.information_state_tensor((seat + 1) % n)
    # The extras block ends the tensor: seat `seat` is `n - 1` places after the observer.
    extras = info[-n * 8 :].reshape(n, 8)
    assert (extras[n - 1, 6], extras[n - 1, 7]) == (1, 0)


def test_information_state_hides_other_hands_and_resampling_keeps_it():
    deal = torite.Deal("mittlere-jass", seed=4)
    rng = np.random.default_rng(0)
    for _ in range(7):
        deal.apply(int(rng.choice(deal.legal_actions())))
    seat = deal.current_player()
    for seed in range(20):
        world = deal.resample_from_infostate(seat, seed)
        assert world.information_state_string(seat) == deal.information_state_string(seat)
        assert world.legal_actions() == deal.legal_actions()
        assert sorted(world.hand(seat)) == sorted(deal.hand(seat))
    worlds = {tuple(deal.resample_from_infostate(seat, s).hand((seat + 1) % 3)) for s in range(20)}
    assert len(worlds) > 1


def test_records_round_trip_and_replay():
    deal = play_random(torite.Deal("plus-minus-jass-4", seed=9, dealer=2), seed=9)
    record = deal.to_record()
    back = torite.Deal.from_record(record)
    assert back.history() == deal.history() and back.returns() == deal.returns()
    report = torite.replay(record)
    assert report["deals"][0]["scores"] == deal.scores()
    with pytest.raises(ValueError, match="deal 0"):
        bad = dict(record, deals=[dict(record["deals"][0], actions=["AS", "AS"])])
        torite.replay(bad)
    with pytest.raises(TypeError, match="a record is a dict or a JSON str"):
        torite.Deal.from_record(3)


def test_game_plays_whole_games_and_resumes_from_its_record():
    game = torite.Game("mura-4", seed=5)
    rng = np.random.default_rng(5)
    while not game.is_terminal():
        game.apply(int(rng.choice(game.legal_actions())))
    assert game.winners() and game.current_player() == -1
    assert [sum(col) for col in zip(*game.deal_scores())] == game.totals()
    with pytest.raises(ValueError, match="the game is over"):
        game.apply(0)
    back = torite.Game.from_record(game.to_record(), seed=5)
    assert back.totals() == game.totals() and back.is_terminal()


def test_bots_act_legally_and_refuse_bad_specs():
    deal = torite.Deal("mini-misere-4", seed=1)
    bots = [torite.bots.make(spec, seed=s) for s, spec in enumerate(["random", "heuristic", "ismcts:50", "pimc:4"])]
    while not deal.is_terminal():
        seat = deal.current_player()
        action = bots[seat].act(deal, seat)
        assert action in deal.legal_actions()
        deal.apply(action)
    with pytest.raises(ValueError, match=r'^unknown bot "nope" \(levels: beginner, casual, club, strong, expert; algorithms: random, heuristic, ismcts, ismcts-inf, ismcts-eval, ismcts-eq, ismcts-duck, ismcts-lot, ismcts-pol, ismcts-net, ismcts-read, ismcts-table, pimc, omniscient, maxn\)$'):
        torite.bots.make("nope")
    with pytest.raises(ValueError, match="out of range"):
        torite.bots.make("ismcts:0")
    with pytest.raises(ValueError, match="the deal is over"):
        bots[0].act(deal)
    with pytest.raises(TypeError, match="a bot spec is a str"):
        torite.bots.make(3)


def test_batch_playouts():
    out = torite.random_playouts("mini-misere-4", 50, seed=1)
    assert out.shape == (50, 4) and out.dtype == np.float64
    assert np.array_equal(out, torite.random_playouts("mini-misere-4", 50, seed=1))
    deal = torite.Deal("mura-3", seed=1)
    rets = torite.playout_returns(deal, "random", 20, seed=2)
    assert rets.shape == (20, 3)
    heur = torite.playout_returns(deal, "heuristic", 2, seed=2)
    assert heur.shape == (2, 3)
    bot = torite.bots.make("heuristic", 9)
    assert np.array_equal(torite.playout_returns(deal, bot, 2, seed=2), heur)
    assert np.array_equal(torite.playout_returns(deal, n=20, seed=2), rets)
    with pytest.raises(TypeError, match="a policy is"):
        torite.playout_returns(deal, 3, 1)
    with pytest.raises(ValueError, match="unknown bot"):
        torite.playout_returns(deal, "nope", 1)
    with pytest.raises(ValueError, match="out of range"):
        torite.random_playouts("mura-3", 10**9)


def test_arena_from_python():
    result = torite.arena("mini-misere-4", ["heuristic", "random"], deals=10, seed=1)
    assert [b["name"] for b in result] == ["heuristic", "random"]
    assert abs(result[0]["diff"] + result[1]["diff"]) < 1e-9
    games = torite.arena("mura-4", ["heuristic"], games=1)
    assert games[0]["win_rate"] is not None
    with pytest.raises(ValueError, match="bots: give 1 to 4"):
        torite.arena("mura-4", [])
    with pytest.raises(ValueError, match="deals = 0 is out of range"):
        torite.arena("mura-4", ["random"], deals=0)
