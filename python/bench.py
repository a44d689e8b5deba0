"""Speed of the Python package, side by side with its peers (benchmarks, not tests).

    python python/bench.py [--seconds S] [--torite target/release/torite]

Prints, for mini-misere-4 on this machine and in one run:
  1. random complete deals per second through torite.random_playouts, and `torite bench`'s;
  2. random deals per second through a Python loop of apply calls: torite.Deal, the same game
     through OpenSpiel (torite.openspiel, chance nodes dealing the cards), and OpenSpiel's own
     C++ oh_hell driven by the same loop;
  3. IS-MCTS simulations per second: OpenSpiel's Python ISMCTSBot on torite_mini_misere_4
     against torite's own ISMCTS (torite.bots.make("ismcts:N")).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import torite
import torite.openspiel

PRESET = "mini-misere-4"


def timed(run, seconds: float) -> tuple[int, float]:
    """Calls run() (which returns a count) until `seconds` have passed; (count, elapsed)."""
    count = 0
    start = time.perf_counter()
    while True:
        count += run()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, elapsed


def batch_playouts(seconds: float) -> float:
    n = 20_000
    seed = iter(range(10**9))
    deals, elapsed = timed(lambda: len(torite.random_playouts(PRESET, n, next(seed))), seconds)
    return deals / elapsed


def cli_bench(binary: str, seconds: float) -> float | None:
    if not Path(binary).is_file():
        return None
    out = subprocess.run(
        [binary, "bench", "--ruleset", PRESET, "--seconds", str(seconds)],
        capture_output=True, text=True, check=True, timeout=600,
    ).stdout
    return float(json.loads(out.splitlines()[0])["deals_per_sec"])


def torite_loop(seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    rules = torite.Ruleset(PRESET)
    actions = 0

    def one() -> int:
        nonlocal actions
        deal = torite.Deal(rules, seed=rng.getrandbits(32))
        while not deal.is_terminal():
            deal.apply(rng.choice(deal.legal_actions()))
            actions += 1
        return 1

    deals, elapsed = timed(one, seconds)
    return deals / elapsed, actions / elapsed


def spiel_loop(game, seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    actions = 0

    def one() -> int:
        nonlocal actions
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return 1

    deals, elapsed = timed(one, seconds)
    return deals / elapsed, actions / elapsed


def first_decision(game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def spiel_ismcts(seconds: float) -> float:
    game = pyspiel.load_game(torite.openspiel.game_name(PRESET))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    sims = 200
    seed = iter(range(10**9))

    def one() -> int:
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims,
                               random_state=np.random.RandomState(0))
        bot.step(first_decision(game, next(seed)))
        return sims

    done, elapsed = timed(one, seconds)
    return done / elapsed


def torite_ismcts(seconds: float) -> float:
    game = pyspiel.load_game(torite.openspiel.game_name(PRESET))
    sims = 5000
    seed = iter(range(10**9))

    def one() -> int:
        s = next(seed)
        torite.bots.make(f"ismcts:{sims}", s).act(first_decision(game, s))
        return sims

    done, elapsed = timed(one, seconds)
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (3)")
    root = Path(__file__).resolve().parents[1]
    parser.add_argument("--torite", default=str(root / "target" / "release" / "torite"),
                        help="the torite binary for `torite bench` (target/release/torite)")
    args = parser.parse_args()
    s = args.seconds

    print(f"{PRESET}, {s:g} s per figure\n")
    batch = batch_playouts(s)
    cli = cli_bench(args.torite, s)
    print("1. random complete deals per second, in Rust")
    print(f"   torite.random_playouts          {batch:>12,.0f}")
    if cli is None:
        print(f"   torite bench                    (no binary at {args.torite})")
    else:
        print(f"   torite bench                    {cli:>12,.0f}   ratio {cli / batch:.2f}x")

    ours = torite_loop(s)
    wrapped = spiel_loop(pyspiel.load_game(torite.openspiel.game_name(PRESET)), s)
    oh_hell = spiel_loop(pyspiel.load_game("oh_hell"), s)
    print("\n2. a Python loop of apply calls (random legal actions): deals/s, actions/s")
    print(f"   torite.Deal                     {ours[0]:>12,.0f} {ours[1]:>12,.0f}")
    print(f"   torite_mini_misere_4 (pyspiel)  {wrapped[0]:>12,.0f} {wrapped[1]:>12,.0f}   (chance nodes deal)")
    print(f"   oh_hell (OpenSpiel C++)         {oh_hell[0]:>12,.0f} {oh_hell[1]:>12,.0f}   (chance nodes deal)")
    print(f"   torite.Deal / oh_hell           {ours[0] / oh_hell[0]:>11.1f}x {ours[1] / oh_hell[1]:>11.1f}x")

    py = spiel_ismcts(s)
    rs = torite_ismcts(s)
    print("\n3. IS-MCTS simulations per second at the first decision of a deal")
    print(f"   OpenSpiel ISMCTSBot (Python)    {py:>12,.0f}")
    print(f"   torite ismcts (Rust)            {rs:>12,.0f}   ratio {rs / py:.0f}x")


if __name__ == "__main__":
    main()
