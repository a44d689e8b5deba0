//! House-rule parsing: TOML (`base = "id"` plus options) or the JSON object form, read as
//! the command line reads a house-rule file (`parse_house_rules` in `crates/cli/src/input.rs`)
//! and then checked by `Ruleset::from_json`, the entry point every interface shares.
//!
//! Any text: never a panic, and a refusal is one line. An accepted ruleset validates, comes
//! back from its record form (`Ruleset::to_json`) and from its options applied to its base,
//! and plays: a whole game of random legal actions ends (or runs its first 40 deals) without
//! an error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;
use torite_core::shuffle::below;
use torite_core::{Game, Ruleset};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check(text);
    }
});

/// The command line's reading of a house-rule file: JSON when it starts with `{`, TOML
/// otherwise (a TOML file must name its base).
fn parse(text: &str) -> Option<Value> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).ok();
    }
    let table: toml::Table = toml::from_str(text).ok()?;
    if !table.contains_key("base") {
        return None;
    }
    serde_json::to_value(table).ok()
}

fn check(text: &str) {
    let Some(value) = parse(text) else {
        return;
    };
    let rules = match Ruleset::from_json(&value) {
        Ok(rules) => rules,
        Err(e) => {
            let line = e.to_string();
            assert!(
                !line.contains('\n'),
                "a refusal of more than one line: {line:?}"
            );
            return;
        }
    };
    if let Err(e) = rules.validate() {
        panic!("an accepted ruleset does not validate: {e}");
    }
    assert_eq!(
        Ruleset::from_json(&rules.to_json()).as_ref(),
        Ok(&rules),
        "the record form does not give the ruleset back"
    );
    let options = rules.options();
    assert_eq!(
        Ruleset::from_options(rules.id(), options.iter().map(|(n, v)| (*n, v))).as_ref(),
        Ok(&rules),
        "the options applied to the base do not give the ruleset back"
    );

    let mut game = Game::new(rules, 0).expect("a game of an accepted ruleset");
    let mut rng = ChaCha8Rng::seed_from_u64(text.len() as u64);
    for _ in 0..40 {
        if game.is_finished() {
            break;
        }
        game.start_random_deal(&mut rng).expect("a deal starts");
        while let Some(deal) = game.deal().filter(|d| !d.is_over()) {
            let legal = deal.legal_actions();
            let action = legal
                .nth(below(&mut rng, legal.len() as u32) as usize)
                .expect("a deal in progress has a legal action");
            if let Err(e) = game.apply(action) {
                panic!("{action} is listed as legal but refused: {e}");
            }
        }
        let draw = game
            .draw_needed()
            .map(|tied| tied.trailing_zeros() as usize);
        if let Err(e) = game.finish_deal(draw) {
            panic!("a finished deal cannot be scored: {e}");
        }
    }
}
