//! One test per rule of `RULES.md`, each on a hand-built position.
//!
//! Hands are written as card strings, one per seat, and always make up the whole deck. Seat 0 is
//! the first leader whenever the dealer is the last seat. Card lists in assertions use the
//! `CardSet` display order: suits S H D C, high rank index first, the joker last.

use serde_json::{Value, json};
use torite_core::{
    Action, Card, CardSet, Deal, DealFacts, DealResult, Game, GameEnd, GameError, LotTiming, Phase,
    PlayError, Preset, Rank, Ruleset, RulesetProblem, ScoreError, ScoreRule, Seat, Suit, Trump,
    View,
};

mod common;
mod house_rules;
mod jass;
mod jass_variants;
mod mini_misere;
mod mura;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn card(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn act(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn hands(list: &[&str]) -> Vec<CardSet> {
    list.iter()
        .map(|h| h.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn rules(base: &str, options: &[(&str, Value)]) -> Ruleset {
    Ruleset::from_options(base, options.iter().map(|(n, v)| (*n, v)))
        .unwrap_or_else(|e| panic!("{base}: {e}"))
}

/// The message of the error that refuses these options.
fn refused(base: &str, options: &[(&str, Value)]) -> String {
    match Ruleset::from_options(base, options.iter().map(|(n, v)| (*n, v))) {
        Ok(r) => panic!("{base} {options:?} accepted: {r:?}"),
        Err(e) => e.to_string(),
    }
}

fn deal(rules: Ruleset, dealer: Seat, list: &[&str]) -> Deal {
    Deal::new(rules, dealer, &hands(list)).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies space-separated actions (`|` may separate tricks for readability).
fn play(d: &mut Deal, actions: &str) {
    for tok in actions.split_whitespace().filter(|t| *t != "|") {
        let seat = d.to_act();
        d.apply(act(tok))
            .unwrap_or_else(|e| panic!("seat {seat} {tok}: {e}"));
    }
}

/// The cards the seat to act may play, in display order.
fn legal(d: &Deal) -> String {
    d.legal_actions().cards.to_string()
}

/// Why `action` is refused now.
fn why(d: &Deal, action: &str) -> PlayError {
    d.check(act(action))
        .unwrap_or_else(|| panic!("{action} should be refused"))
}

/// A simple deterministic choice: the first legal card, else `pass`, else a suit call.
fn first_action(d: &Deal) -> Action {
    let legal = d.legal_actions();
    legal
        .cards
        .first()
        .map(Action::Play)
        .or(legal.pass.then_some(Action::Pass))
        .or_else(|| legal.iter().find(|a| matches!(a, Action::Call(_))))
        .expect("a legal action")
}

fn autoplay(d: &mut Deal) {
    while !d.is_over() {
        let a = first_action(d);
        d.apply(a).unwrap();
    }
}

fn winner_of_last_trick(d: &Deal) -> Seat {
    d.last_trick().expect("a completed trick").winner
}

fn points(d: &Deal) -> Vec<u32> {
    (0..d.players()).map(|s| d.card_points(s)).collect()
}

fn facts(points: &[u32], tricks: &[u8]) -> DealFacts {
    let mut f = DealFacts {
        players: points.len().max(tricks.len()),
        ..DealFacts::default()
    };
    f.points[..points.len()].copy_from_slice(points);
    f.tricks[..tricks.len()].copy_from_slice(tricks);
    f
}

/// Scores a deal with these card points and tricks (no totals, no draw).
fn score(rules: &Ruleset, points: &[u32], tricks: &[u8]) -> (Vec<i32>, ScoreRule) {
    let f = facts(points, tricks);
    let s = rules.score(&f, &[], None).unwrap_or_else(|e| panic!("{e}"));
    (s.scores[..f.players].to_vec(), s.rule)
}

fn score_deal(d: &Deal) -> (Vec<i32>, ScoreRule) {
    let f = DealFacts::of(d);
    let s = d.rules().score(&f, &[], None).unwrap();
    (s.scores[..f.players].to_vec(), s.rule)
}

/// Plays one deal of a game: the scripted actions, then the first legal action until it is over.
fn game_deal(game: &mut Game, list: &[&str], script: &str) -> DealResult {
    game.start_deal(&hands(list))
        .unwrap_or_else(|e| panic!("{e}"));
    for tok in script.split_whitespace().filter(|t| *t != "|") {
        game.apply(act(tok))
            .unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
    while let Some(a) = game.deal().filter(|d| !d.is_over()).map(first_action) {
        game.apply(a).unwrap();
    }
    game.finish_deal(None)
        .unwrap_or_else(|e| panic!("{e}"))
        .clone()
}

/// Seat `(first + i) % n` gets `roles[i]`.
fn rotate<'a>(roles: &[&'a str], first: Seat) -> Vec<&'a str> {
    let n = roles.len();
    (0..n).map(|seat| roles[(seat + n - first) % n]).collect()
}

/// Each seat holds one whole suit: the leader leads its suit every trick and, with no trumps,
/// wins them all (Mini Misère, Mura); in the Jass games the seat after it trumps and takes all.
const MM4_ONE_SUIT: [&str; 4] = [
    "AS KS QS JS TS 2S",
    "AH KH QH JH TH 2H",
    "AD KD QD JD TD 2D",
    "AC KC QC JC TC 2C",
];
const SWISS_ONE_SUIT: [&str; 4] = [
    "AS KS QS JS TS 9S 8S 7S 6S",
    "AH KH QH JH TH 9H 8H 7H 6H",
    "AD KD QD JD TD 9D 8D 7D 6D",
    "AC KC QC JC TC 9C 8C 7C 6C",
];

/// Three players holding three cards of every suit: everyone always follows, so no trump is
/// ever set. `X` takes the spade and heart tricks (76 points), `Y` the diamond and club tricks
/// and the last one (81), `Z` nothing.
const X: &str = "AS KS QS AH KH QH JD TD 9D JC TC 9C";
const Y: &str = "JS TS 9S JH TH 9H AD KD QD AC KC QC";
const Z: &str = "8S 7S 6S 8H 7H 6H 8D 7D 6D 8C 7C 6C";

/// Four-player Jass deals in which the leader (role 0) and the seat opposite (role 2) take
/// every trick and the two others take nothing: those hold only low plain cards and no
/// diamond, and role 2 makes diamonds trump in the first trick. With `SPLIT` the leader takes
/// 75 points and role 2 82; with `ROUT` 48 and 109.
const PAIR_B: &str = "JS TS 9S JH TH 9H JC TC 9C";
const PAIR_D: &str = "8S 7S 6S 8H 7H 6H 8C 7C 6C";
const SPLIT: [&str; 4] = [
    "AS KS QS AH KH QH JD 9D AD",
    PAIR_B,
    "AC KC QC KD QD TD 8D 7D 6D",
    PAIR_D,
];
const SPLIT_PLAY: &str = "AS 9S 6D 6S | AC 6C 9D 9C | KS TS 7D 7S | KC 7C JD TC | QS JS 8D 8S \
                          | QC 8C AD JC | AH 9H TD 6H | KD 7H KH TH | QD 8H QH JH";
const ROUT: [&str; 4] = [
    "AS KS QS AH KH QH AD KD QD",
    PAIR_B,
    "AC KC QC JD TD 9D 8D 7D 6D",
    PAIR_D,
];
const ROUT_PLAY: &str = "AS 9S 6D 6S | AC 6C QD 9C | KS TS 7D 7S | KC 7C KD TC | QS JS 8D 8S \
                         | QC 8C AD JC | AH 9H 9D 6H | JD 7H KH TH | TD 8H QH JH";

/// Mini Misère four players, dealer 3: seat 0 leads.
const LED2: [&str; 4] = [
    "2S AH KH QH JH TH",
    "AS JS AD KD QD JD",
    "KS TS TD 2D AC KC",
    "QS 2H QC JC TC 2C",
];
