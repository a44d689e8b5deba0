//! Perft: frozen counts of legal action sequences, and the engine against the reference.
//!
//! `tests/data/<preset>.perft` holds positions in a shakmaty-like text format, one block per
//! position, blocks separated by blank lines, `#` starting a comment line:
//!
//! ```text
//! id mm4-lot-declared          a name, unique in the file
//! rules mini-misere-4          the preset (the file's own)
//! option low_card 9            optional house rules: an option name and a JSON value
//! dealer 3
//! hands AS KS ... | AH ... | ...   every seat's hand at the start of the deal
//! actions lot AS                   optional: actions already taken
//! perft 1 7                        depth and count, from the position after the actions
//! ```
//!
//! The counts were frozen from the naive reference generator of `reference.rs` (run
//! `TORITE_BLESS=1 cargo test -p torite-core --test tests -- --ignored perft::bless` to
//! recompute them after a deliberate change of the rules), and the endgames marked
//! "hand-checked" were also counted by hand. One harness checks every file against both
//! `torite_core::perft` and the reference; counts above a node limit only run in release
//! builds, so that the debug test suite stays fast.
//!
//! The differential property test plays random actions from random deals of every preset
//! and checks that the two generators agree at every step.

use std::path::PathBuf;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};
use torite_core::{Action, ActionSet, Card, CardSet, Deal, Preset, Ruleset, Trump, perft};

use crate::reference::{self, RefState, RefTrump};

/// Counts above this are checked against the engine only in release builds.
const ENGINE_NODE_LIMIT: u64 = if cfg!(debug_assertions) {
    60_000
} else {
    u64::MAX
};

/// Counts above this are checked against the (slow, naive) reference only in release builds.
const REFERENCE_NODE_LIMIT: u64 = if cfg!(debug_assertions) {
    6_000
} else {
    u64::MAX
};

/// One position of a data file.
#[derive(Debug)]
struct Position {
    id: String,
    preset: String,
    options: Vec<(String, Value)>,
    dealer: usize,
    hands: Vec<Vec<Card>>,
    actions: Vec<Action>,
    /// (depth, count or `None` for `?`, line index in the file).
    perfts: Vec<(u32, Option<u64>, usize)>,
}

impl Position {
    fn rules(&self) -> Ruleset {
        Ruleset::from_options(
            &self.preset,
            self.options.iter().map(|(n, v)| (n.as_str(), v)),
        )
        .unwrap_or_else(|e| panic!("{}: rules: {e}", self.id))
    }

    /// The position in the reference generator.
    fn reference(&self) -> RefState {
        let mut state = RefState::new(self.rules(), self.dealer, &self.hands);
        for action in &self.actions {
            state.apply(*action);
        }
        state
    }

    /// The position in the engine, checking the legal actions along the way against the
    /// reference.
    fn engine(&self) -> Deal {
        let hands: Vec<CardSet> = self
            .hands
            .iter()
            .map(|h| h.iter().copied().collect())
            .collect();
        let mut deal = Deal::new(self.rules(), self.dealer, &hands)
            .unwrap_or_else(|e| panic!("{}: hands: {e}", self.id));
        let mut state = RefState::new(self.rules(), self.dealer, &self.hands);
        for action in &self.actions {
            assert_eq!(
                texts(&deal.legal_actions()),
                state.legal_texts(),
                "{}: legal actions before {action}",
                self.id
            );
            deal.apply(*action)
                .unwrap_or_else(|e| panic!("{}: {action}: {e}", self.id));
            state.apply(*action);
        }
        deal
    }
}

fn data_file(preset: Preset) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{}.perft", preset.id()))
}

fn parse(name: &str, text: &str) -> Vec<Position> {
    let mut out: Vec<Position> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let at = || format!("{name}:{}", index + 1);
        if key == "id" {
            out.push(Position {
                id: rest.to_owned(),
                preset: String::new(),
                options: Vec::new(),
                dealer: 0,
                hands: Vec::new(),
                actions: Vec::new(),
                perfts: Vec::new(),
            });
            continue;
        }
        let pos = out
            .last_mut()
            .unwrap_or_else(|| panic!("{}: {key} before any id", at()));
        match key {
            "rules" => rest.clone_into(&mut pos.preset),
            "option" => {
                let (name, value) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{}: option NAME VALUE", at()));
                let value: Value = serde_json::from_str(value.trim())
                    .unwrap_or_else(|e| panic!("{}: option value: {e}", at()));
                pos.options.push((name.to_owned(), value));
            }
            "dealer" => {
                pos.dealer = rest
                    .parse()
                    .unwrap_or_else(|e| panic!("{}: dealer: {e}", at()));
            }
            "hands" => pos.hands = reference::hands(rest),
            "actions" => pos.actions.extend(reference::actions(rest)),
            "perft" => {
                let (depth, count) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{}: perft DEPTH COUNT", at()));
                let depth = depth
                    .parse()
                    .unwrap_or_else(|e| panic!("{}: depth: {e}", at()));
                let count = match count.trim() {
                    "?" => None,
                    n => Some(n.parse().unwrap_or_else(|e| panic!("{}: count: {e}", at()))),
                };
                pos.perfts.push((depth, count, index));
            }
            other => panic!("{}: unknown key {other:?}", at()),
        }
    }
    out
}

fn read(preset: Preset) -> (String, Vec<Position>) {
    let path = data_file(preset);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let positions = parse(&format!("{}.perft", preset.id()), &text);
    (text, positions)
}

/// Sorted action texts, to compare with [`RefState::legal_texts`].
fn texts(actions: &ActionSet) -> Vec<String> {
    let mut out: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
    out.sort();
    out
}

/// Every preset has a data file, and every position in it is well-formed.
#[test]
fn every_preset_has_positions() {
    for preset in Preset::ALL {
        let (_, positions) = read(preset);
        assert!(
            positions.len() >= 4,
            "{preset}: only {} positions",
            positions.len()
        );
        let mut ids: Vec<&str> = positions.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), positions.len(), "{preset}: duplicate ids");
        for pos in &positions {
            assert_eq!(pos.preset, preset.id(), "{}: rules", pos.id);
            assert!(!pos.perfts.is_empty(), "{}: no perft line", pos.id);
            assert!(
                pos.perfts.iter().all(|(_, c, _)| c.is_some()),
                "{}: unfrozen count (bless the file)",
                pos.id
            );
        }
        assert!(
            positions.iter().any(|p| p.id.contains("endgame")),
            "{preset}: no endgame"
        );
        assert!(
            positions.iter().any(|p| !p.actions.is_empty()),
            "{preset}: no position in the middle of a deal"
        );
    }
}

fn check_preset(preset: Preset) {
    let (_, positions) = read(preset);
    for pos in &positions {
        let deal = pos.engine();
        let state = pos.reference();
        for &(depth, count, _) in &pos.perfts {
            let count = count.expect("frozen");
            if count <= ENGINE_NODE_LIMIT {
                assert_eq!(
                    perft(&deal, depth),
                    count,
                    "{}: engine perft {depth}",
                    pos.id
                );
            }
            if count <= REFERENCE_NODE_LIMIT {
                assert_eq!(
                    state.perft(depth),
                    count,
                    "{}: reference perft {depth}",
                    pos.id
                );
            }
        }
    }
}

macro_rules! perft_files {
    ($($name:ident => $preset:expr,)*) => {
        $(
            #[test]
            fn $name() {
                check_preset($preset);
            }
        )*
    };
}

perft_files! {
    mini_misere_4 => Preset::MiniMisere4,
    mini_misere_4_1989 => Preset::MiniMisere4_1989,
    mini_misere_5 => Preset::MiniMisere5,
    mini_misere_5_1989 => Preset::MiniMisere5_1989,
    mini_misere_6 => Preset::MiniMisere6,
    mini_misere_3 => Preset::MiniMisere3,
    mittlere_jass => Preset::MittlereJass,
    molotow_jass => Preset::MolotowJass,
    plus_minus_jass_3 => Preset::PlusMinusJass3,
    plus_minus_jass_4 => Preset::PlusMinusJass4,
    middler => Preset::Middler,
    middler_joker => Preset::MiddlerJoker,
    mura_4 => Preset::Mura4,
    mura_3 => Preset::Mura3,
}

/// Recomputes every count of the data files with the reference generator.
#[test]
#[ignore = "rewrites tests/data/*.perft; run with TORITE_BLESS=1 (best in release)"]
fn bless() {
    if std::env::var_os("TORITE_BLESS").is_none() {
        eprintln!("set TORITE_BLESS=1 to rewrite the perft data files");
        return;
    }
    for preset in Preset::ALL {
        let (text, positions) = read(preset);
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        for pos in &positions {
            let state = pos.reference();
            for &(depth, _, index) in &pos.perfts {
                lines[index] = format!("perft {depth} {}", state.perft(depth));
            }
        }
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(data_file(preset), out).expect("write the data file");
    }
}

/// The rulesets the random tests sweep: every preset and a few house rules.
pub fn variants() -> Vec<Ruleset> {
    let house = |base: &str, options: Value| {
        let map = options.as_object().expect("an object of options");
        Ruleset::from_options(base, map.iter().map(|(k, v)| (k.as_str(), v)))
            .unwrap_or_else(|e| panic!("{base}: {e}"))
    };
    let mut out: Vec<Ruleset> = Preset::ALL.iter().map(|p| p.ruleset()).collect();
    out.push(house("mini-misere-4", json!({"lot_timing": "before-lead"})));
    out.push(house("mini-misere-4", json!({"low_card": 9})));
    out.push(house("mini-misere-4", json!({"led_low_wins": false})));
    out.push(house("mini-misere-5", json!({"lot_timing": "before-lead"})));
    out.push(house(
        "mini-misere-5-1989",
        json!({"lot_timing": "first-card"}),
    ));
    out.push(house("mura-4", json!({"threshold": 6, "bonus_at": 7})));
    out.push(house("molotow-jass", json!({"molotow_middle_wins": true})));
    out.push(house("middler", json!({"follow": "must-follow"})));
    out.push(house("mittlere-jass", json!({"follow": "handjass"})));
    out.push(house("molotow-jass", json!({"follow": "must-follow"})));
    out
}

/// A random deal of `rules` and its hands as the reference wants them.
pub fn random_deal(rules: Ruleset, rng: &mut ChaCha8Rng) -> (Deal, Vec<Vec<Card>>) {
    let dealer = (rng.next_u32() % u32::from(rules.players)) as usize;
    let deal = Deal::random(rules, dealer, rng);
    let hands = (0..deal.players())
        .map(|seat| deal.hand(seat).iter().collect())
        .collect();
    (deal, hands)
}

fn ref_trump(trump: Trump) -> RefTrump {
    match trump {
        Trump::None => RefTrump::None,
        Trump::Suit(suit) => RefTrump::Suit(suit),
        Trump::JokerOnly => RefTrump::JokerOnly,
    }
}

/// Compares what both generators say about a position.
fn compare(deal: &Deal, state: &RefState) -> Result<(), TestCaseError> {
    prop_assert_eq!(texts(&deal.legal_actions()), state.legal_texts());
    prop_assert_eq!(deal.is_over(), state.is_over());
    prop_assert_eq!(deal.tricks_completed(), state.tricks_played);
    let won: Vec<usize> = deal.tricks_won().iter().map(|t| usize::from(*t)).collect();
    prop_assert_eq!(won, state.tricks_won.clone());
    prop_assert_eq!(ref_trump(deal.trump()), state.trump);
    let trick: Vec<Card> = state.trick.iter().map(|(_, c)| *c).collect();
    prop_assert_eq!(deal.current_trick(), trick.as_slice());
    if !deal.is_over() {
        prop_assert_eq!(deal.to_act(), state.to_act);
    }
    for seat in 0..deal.players() {
        let hand: CardSet = state.hands[seat].iter().copied().collect();
        prop_assert_eq!(deal.hand(seat), hand);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random presets, random deals, random actions: the engine's legal actions equal the
    /// reference's at every step, and so do perft counts at the end.
    #[test]
    fn engine_agrees_with_reference(
        variant in 0..variants().len(),
        seed in any::<u64>(),
        steps in 0usize..60,
    ) {
        let rules = variants()[variant];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut deal, hands) = random_deal(rules, &mut rng);
        let mut state = RefState::new(rules, deal.dealer(), &hands);
        let mut played: Vec<String> = Vec::new();
        for _ in 0..steps {
            compare(&deal, &state).map_err(|e| {
                TestCaseError::fail(format!("{e}\nrules {rules:?}\nhands {hands:?}\nactions {}", played.join(" ")))
            })?;
            let legal = state.legal_actions();
            if legal.is_empty() {
                break;
            }
            let action = legal[(rng.next_u64() % legal.len() as u64) as usize];
            played.push(action.to_string());
            deal.apply(action).map_err(|e| TestCaseError::fail(format!("{action}: {e}")))?;
            state.apply(action);
        }
        compare(&deal, &state)?;
        let two = state.perft(2);
        prop_assert_eq!(perft(&deal, 2), two, "actions {}", played.join(" "));
        if two <= 300 {
            prop_assert_eq!(perft(&deal, 3), state.perft(3), "actions {}", played.join(" "));
        }
    }
}
