//! Integration tests of torite-core, one module per concern:
//!
//! - `rules`: a test named after each rule of the rules specification, on hand-built positions;
//! - `reference`: a naive, independent move generator written straight from the rule text;
//! - `perft`: frozen perft counts (from the reference generator) and differential checks;
//! - `props`: property tests playing random games of every preset;
//! - `worlds`: the worlds a seat samples replay the history of the deal.

mod perft;
mod props;
mod reference;
mod rules;
mod worlds;
