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

// ---------------------------------------------------------------------------------------------
// 0. Common model
// ---------------------------------------------------------------------------------------------

#[test]
fn first_leader_is_seat_after_dealer() {
    for (dealer, leader) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
        let d = deal(Preset::MiniMisere4.ruleset(), dealer, &MM4_ONE_SUIT);
        assert_eq!(
            (d.dealer(), d.leader(), d.to_act()),
            (dealer, leader, leader)
        );
    }
    let d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    assert_eq!(d.to_act(), 0);
}

#[test]
fn dealer_rotates_to_next_seat() {
    let mut game = Game::new(Preset::MiniMisere4.ruleset(), 2).unwrap();
    let mut seen = Vec::new();
    for _ in 0..5 {
        let d = game.start_deal(&hands(&MM4_ONE_SUIT)).unwrap();
        seen.push((d.dealer(), d.to_act()));
        while let Some(a) = game.deal().filter(|d| !d.is_over()).map(first_action) {
            game.apply(a).unwrap();
        }
        game.finish_deal(None).unwrap();
    }
    assert_eq!(seen, [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]);
    let dealers: Vec<Seat> = game.results().iter().map(|r| r.dealer).collect();
    assert_eq!(dealers, [2, 3, 0, 1, 2]);
}

#[test]
fn dealing_gives_equal_shares_of_the_whole_deck() {
    let r = Preset::MiniMisere4.ruleset();
    let mut short = MM4_ONE_SUIT.to_vec();
    short[0] = "AS KS QS JS TS";
    let err = Deal::new(r, 0, &hands(&short)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "seat 0 has 5 cards, expected 6 (hands must be equal shares of the deck)"
    );
    let mut dup = MM4_ONE_SUIT.to_vec();
    dup[0] = "AS KS QS JS TS AH";
    assert_eq!(
        Deal::new(r, 0, &hands(&dup)).unwrap_err().to_string(),
        "AH is dealt more than once"
    );
    let mut foreign = MM4_ONE_SUIT.to_vec();
    foreign[0] = "AS KS QS JS TS 9S";
    assert_eq!(
        Deal::new(r, 0, &hands(&foreign)).unwrap_err().to_string(),
        "9S is not in this ruleset's deck"
    );
    let tricks: Vec<usize> = Preset::ALL.iter().map(|p| p.ruleset().tricks()).collect();
    assert_eq!(tricks, [6, 7, 5, 5, 6, 7, 12, 9, 12, 9, 12, 11, 9, 12]);
}

#[test]
fn trick_winner_leads_next_trick() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(
        (winner_of_last_trick(&d), d.to_act(), d.leader()),
        (0, 0, 0)
    );
    play(&mut d, "2S JS TS QS");
    assert_eq!(
        (winner_of_last_trick(&d), d.to_act(), d.tricks_won()),
        (0, 0, &[2, 0, 0, 0][..])
    );
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "KH JD 2D 2H");
    assert_eq!(d.to_act(), 0);
    let mut d = deal(Preset::MiniMisere4.ruleset(), 0, &LED2);
    play(&mut d, "JS TS QS 2S");
    assert_eq!((winner_of_last_trick(&d), d.to_act()), (3, 3));
}

#[test]
fn card_notation_is_case_insensitive_and_accepts_10() {
    assert_eq!(card("10h"), Card::new(Suit::Hearts, Rank::TEN));
    assert_eq!(card("th").to_string(), "TH");
    assert_eq!(card("jk"), Card::JOKER);
    assert_eq!(card("2c").to_string(), "2C");
    assert!("1S".parse::<Card>().is_err());
    assert_eq!(act("LOT"), Action::Lot);
    assert_eq!(act("pass"), Action::Pass);
    assert_eq!(act("call:d"), Action::Call(Suit::Diamonds));
    assert_eq!(act("call:S").to_string(), "call:S");
}

// ---------------------------------------------------------------------------------------------
// 1. Mini Misère
// ---------------------------------------------------------------------------------------------

/// Mini Misère four players, dealer 3: seat 0 leads.
const LED2: [&str; 4] = [
    "2S AH KH QH JH TH",
    "AS JS AD KD QD JD",
    "KS TS TD 2D AC KC",
    "QS 2H QC JC TC 2C",
];

#[test]
fn mini_misere_decks_match_the_table() {
    let deck = |p: Preset| p.ruleset().deck().to_string();
    assert_eq!(
        deck(Preset::MiniMisere4),
        "AS KS QS JS TS 2S AH KH QH JH TH 2H AD KD QD JD TD 2D AC KC QC JC TC 2C"
    );
    assert_eq!(deck(Preset::MiniMisere4_1989).split(' ').count(), 28);
    assert!(
        Preset::MiniMisere4_1989
            .ruleset()
            .deck()
            .contains(card("9S"))
    );
    assert!(
        Preset::MiniMisere4_1989
            .ruleset()
            .deck()
            .contains(card("2S"))
    );
    assert_eq!(deck(Preset::MiniMisere5).split(' ').count(), 25);
    assert!(deck(Preset::MiniMisere5).ends_with("2C JK"));
    assert_eq!(deck(Preset::MiniMisere5_1989).split(' ').count(), 25);
    assert!(deck(Preset::MiniMisere5_1989).ends_with("9C JK"));
    assert!(
        !Preset::MiniMisere5_1989
            .ruleset()
            .deck()
            .contains(card("2S"))
    );
    let players: Vec<u8> = [
        Preset::MiniMisere4,
        Preset::MiniMisere4_1989,
        Preset::MiniMisere5,
        Preset::MiniMisere5_1989,
    ]
    .iter()
    .map(|p| p.ruleset().players)
    .collect();
    assert_eq!(players, [4, 4, 5, 5]);
}

#[test]
fn four_player_deck_has_no_joker() {
    for p in [Preset::MiniMisere4, Preset::MiniMisere4_1989] {
        assert!(!p.ruleset().deck().contains(Card::JOKER), "{p}");
        assert_eq!(p.ruleset().deck().len() % 4, 0, "{p}");
    }
}

#[test]
fn mini_misere_must_follow_suit_when_able_else_any_card() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH");
    assert_eq!(legal(&d), "AS JS AD KD QD JD");
    play(&mut d, "AD");
    assert_eq!(legal(&d), "KS TS TD 2D AC KC");
    play(&mut d, "AC");
    assert_eq!(legal(&d), "2H");
    assert_eq!(why(&d, "QC"), PlayError::MustFollow { led: Suit::Hearts });
    assert_eq!(why(&d, "AS"), PlayError::NotInHand(card("AS")));
}

#[test]
fn mini_misere_no_trumps_highest_of_led_suit_wins() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(winner_of_last_trick(&d), 0);
    let mut d = deal(Preset::MiniMisere4.ruleset(), 1, &LED2);
    // Seat 2 leads the ten of diamonds; seat 1's jack of diamonds beats it.
    play(&mut d, "TD 2C KH JD");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn led_two_beats_its_suit() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "2S AS KS");
    assert_eq!(d.winning(), Some(0));
    play(&mut d, "QS");
    assert_eq!(winner_of_last_trick(&d), 0);
    // The 4-player 1989 deck keeps the led 2 too.
    let r = Preset::MiniMisere4_1989.ruleset();
    assert!(r.led_low_wins);
    assert_eq!(r.low_card, Some(Rank::TWO));
}

#[test]
fn two_not_led_is_lowest() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(winner_of_last_trick(&d), 0);
    // A led 2 still wins, a 2 that follows loses to the lowest other card.
    let mut d = deal(Preset::MiniMisere4.ruleset(), 1, &LED2);
    play(&mut d, "2D 2C TH");
    assert_eq!(d.winning(), Some(2));
}

#[test]
fn low_card_nine_makes_nine_the_led_highest_card() {
    let r = rules("mini-misere-4", &[("low_card", json!(9))]);
    assert!(!r.deck().contains(card("2S")));
    assert!(r.deck().contains(card("9S")));
    let nines = LED2.map(|h| h.replace('2', "9"));
    let nines: Vec<&str> = nines.iter().map(String::as_str).collect();
    let mut d = deal(r, 3, &nines);
    play(&mut d, "9S AS KS QS");
    assert_eq!(winner_of_last_trick(&d), 0);
    // Not led, the 9 is the lowest of its suit.
    play(&mut d, "TH AD AC 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
    play(&mut d, "JH");
    assert_eq!(legal(&d), "JS KD QD JD");
}

#[test]
fn led_low_wins_false_makes_led_two_ordinary() {
    let r = rules("mini-misere-4", &[("led_low_wins", json!(false))]);
    let mut d = deal(r, 3, &LED2);
    play(&mut d, "2S AS KS QS");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn nine_has_no_special_power_in_1989_five_player_rules() {
    let r = Preset::MiniMisere5_1989.ruleset();
    assert!(!r.led_low_wins);
    let mut d = deal(
        r,
        4,
        &[
            "9S AH KH QH JH",
            "AS KS QS JS TS",
            "JK TH 9H AD KD",
            "QD JD TD 9D AC",
            "KC QC JC TC 9C",
        ],
    );
    play(&mut d, "pass pass pass pass pass | 9S TS TH AC 9C");
    assert_eq!(winner_of_last_trick(&d), 1);
}

const MM5: [&str; 5] = [
    "JK AS KS QS JS",
    "TS 2S AH KH QH",
    "JH TH 2H AD KD",
    "QD JD TD 2D AC",
    "KC QC JC TC 2C",
];

#[test]
fn joker_current_led_wins_and_frees_followers() {
    let mut d = deal(Preset::MiniMisere5.ruleset(), 4, &MM5);
    play(&mut d, "JK");
    assert_eq!(d.led(), None);
    assert_eq!(legal(&d), "TS 2S AH KH QH");
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH TH 2H AD KD");
    play(&mut d, "AD AC KC");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn joker_current_not_led_only_when_void_and_loses() {
    let r = Preset::MiniMisere5.ruleset();
    let mut d = deal(
        r,
        4,
        &[
            "AS KS QS JS TS",
            "JK 2S AH KH QH",
            "JH TH 2H AD KD",
            "QD JD TD 2D AC",
            "KC QC JC TC 2C",
        ],
    );
    play(&mut d, "AS");
    assert_eq!(legal(&d), "2S");
    assert_eq!(
        why(&d, "JK"),
        PlayError::JokerOnlyWhenVoid { led: Suit::Spades }
    );
    play(&mut d, "2S 2H AC 2C | KS");
    assert_eq!(legal(&d), "AH KH QH JK");
    play(&mut d, "JK JH 2D KC");
    assert_eq!(winner_of_last_trick(&d), 0);
    assert_eq!(d.tricks_won(), [2, 0, 0, 0, 0]);
}

const MM5_1989: [&str; 5] = [
    "JK AS KS QS JS",
    "TS 9S AH KH QH",
    "JH TH 9H AD KD",
    "QD JD TD 9D AC",
    "KC QC JC TC 9C",
];

#[test]
fn joker_1989_led_names_suit_which_must_be_followed() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(&mut d, "pass pass pass pass pass");
    assert_eq!(why(&d, "call:H"), PlayError::NoCallExpected);
    play(&mut d, "JK");
    assert_eq!(d.phase(), Phase::CallSuit);
    assert_eq!(d.to_act(), 0);
    let calls: Vec<String> = d.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(calls, ["call:S", "call:H", "call:D", "call:C"]);
    assert_eq!(why(&d, "AS"), PlayError::MustCallSuit);
    play(&mut d, "call:H");
    assert_eq!(d.led(), Some(Suit::Hearts));
    assert_eq!(legal(&d), "AH KH QH");
    assert_eq!(why(&d, "TS"), PlayError::MustFollow { led: Suit::Hearts });
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH TH 9H");
    play(&mut d, "9H");
    assert_eq!(legal(&d), "QD JD TD 9D AC");
    play(&mut d, "AC 9C");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn joker_1989_call_even_in_last_trick() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(
        &mut d,
        "pass pass pass pass pass | AS TS JH QD KC | KS 9S TH JD QC | QS AH 9H TD JC | JS KH AD 9D TC",
    );
    assert_eq!(d.tricks_completed(), 4);
    play(&mut d, "JK");
    assert!(!d.is_over());
    assert_eq!(d.phase(), Phase::CallSuit);
    assert_eq!(d.legal_actions().calls, 0b1111);
    play(&mut d, "call:D");
    assert_eq!(legal(&d), "QH");
    play(&mut d, "QH");
    assert_eq!(legal(&d), "KD");
    play(&mut d, "KD AC 9C");
    assert!(d.is_over());
    assert_eq!(d.tricks_won(), [5, 0, 0, 0, 0]);
}

#[test]
fn joker_1989_playable_any_time_and_loses() {
    let mut d = deal(
        Preset::MiniMisere5_1989.ruleset(),
        4,
        &[
            "9S TS AH KH QH",
            "JK AS KS QS JS",
            "JH TH 9H AD KD",
            "QD JD TD 9D AC",
            "KC QC JC TC 9C",
        ],
    );
    play(&mut d, "pass pass pass pass pass | 9S");
    assert_eq!(legal(&d), "AS KS QS JS JK");
    play(&mut d, "JK JH AC KC");
    // The joker lost even to the 9 led.
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn lot_current_timing_declared_with_first_card() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    assert!(d.legal_actions().lot);
    assert_eq!(why(&d, "pass"), PlayError::PassNotAllowed);
    play(&mut d, "lot");
    // The declarer now plays its card; it cannot declare twice.
    assert!(!d.legal_actions().lot);
    assert_eq!(d.to_act(), 0);
    assert!(matches!(why(&d, "lot"), PlayError::LotNotAllowed(_)));
    assert_eq!(legal(&d), "2S AH KH QH JH TH");
    play(&mut d, "2S");
    // The next seat has seen the lead and may still declare with its card.
    assert!(d.legal_actions().lot);
    play(&mut d, "AS KS QS");
    assert_eq!(d.tricks_completed(), 1);
    assert!(!d.legal_actions().lot);
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("it is declared only with a seat's card to the first trick")
    );
    assert_eq!(d.lot().declarers, 0b0001);
}

#[test]
fn lot_current_several_seats_may_declare() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "lot 2S lot AS KS lot QS");
    assert_eq!(d.lot().declarers, 0b1011);
}

#[test]
fn lot_1989_asked_in_turn_first_lot_ends_asking() {
    let r = Preset::MiniMisere4_1989.ruleset();
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(r, 1, &one_suit);
    assert_eq!((d.phase(), d.to_act()), (Phase::LotQuestion, 2));
    assert_eq!(d.legal_actions().len(), 2);
    assert_eq!(why(&d, "AD"), PlayError::MustAnswerLot);
    play(&mut d, "pass");
    assert_eq!(d.to_act(), 3);
    play(&mut d, "lot");
    // Seat 3's Lot ends the asking: seats 0 and 1 are not asked, seat 2 leads.
    assert_eq!((d.phase(), d.to_act()), (Phase::Play, 2));
    assert_eq!(d.lot().declarers, 0b1000);
    assert!(!d.legal_actions().lot);
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("it is declared before the first lead, when asked")
    );
    assert_eq!(why(&d, "pass"), PlayError::PassNotAllowed);
    assert_eq!(legal(&d), "AD KD QD JD TD 9D 2D");
}

#[test]
fn lot_1989_all_pass_no_lot() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(&mut d, "pass pass pass pass");
    assert_eq!(d.phase(), Phase::LotQuestion);
    play(&mut d, "pass");
    assert_eq!((d.phase(), d.to_act()), (Phase::Play, 0));
    assert_eq!(d.lot().declarers, 0);
    assert_eq!(legal(&d), "AS KS QS JS JK");
    autoplay(&mut d);
    assert_eq!(score_deal(&d).1, ScoreRule::TrickTable);
}

#[test]
fn lot_timing_option_before_lead_on_current_rules() {
    let r = rules("mini-misere-4", &[("lot_timing", json!("before-lead"))]);
    assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
    let mut d = deal(r, 3, &LED2);
    assert_eq!(d.phase(), Phase::LotQuestion);
    play(&mut d, "pass lot");
    assert_eq!(
        (d.phase(), d.to_act(), d.lot().declarers),
        (Phase::Play, 0, 0b0010)
    );
    let r = rules("mini-misere-4-1989", &[("lot_timing", json!("first-card"))]);
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let d = deal(r, 3, &one_suit);
    assert_eq!(d.phase(), Phase::Play);
    assert!(d.legal_actions().lot);
}

#[test]
fn failed_lot_ends_deal_when_every_declarer_has_lost_a_trick() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H");
    // Seat 1 has lost this trick already, but the trick must complete; seat 2 may still declare.
    assert!(!d.is_over());
    assert!(d.legal_actions().lot);
    play(&mut d, "lot 2D 2C");
    assert!(d.is_over());
    assert_eq!(d.tricks_completed(), 1);
    assert!(!d.all_tricks_played());
    assert!(d.legal_actions().is_empty());
    assert_eq!(why(&d, "KS"), PlayError::DealOver);
    // The 1989 timing: the declarer loses the first trick and the deal ends there.
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(Preset::MiniMisere4_1989.ruleset(), 3, &one_suit);
    play(&mut d, "pass pass lot | 2S 2H 2D");
    assert!(!d.is_over());
    play(&mut d, "2C");
    assert!(d.is_over());
    assert_eq!(d.tricks_completed(), 1);
}

#[test]
fn lot_deal_continues_while_a_declarer_is_unbeaten() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "lot AS lot 2H 2D 2C");
    assert!(!d.is_over());
    assert_eq!(d.lot().failed, 0b0010);
    autoplay(&mut d);
    assert!(d.all_tricks_played());
    assert_eq!(score_deal(&d), (vec![12, 0, 0, 0], ScoreRule::LotSucceeded));
}

#[test]
fn lot_success_scores_only_declarer() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "lot");
    autoplay(&mut d);
    assert_eq!(d.tricks_won(), [6, 0, 0, 0]);
    assert_eq!(score_deal(&d), (vec![12, 0, 0, 0], ScoreRule::LotSucceeded));
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(Preset::MiniMisere4_1989.ruleset(), 2, &one_suit);
    play(&mut d, "lot");
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![0, 0, 0, 14], ScoreRule::LotSucceeded));
}

#[test]
fn lot_fail_scores_non_declarers() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H 2D 2C");
    assert_eq!(score_deal(&d), (vec![6, 0, 6, 6], ScoreRule::LotFailed));
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H lot 2D 2C");
    assert_eq!(score_deal(&d), (vec![6, 0, 0, 6], ScoreRule::LotFailed));
}

#[test]
fn lot_points_per_ruleset() {
    let lot = |p: Preset| p.ruleset().lot.map(|l| (l.timing, l.success, l.fail));
    assert_eq!(
        lot(Preset::MiniMisere4),
        Some((LotTiming::FirstCard, 12, 6))
    );
    assert_eq!(
        lot(Preset::MiniMisere4_1989),
        Some((LotTiming::BeforeLead, 14, 7))
    );
    assert_eq!(
        lot(Preset::MiniMisere5),
        Some((LotTiming::FirstCard, 10, 5))
    );
    assert_eq!(
        lot(Preset::MiniMisere5_1989),
        Some((LotTiming::BeforeLead, 10, 5))
    );
    // Scored from facts: success for the declarer, fail for every non-declarer.
    let r = Preset::MiniMisere5_1989.ruleset();
    let mut f = facts(&[0; 5], &[1, 1, 1, 1, 1]);
    f.lot = Some(torite_core::LotResult {
        declarers: 0b00100,
        winner: None,
    });
    assert_eq!(r.score(&f, &[], None).unwrap().scores[..5], [5, 5, 0, 5, 5]);
    let r = Preset::MiniMisere4_1989.ruleset();
    let mut f = facts(&[0; 4], &[0, 7, 0, 0]);
    f.lot = Some(torite_core::LotResult {
        declarers: 0b0010,
        winner: Some(1),
    });
    assert_eq!(r.score(&f, &[], None).unwrap().scores[..4], [0, 14, 0, 0]);
}

#[test]
fn trick_table_mini_misere_4() {
    let r = Preset::MiniMisere4.ruleset();
    assert_eq!(
        score(&r, &[0; 4], &[0, 1, 2, 3]),
        (vec![6, 1, 2, 3], ScoreRule::TrickTable)
    );
    assert_eq!(score(&r, &[0; 4], &[4, 2, 0, 0]).0, [8, 2, 6, 6]);
    assert_eq!(score(&r, &[0; 4], &[5, 1, 0, 0]).0, [10, 1, 6, 6]);
    assert_eq!(score(&r, &[0; 4], &[6, 0, 0, 0]).0, [0, 6, 6, 6]);
    let mut d = deal(r, 3, &MM4_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![0, 6, 6, 6], ScoreRule::TrickTable));
}

#[test]
fn trick_table_mini_misere_4_1989() {
    let r = Preset::MiniMisere4_1989.ruleset();
    assert_eq!(score(&r, &[0; 4], &[0, 1, 2, 4]).0, [7, 1, 2, 8]);
    assert_eq!(score(&r, &[0; 4], &[3, 4, 0, 0]).0, [3, 8, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[5, 2, 0, 0]).0, [10, 2, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[6, 1, 0, 0]).0, [12, 1, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[7, 0, 0, 0]).0, [0, 7, 7, 7]);
}

#[test]
fn trick_table_mini_misere_5() {
    for p in [Preset::MiniMisere5, Preset::MiniMisere5_1989] {
        let r = p.ruleset();
        assert_eq!(
            score(&r, &[0; 5], &[0, 1, 2, 2, 0]).0,
            [5, 1, 2, 2, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[3, 2, 0, 0, 0]).0,
            [6, 2, 5, 5, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[4, 1, 0, 0, 0]).0,
            [8, 1, 5, 5, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[5, 0, 0, 0, 0]).0,
            [0, 5, 5, 5, 5],
            "{p}"
        );
    }
}

#[test]
fn mini_misere_targets() {
    let target = |p: Preset| p.ruleset().end;
    for (p, points) in [
        (Preset::MiniMisere4, 25),
        (Preset::MiniMisere4_1989, 31),
        (Preset::MiniMisere5, 25),
        (Preset::MiniMisere5_1989, 25),
    ] {
        assert!(
            matches!(target(p), GameEnd::Target { points: t, .. } if t == points),
            "{p}"
        );
    }
}

#[test]
fn mini_misere_game_ends_at_target_with_unique_highest_and_plays_on_when_shared() {
    // Every deal the leader takes all six tricks (0 points) and the others none (6 each).
    let mut game = Game::new(Preset::MiniMisere4.ruleset(), 0).unwrap();
    let mut totals = Vec::new();
    for _ in 0..6 {
        game_deal(&mut game, &MM4_ONE_SUIT, "");
        totals.push(game.totals().to_vec());
    }
    assert_eq!(totals[4], [24, 18, 24, 24]);
    // Deal 6 reaches 30 but seats 0 and 3 share the highest total: play on.
    assert_eq!(totals[5], [30, 24, 24, 30]);
    assert!(!game.is_finished());
    assert!(game.winners().is_empty());
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert_eq!(game.totals(), [36, 30, 30, 30]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0]);
    assert_eq!(
        game.start_deal(&hands(&MM4_ONE_SUIT)).unwrap_err(),
        GameError::GameOver
    );
}

// ---------------------------------------------------------------------------------------------
// 1.7 Three and six players
// ---------------------------------------------------------------------------------------------

/// Six seats of one suit's worth each: seat s holds cards of suit s % 4 where it can.
const MM6: [&str; 6] = [
    "AS KS QS JS TS 9S",
    "AH KH QH JH TH 9H",
    "AD KD QD JD TD 9D",
    "AC KC QC JC TC 9C",
    "8S 7S 2S 8H 7H 2H",
    "8D 7D 2D 8C 7C 2C",
];

/// Three-player hands (dealer 2, so seat 0 leads): seat 2 holds the joker and no spade or
/// heart.
const MM3: [&str; 3] = [
    "AS KS QS JS TS AH KH",
    "QH JH TH AD KD QD JD",
    "JK TD AC KC QC JC TC",
];

#[test]
fn mini_misere_6_deck_is_36_cards_six_each() {
    let r = Preset::MiniMisere6.ruleset();
    assert_eq!(r.players, 6);
    assert_eq!(r.deck().len(), 36);
    assert_eq!(r.tricks(), 6);
    let deck = r.deck().to_string();
    for rank in ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '2'] {
        assert_eq!(deck.matches(rank).count(), 4, "{rank} in {deck}");
    }
    assert!(!r.deck().contains(Card::JOKER));
    assert_eq!(
        r.lot.map(|l| (l.timing, l.success, l.fail)),
        Some((LotTiming::FirstCard, 12, 6))
    );
    assert!(matches!(r.end, GameEnd::Target { points: 25, .. }));
}

#[test]
fn mini_misere_6_led_two_beats_its_suit_and_lot_is_declared_with_the_first_card() {
    let r = Preset::MiniMisere6.ruleset();
    let mut d = deal(r, 3, &MM6);
    // Seat 4 leads: it may declare with its card.
    assert_eq!(d.to_act(), 4);
    assert!(d.legal_actions().lot);
    play(&mut d, "lot 2S 8D AS AH AD AC");
    assert_eq!(winner_of_last_trick(&d), 4, "the led 2 beats the ace");
    assert!(
        !d.legal_actions().lot,
        "only with a card to the first trick"
    );
}

#[test]
fn mini_misere_6_trick_table_is_the_four_player_one() {
    let r = Preset::MiniMisere6.ruleset();
    assert_eq!(
        score(&r, &[0; 6], &[0, 1, 2, 3, 0, 0]).0,
        [6, 1, 2, 3, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[4, 2, 0, 0, 0, 0]).0,
        [8, 2, 6, 6, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[5, 1, 0, 0, 0, 0]).0,
        [10, 1, 6, 6, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[6, 0, 0, 0, 0, 0]).0,
        [0, 6, 6, 6, 6, 6]
    );
}

#[test]
fn mini_misere_3_deck_is_21_cards_with_the_joker_and_no_lot() {
    let r = Preset::MiniMisere3.ruleset();
    assert_eq!((r.players, r.deck().len(), r.tricks()), (3, 21, 7));
    assert!(r.deck().contains(Card::JOKER));
    assert_eq!(r.low_card, None);
    assert!(r.lot.is_none());
    assert!(matches!(r.end, GameEnd::Target { points: 31, .. }));
    let d = deal(r, 2, &MM3);
    assert!(!d.legal_actions().lot, "no Lot in the three-player game");
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("this game has no Lot")
    );
}

#[test]
fn mini_misere_3_trick_table() {
    let r = Preset::MiniMisere3.ruleset();
    assert_eq!(score(&r, &[0; 3], &[0, 1, 6]).0, [7, 1, 12]);
    assert_eq!(score(&r, &[0; 3], &[2, 2, 3]).0, [2, 2, 3]);
    assert_eq!(score(&r, &[0; 3], &[4, 3, 0]).0, [8, 3, 7]);
    assert_eq!(score(&r, &[0; 3], &[5, 2, 0]).0, [10, 2, 7]);
    assert_eq!(score(&r, &[0; 3], &[7, 0, 0]).0, [0, 7, 7]);
}

#[test]
fn three_player_joker_led_wins_and_frees_the_others() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 1, &MM3);
    assert_eq!(d.to_act(), 2);
    play(&mut d, "JK");
    assert_eq!(legal(&d), MM3[0].parse::<CardSet>().unwrap().to_string());
    play(&mut d, "AH QH");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.phase(), Phase::Play, "a led joker needs no saying");
}

#[test]
fn three_player_joker_not_led_only_when_void() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 1, &MM3);
    // Seat 2 leads a diamond; seat 0 has none, seat 1 must follow.
    play(&mut d, "TD KH");
    assert_eq!(legal(&d), "AD KD QD JD");
    // Seat 2 holds clubs: it may not play the joker to a club lead.
    let mut d = deal(Preset::MiniMisere3.ruleset(), 0, &MM3);
    play(&mut d, "QD");
    assert_eq!(
        why(&d, "JK"),
        PlayError::JokerOnlyWhenVoid {
            led: Suit::Diamonds
        }
    );
}

#[test]
fn three_player_joker_played_second_loses() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 0, &MM3);
    // Seat 1 leads the queen of hearts; seat 2, void in hearts, plays the joker second.
    play(&mut d, "QH JK");
    assert_eq!(d.phase(), Phase::Play, "no saying for the second card");
    assert_eq!(legal(&d), "AH KH");
    play(&mut d, "KH");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn three_player_joker_played_last_its_player_says_win_or_lose() {
    let r = Preset::MiniMisere3.ruleset();
    // Seat 0 leads the ace of spades; seats 1 and 2 are void; seat 2 plays the joker last.
    let mut d = deal(r, 2, &MM3);
    play(&mut d, "AS QH JK");
    assert_eq!(d.phase(), Phase::SayJoker);
    assert_eq!(d.to_act(), 2, "the joker's player says");
    assert_eq!(d.tricks_completed(), 0, "the trick waits for the saying");
    let said: Vec<String> = d.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(said, ["joker:win", "joker:lose"]);
    assert_eq!(why(&d, "AC"), PlayError::MustSayJoker);
    let mut won = d.clone();
    play(&mut won, "joker:win");
    assert_eq!(winner_of_last_trick(&won), 2);
    assert_eq!(won.to_act(), 2, "the winner leads the next trick");
    let mut lost = d;
    play(&mut lost, "JOKER:LOSE");
    assert_eq!(
        winner_of_last_trick(&lost),
        0,
        "the highest card of the led suit"
    );
    assert_eq!(lost.to_act(), 0);
    // Saying is only for the joker just played last.
    let d = deal(r, 2, &MM3);
    assert_eq!(why(&d, "joker:win"), PlayError::NoJokerSayExpected);
}

#[test]
fn three_player_joker_saying_comes_even_in_the_last_trick() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 2, &MM3);
    // Seat 0 wins five spade tricks while the others throw; seat 2 keeps the joker.
    play(
        &mut d,
        "AS QH TC | KS JH JC | QS TH QC | JS JD KC | TS QD AC",
    );
    assert_eq!(d.tricks_completed(), 5);
    play(&mut d, "AH AD TD | KH KD JK");
    assert_eq!(d.phase(), Phase::SayJoker);
    assert!(!d.is_over(), "the deal waits for the saying");
    play(&mut d, "joker:win");
    assert!(d.is_over());
    assert_eq!(d.tricks_won()[..3], [6, 0, 1]);
}

#[test]
fn three_and_six_player_options_refused() {
    for (base, option, value) in [
        ("mini-misere-6", "low_card", json!(9)),
        ("mini-misere-6", "low_card", json!(2)),
        ("mini-misere-3", "low_card", json!(9)),
        ("mini-misere-3", "lot_timing", json!("before-lead")),
        ("mini-misere-3", "lot_timing", json!("first-card")),
        ("mini-misere-3", "led_low_wins", json!(true)),
    ] {
        let msg = refused(base, &[(option, value.clone())]);
        assert!(
            msg.contains(&format!("option {option} does not apply")),
            "{base} {option}: {msg}"
        );
    }
    // What applies still does.
    let r = rules(
        "mini-misere-6",
        &[
            ("lot_timing", json!("before-lead")),
            ("led_low_wins", json!(false)),
        ],
    );
    assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
    assert!(!r.led_low_wins);
    let r = rules("mini-misere-3", &[("target", json!(25))]);
    assert!(matches!(r.end, GameEnd::Target { points: 25, .. }));
}

// ---------------------------------------------------------------------------------------------
// 2. The Jass family: ranks, points, trump, following
// ---------------------------------------------------------------------------------------------

/// Jass deal A (three players, dealer 2): seat 1 is void in spades and holds hearts.
const JASS_A: [&str; 3] = [
    "AS KS QS JS TS AD KD QD JD TD AC KC",
    "AH KH QH TH 8H 6H 9D 8D 7D 6D QC JC",
    "9S 8S 7S 6S JH 9H 7H TC 9C 8C 7C 6C",
];
/// Jass deal B (dealer 2): seats 1 and 2 are void in diamonds; seat 2's trumps are J and 6.
const JASS_B: [&str; 3] = [
    "AD KD QD JD TD 9D 8D 7D 6D AS KS QS",
    "AH KH QH TH 9H 8H 7H JS TS 9S 8S 7S",
    "JH 6H AC KC QC JC TC 9C 8C 7C 6C 6S",
];
/// Jass deal C (dealer 2): hearts are led first, then made trump in the second trick.
const JASS_C: [&str; 3] = [
    "AH AS KS QS JS TS 9S 8S 7S 6S AD KD",
    "JH 6H 7H 8H QD JD TD 9D AC KC QC JC",
    "9H KH QH TH 8D 7D 6D TC 9C 8C 7C 6C",
];

#[test]
fn jass_rank_orders_plain_and_trump() {
    let r = Preset::MittlereJass.ruleset();
    let order = |suit: &str, trump: Trump| {
        let mut cards: Vec<Card> = r
            .deck()
            .iter()
            .filter(|c| c.to_string().ends_with(suit))
            .collect();
        cards.sort_by_key(|c| std::cmp::Reverse(r.strength(*c, c.suit(), trump, false)));
        cards
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(order("S", Trump::None), "AS KS QS JS TS 9S 8S 7S 6S");
    assert_eq!(
        order("H", Trump::Suit(Suit::Hearts)),
        "JH 9H AH KH QH TH 8H 7H 6H"
    );
    assert_eq!(
        order("S", Trump::Suit(Suit::Hearts)),
        "AS KS QS JS TS 9S 8S 7S 6S"
    );
    // In play: the trump 9 beats the trump 10, and the trump Jack beats the ace.
    let mut d = deal(r, 2, &JASS_A);
    play(&mut d, "AS TH 9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    let mut d = deal(r, 2, &JASS_B);
    play(&mut d, "6D 9H 6H | KH JH AS");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn jass_trick_won_by_highest_trump_else_highest_of_led_suit() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH");
    assert_eq!(d.winning(), Some(1));
    play(&mut d, "9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    // The lowest trump beats the king of the led suit.
    play(&mut d, "6C KC 6H");
    assert_eq!(winner_of_last_trick(&d), 1);
    // No trump in the trick: the highest card of the led suit.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    play(&mut d, "AH JH 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn jass_card_points_table() {
    // Deal C: the first trick AH JH 9H is worth 13 with no trump; the 5 of the last trick and
    // the trump values are checked in the tests below.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    play(&mut d, "AH JH 9H");
    assert_eq!(points(&d), [13, 0, 0]);
    // Deal A: seat 2 takes AS TH(trump 10) 9H(trump 14) = 35.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H");
    assert_eq!(points(&d), [0, 0, 35]);
    play(&mut d, "6C KC 6H | AH 7H TD");
    assert_eq!(points(&d), [0, 4 + 11 + 10, 35]);
}

#[test]
fn jass_points_total_157() {
    for hands in [JASS_A, JASS_B, JASS_C] {
        let mut d = deal(Preset::MittlereJass.ruleset(), 2, &hands);
        autoplay(&mut d);
        assert!(matches!(d.trump(), Trump::Suit(_)));
        assert_eq!(points(&d).iter().sum::<u32>(), 157, "{hands:?}");
    }
    // Four players, hand-played: the leader takes 75, the seat opposite 82, the others nothing.
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &SPLIT);
    play(&mut d, SPLIT_PLAY);
    assert_eq!(d.trump(), Trump::Suit(Suit::Diamonds));
    assert_eq!(points(&d), [75, 0, 82, 0]);
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &ROUT);
    play(&mut d, ROUT_PLAY);
    assert_eq!(points(&d), [48, 0, 109, 0]);
}

#[test]
fn jass_last_trick_scores_five() {
    // X and Y capture cards of the same value (two whole suits each); Y wins the last trick.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(points(&d), [76, 81, 0]);
    // In the hand-played four-player deal: the last trick QD 8H QH JH is 3 + 3 + 2, plus 5.
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &SPLIT);
    let (before, last) = SPLIT_PLAY.rsplit_once('|').unwrap();
    play(&mut d, before);
    let c = d.card_points(2);
    play(&mut d, last);
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.card_points(2), c + 8 + 5);
}

#[test]
fn eights_worth_eight_when_no_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(d.trump(), Trump::None);
    // Each seat took two whole suits: A 11 + K 4 + Q 3 + J 2 + T 10 + 8 8 = 38 a suit.
    assert_eq!(points(&d), [2 * 38, 2 * 38 + 5, 0]);
    assert_eq!(points(&d).iter().sum::<u32>(), 157);
    // Once trump exists the 8s are worth nothing (deal B sets hearts trump at once).
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H 6H");
    autoplay(&mut d);
    assert_eq!(points(&d).iter().sum::<u32>(), 157);
}

#[test]
fn jass_before_trump_must_follow_else_any_card() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH 8H 7H 6H");
    assert_eq!(why(&d, "QD"), PlayError::MustFollow { led: Suit::Hearts });
    play(&mut d, "JH 9H");
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "8H 7H 6H QD JD TD 9D AC KC QC JC");
}

#[test]
fn jass_trump_set_by_first_discard_including_its_own_trick() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS");
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "TH");
    // Hearts are trump at once, within this trick: seat 2 may trump in although it holds
    // spades, but not under the 10 that set trump.
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(legal(&d), "9S 8S 7S 6S JH 9H");
    assert_eq!(why(&d, "7H"), PlayError::Undertrump { over: card("TH") });
    play(&mut d, "9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    // The trump stays for the rest of the deal: a later discard of another suit sets nothing.
    play(&mut d, "6C KC 6H | AH 7H TD");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
}

#[test]
fn trump_card_captured_before_trump_set_counts_as_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    // Won by the plain ace: the jack and nine were plain cards when played.
    play(&mut d, "AH JH 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
    assert_eq!(d.card_points(0), 11 + 2);
    play(&mut d, "AS 6H 6D");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(winner_of_last_trick(&d), 1);
    // Counted with the final trump: J 20, 9 14.
    assert_eq!(d.card_points(0), 11 + 20 + 14);
    assert_eq!(d.card_points(1), 11);
}

#[test]
fn jass_follow_or_trump_without_undertrumping() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H | 6C");
    // Seat 0 holds clubs and no trump.
    assert_eq!(legal(&d), "AC KC");
    play(&mut d, "KC");
    // Seat 1 may follow or play any trump (no trump in the trick yet), not a plain diamond.
    assert_eq!(legal(&d), "AH KH QH 8H 6H QC JC");
    assert_eq!(why(&d, "9D"), PlayError::MustFollow { led: Suit::Clubs });
    play(&mut d, "6H");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn jass_no_undertrump_only_when_able_to_follow() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H");
    // Seat 2 cannot follow diamonds: any card, its lower trump 6H included.
    assert_eq!(legal(&d), "6S JH 6H AC KC QC JC TC 9C 8C 7C 6C");
    play(&mut d, "6H");
    assert_eq!(winner_of_last_trick(&d), 1);
    // Seat 2 in deal A could follow spades, so there it may not undertrump.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH");
    assert!(!d.is_legal(act("7H")));
}

#[test]
fn jass_trump_led_must_be_followed_with_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H | 6C KC 6H | AH");
    // Any trump, not necessarily a higher one.
    assert_eq!(legal(&d), "JH 7H");
    assert_eq!(
        why(&d, "6S"),
        PlayError::MustPlayTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "7H");
    // Seat 0 holds no trump: any card.
    assert_eq!(legal(&d), "KS QS JS TS AD KD QD JD TD AC");
}

#[test]
fn jass_trump_jack_exception() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H 6H | AH");
    // Seat 2's only trump is the Jack: it may play it or any other card.
    assert_eq!(legal(&d), "6S JH AC KC QC JC TC 9C 8C 7C 6C");
    play(&mut d, "6C AS");
    assert_eq!(winner_of_last_trick(&d), 1);
    // With the Jack and another trump the seat must play a trump.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9S | AH");
    assert_eq!(legal(&d), "JH 9H 7H");
}

// ---------------------------------------------------------------------------------------------
// 2.4 Mittlere Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn mittlere_1_all_tricks() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[157, 0, 0], &[12, 0, 0]),
        (vec![2, -1, -1], ScoreRule::AllTricks)
    );
    assert_eq!(score(&r, &[0, 0, 157], &[0, 0, 12]).0, [-1, -1, 2]);
}

#[test]
fn mittlere_2_no_trick() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![1, 1, -2], ScoreRule::NoTrick)
    );
    // Before the 100-point rule.
    assert_eq!(
        score(&r, &[0, 120, 37], &[0, 8, 4]),
        (vec![-2, 1, 1], ScoreRule::NoTrick)
    );
    let mut d = deal(r, 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 1, -2], ScoreRule::NoTrick));
}

#[test]
fn mittlere_3_hundred_points() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[30, 110, 17], &[2, 8, 2]),
        (vec![1, -2, 1], ScoreRule::Hundred)
    );
    assert_eq!(score(&r, &[100, 30, 27], &[6, 3, 3]).0, [-2, 1, 1]);
    // Before the equal-points rule.
    assert_eq!(
        score(&r, &[101, 28, 28], &[6, 3, 3]),
        (vec![-2, 1, 1], ScoreRule::Hundred)
    );
}

#[test]
fn mittlere_4_two_equal() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[60, 60, 37], &[4, 4, 4]),
        (vec![-1, -1, 2], ScoreRule::TwoEqual)
    );
    assert_eq!(
        score(&r, &[40, 77, 40], &[4, 4, 4]),
        (vec![-1, 2, -1], ScoreRule::TwoEqual)
    );
}

#[test]
fn mittlere_5_highest_and_lowest_win_middle_loses() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[50, 80, 27], &[4, 5, 3]),
        (vec![-2, 1, 1], ScoreRule::HighestAndLowest)
    );
    assert_eq!(score(&r, &[99, 1, 57], &[7, 1, 4]).0, [1, 1, -2]);
}

#[test]
fn jass_games_are_twelve_deals() {
    for p in [
        Preset::MittlereJass,
        Preset::MolotowJass,
        Preset::Middler,
        Preset::MiddlerJoker,
    ] {
        assert_eq!(p.ruleset().end, GameEnd::Deals(12), "{p}");
    }
    let mut game = Game::new(Preset::MittlereJass.ruleset(), 2).unwrap();
    for _ in 0..11 {
        game_deal(&mut game, &[X, Y, Z], "");
    }
    assert!(!game.is_finished());
    game_deal(&mut game, &[X, Y, Z], "");
    assert!(game.is_finished());
    assert_eq!(game.totals(), [12, 12, -24]);
    assert_eq!(game.winners(), [0, 1]);
    // Molotow: each deal the seat after the leader takes all 157 points (+3, others −1).
    let mut game = Game::new(Preset::MolotowJass.ruleset(), 0).unwrap();
    for _ in 0..12 {
        assert!(!game.is_finished());
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert!(game.is_finished());
    assert_eq!(game.totals(), [0, 0, 0, 0]);
    assert_eq!(game.winners(), [0, 1, 2, 3]);
    // Any other number of deals can be chosen.
    let r = rules("mittlere-jass", &[("deals", json!(24))]);
    assert_eq!(r.end, GameEnd::Deals(24));
}

// ---------------------------------------------------------------------------------------------
// 2.5 Molotow Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn molotow_1_all_points() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]),
        (vec![-1, 3, -1, -1], ScoreRule::AllPoints)
    );
    // Without every trick: seat 3 won a trick worth nothing.
    assert_eq!(
        score(&r, &[0, 157, 0, 0], &[0, 8, 0, 1]),
        (vec![-1, 3, -1, -1], ScoreRule::AllPoints)
    );
    let mut d = deal(r, 0, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![-1, -1, 3, -1], ScoreRule::AllPoints));
}

#[test]
fn molotow_2_hundred() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[30, 20, 100, 7], &[2, 2, 4, 1]),
        (vec![1, 1, -3, 1], ScoreRule::Hundred)
    );
    let mut d = deal(r, 3, &ROUT);
    play(&mut d, ROUT_PLAY);
    assert_eq!(score_deal(&d), (vec![1, 1, -3, 1], ScoreRule::Hundred));
}

#[test]
fn molotow_3_three_equal_draw() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    assert_eq!(r.draw_needed(&f), Some(0b1101));
    let s = r.score(&f, &[], Some(2)).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.rule),
        (vec![0, 1, -1, 0], ScoreRule::ThreeEqual)
    );
    let s = r.score(&f, &[], Some(0)).unwrap();
    assert_eq!(s.scores[..4], [-1, 1, 0, 0]);
    // Three equal at the bottom.
    let f = facts(&[7, 50, 50, 50], &[1, 3, 3, 2]);
    assert_eq!(
        r.score(&f, &[], Some(3)).unwrap().scores[..4],
        [1, 0, 0, -1]
    );
    assert_eq!(
        r.draw_needed(&facts(&[70, 40, 30, 17], &[3, 2, 2, 2])),
        None
    );
}

#[test]
fn molotow_3_missing_draw_is_an_error() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    let err = r.score(&f, &[], None).unwrap_err();
    assert_eq!(err, ScoreError::NeedsDraw { tied: 0b1101 });
    assert!(err.to_string().contains("seats 0, 2, 3"), "{err}");
}

#[test]
fn molotow_3_bad_draw_is_an_error() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    assert_eq!(
        r.score(&f, &[], Some(1)).unwrap_err(),
        ScoreError::BadDraw {
            seat: 1,
            tied: 0b1101
        }
    );
    assert_eq!(
        r.score(&f, &[], Some(7)).unwrap_err(),
        ScoreError::BadDraw {
            seat: 7,
            tied: 0b1101
        }
    );
}

#[test]
fn molotow_4_two_lowest_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[20, 80, 37, 20], &[2, 4, 2, 1]),
        (vec![0, 1, -1, 0], ScoreRule::TwoLowestEqual)
    );
}

#[test]
fn molotow_5_two_highest_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[60, 7, 60, 30], &[3, 1, 3, 2]),
        (vec![0, 1, 0, -1], ScoreRule::TwoHighestEqual)
    );
}

#[test]
fn molotow_6_two_middle_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[30, 80, 30, 17], &[2, 4, 2, 1]),
        (vec![-1, 1, -1, 1], ScoreRule::TwoMiddleEqual)
    );
}

#[test]
fn molotow_7_all_differ() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[40, 70, 17, 30], &[2, 4, 1, 2]),
        (vec![-1, 1, 1, -1], ScoreRule::AllDiffer)
    );
    // No penalty for taking no trick: the trickless lowest seat still scores +1.
    assert_eq!(
        score(&r, &[70, 40, 30, 17], &[5, 2, 2, 0]).0,
        [1, -1, -1, 1]
    );
}

#[test]
fn molotow_middle_wins_option() {
    let r = rules("molotow-jass", &[("molotow_middle_wins", json!(true))]);
    assert_eq!(
        score(&r, &[40, 70, 17, 30], &[2, 4, 1, 2]),
        (vec![1, -1, -1, 1], ScoreRule::AllDiffer)
    );
    assert_eq!(
        score(&r, &[30, 80, 30, 17], &[2, 4, 2, 1]),
        (vec![1, -1, 1, -1], ScoreRule::TwoMiddleEqual)
    );
    // Rules 1 to 5 keep their signs.
    assert_eq!(score(&r, &[20, 80, 37, 20], &[2, 4, 2, 1]).0, [0, 1, -1, 0]);
    assert_eq!(score(&r, &[60, 7, 60, 30], &[3, 1, 3, 2]).0, [0, 1, 0, -1]);
    assert_eq!(score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]).0, [-1, 3, -1, -1]);
    let r = rules("molotow-jass", &[("molotow_middle_wins", json!(false))]);
    assert!(r.is_preset());
}

// ---------------------------------------------------------------------------------------------
// 2.6 Plus-Minus Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn plus_minus_1_all_but_one_equal_3_players() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[50, 57, 50], &[4, 4, 4]),
        (vec![0, 2, 0], ScoreRule::AllButOneEqual)
    );
    // Rule 1 comes first: [0, 0, 157] gives the 157 seat 2 despite its 100 points.
    assert_eq!(
        score(&r, &[0, 0, 157], &[0, 0, 12]),
        (vec![0, 0, 2], ScoreRule::AllButOneEqual)
    );
}

#[test]
fn plus_minus_1_all_but_one_equal_4_players() {
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[40, 40, 37, 40], &[2, 2, 3, 2]),
        (vec![0, 0, 2, 0], ScoreRule::AllButOneEqual)
    );
    assert_eq!(score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]).0, [0, 2, 0, 0]);
    let mut d = deal(r, 1, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(
        score_deal(&d),
        (vec![0, 0, 0, 2], ScoreRule::AllButOneEqual)
    );
}

#[test]
fn plus_minus_2_highest_and_lowest_3_players() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![0, 1, 1], ScoreRule::PlusMinus)
    );
    let mut d = deal(r, 2, &[Z, X, Y]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 0, 1], ScoreRule::PlusMinus));
}

#[test]
fn plus_minus_2_highest_and_lowest_4_players() {
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[50, 7, 60, 40], &[3, 1, 3, 2]),
        (vec![0, 1, 1, 0], ScoreRule::PlusMinus)
    );
}

#[test]
fn plus_minus_2_hundred_does_not_score_only_lowest() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[40, 110, 7], &[3, 8, 1]),
        (vec![0, 0, 1], ScoreRule::PlusMinus)
    );
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[100, 30, 20, 7], &[5, 2, 1, 1]),
        (vec![0, 0, 0, 1], ScoreRule::PlusMinus)
    );
}

#[test]
fn plus_minus_shared_highest_or_lowest_is_held_over() {
    let r = Preset::PlusMinusJass4.ruleset();
    let f = facts(&[60, 60, 30, 7], &[3, 3, 2, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 0, 1], [0b0011, 0])
    );
    let f = facts(&[80, 57, 10, 10], &[4, 3, 1, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![1, 0, 0, 0], [0, 0b1100])
    );
    // A 100+ top does not score and the shared bottom is held: nobody scores now.
    let f = facts(&[117, 20, 10, 10], &[6, 1, 1, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 0, 0], [0, 0b1100])
    );
    // Played: the two trickless seats share the lowest (0).
    let mut d = deal(r, 3, &SPLIT);
    play(&mut d, SPLIT_PLAY);
    let s = r.score(&DealFacts::of(&d), &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 1, 0], [0, 0b1010])
    );
}

#[test]
fn held_point_paid_in_first_later_deal_where_exactly_one_of_pair_scores() {
    let mut game = Game::new(Preset::PlusMinusJass4.ruleset(), 3).unwrap();
    // Deal 1 (leader 0): seats 1 and 3 share the lowest; the 109 top does not score.
    let r = game_deal(&mut game, &ROUT, ROUT_PLAY);
    assert_eq!(
        (r.facts.points[..4].to_vec(), r.score.scores[..4].to_vec()),
        (vec![48, 0, 109, 0], vec![0; 4])
    );
    assert_eq!(game.held(), [0b1010]);
    // Deal 2 (leader 1): only seat 2 scores, neither of the pair: still held.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 0, 2, 0]);
    assert_eq!(game.held(), [0b1010]);
    // Deal 3 (leader 2): seat 3 alone of the pair scores, and gets the held point too.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 0, 0, 3]);
    assert!(game.held().is_empty());
    assert_eq!(game.totals(), [0, 0, 2, 3]);
}

#[test]
fn held_points_several_outstanding_each_paid_on_its_own() {
    let mut game = Game::new(Preset::PlusMinusJass4.ruleset(), 3).unwrap();
    game_deal(&mut game, &rotate(&ROUT, 0), ROUT_PLAY);
    game_deal(&mut game, &rotate(&ROUT, 1), ROUT_PLAY);
    game_deal(&mut game, &rotate(&ROUT, 2), ROUT_PLAY);
    assert_eq!(game.totals(), [0, 0, 0, 0]);
    assert_eq!(game.held(), [0b1010, 0b0101, 0b1010]);
    // Leader 3: seat 0 scores 2 and the {0, 2} point.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [3, 0, 0, 0]);
    assert_eq!(game.held(), [0b1010, 0b1010]);
    // Leader 0: seat 1 scores 2 and both {1, 3} points.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 4, 0, 0]);
    assert!(game.held().is_empty());
    assert_eq!(game.totals(), [3, 4, 0, 0]);
}

#[test]
fn held_points_lost_at_game_end() {
    let r = rules("plus-minus-jass-4", &[("target", json!(2))]);
    let mut game = Game::new(r, 3).unwrap();
    game_deal(&mut game, &ROUT, ROUT_PLAY);
    assert_eq!(game.held(), [0b1010]);
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert!(game.is_finished());
    assert_eq!(game.winners(), [2]);
    // The point held for seats 1 and 3 was never paid, and cannot be any more.
    assert_eq!(game.totals(), [0, 0, 2, 0]);
    assert_eq!(
        game.start_deal(&hands(&SWISS_ONE_SUIT)).unwrap_err(),
        GameError::GameOver
    );
}

#[test]
fn plus_minus_game_ends_at_7_and_plays_on_while_tied() {
    for p in [Preset::PlusMinusJass3, Preset::PlusMinusJass4] {
        assert!(
            matches!(p.ruleset().end, GameEnd::Target { points: 7, .. }),
            "{p}"
        );
    }
    // Each deal the Y seat (81 points) and the Z seat (0) score one each.
    let mut game = Game::new(Preset::PlusMinusJass3.ruleset(), 0).unwrap();
    for _ in 0..6 {
        game_deal(&mut game, &[Y, Z, X], "");
    }
    assert_eq!(game.totals(), [6, 6, 0]);
    assert!(!game.is_finished());
    game_deal(&mut game, &[Y, Z, X], "");
    // Both reach 7 together: one more deal.
    assert_eq!(game.totals(), [7, 7, 0]);
    assert!(!game.is_finished());
    game_deal(&mut game, &[Y, X, Z], "");
    assert_eq!(game.totals(), [8, 7, 1]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0]);
}

// ---------------------------------------------------------------------------------------------
// 2.7 Middler
// ---------------------------------------------------------------------------------------------

/// Middler deal (dealer 2): seat 2 is void in spades, seats 0 and 1 in diamonds; seat 2's
/// trumps will be the Jack and the 6.
const MIDDLER: [&str; 3] = [
    "KS QS JS AH KH QH TH 9H TC 9C 8C 7C",
    "AS TS 9S 8S 7S 6S 8H 7H AC KC QC JC",
    "JH 6H AD KD QD JD TD 9D 8D 7D 6D 6C",
];

#[test]
fn middler_must_beat_when_able_even_before_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS");
    assert_eq!(d.trump(), Trump::None);
    assert_eq!(legal(&d), "AS");
    assert_eq!(why(&d, "6S"), PlayError::MustBeat { best: card("KS") });
    // Mittlere has no such duty.
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS");
    assert_eq!(legal(&m), "AS TS 9S 8S 7S 6S");
    // Once trump exists: follow and beat when able, otherwise any card of the suit.
    play(&mut d, "AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert_eq!(legal(&d), "TC 9C 8C 7C");
    play(&mut d, "7C");
    assert_eq!(legal(&d), "AC KC QC JC");
    play(&mut d, "AC | TS 6D");
    assert_eq!(legal(&d), "QS JS");
}

#[test]
fn middler_before_trump_void_plays_any_card_and_sets_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS");
    assert_eq!(legal(&d), "JH 6H AD KD QD JD TD 9D 8D 7D 6D 6C");
    play(&mut d, "6H");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn middler_void_must_trump_when_able_any_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD");
    assert_eq!(legal(&d), "AH KH QH TH 9H");
    assert_eq!(
        why(&d, "QS"),
        PlayError::MustTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "9H");
    // No duty to overtrump: seat 1 must trump although both its trumps are lower.
    assert_eq!(legal(&d), "8H 7H");
    assert_eq!(
        why(&d, "AC"),
        PlayError::MustTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "8H");
    assert_eq!(winner_of_last_trick(&d), 0);
    // Void with no trump left: any card.
    play(&mut d, "AH 7H JH | 6C 7C AC | TS");
    assert_eq!(legal(&d), "AD KD JD TD 9D 8D 7D 6D");
}

#[test]
fn middler_must_follow_not_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert_eq!(why(&d, "KH"), PlayError::MustFollow { led: Suit::Clubs });
    // Under the Jass rule seat 0 could trump instead of following.
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert!(m.is_legal(act("KH")));
}

#[test]
fn middler_no_trump_jack_exception() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H 8H | AH 7H");
    assert_eq!(legal(&d), "JH");
    assert_eq!(why(&d, "6C"), PlayError::MustFollow { led: Suit::Hearts });
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS AS 6H | QD 9H 8H | AH 7H");
    assert_eq!(legal(&m), "JH AD KD JD TD 9D 8D 7D 6D 6C");
}

#[test]
fn middler_follow_must_follow_option() {
    let r = rules("middler", &[("follow", json!("must-follow"))]);
    let mut d = deal(r, 2, &MIDDLER);
    play(&mut d, "KS");
    assert_eq!(legal(&d), "AS TS 9S 8S 7S 6S");
    play(&mut d, "6S 6H | QD");
    // Void: no obligation to trump.
    assert_eq!(legal(&d), "QS JS AH KH QH TH 9H TC 9C 8C 7C");
    play(&mut d, "TC");
    assert_eq!(legal(&d), "AS TS 9S 8S 7S 8H 7H AC KC QC JC");
    let r = rules("middler", &[("follow", json!("jass"))]);
    let mut d = deal(r, 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H");
    assert_eq!(legal(&d), "TS 9S 8S 7S 6S 8H 7H AC KC QC JC");
}

#[test]
fn middler_hundred_and_no_trick_rule() {
    let r = Preset::Middler.ruleset();
    assert_eq!(
        score(&r, &[110, 47, 0], &[8, 4, 0]),
        (vec![-1, 2, -1], ScoreRule::HundredAndNoTrick)
    );
    // Rule 1 still comes first; without a 100 seat the no-trick rule applies as in Mittlere.
    assert_eq!(
        score(&r, &[157, 0, 0], &[12, 0, 0]),
        (vec![2, -1, -1], ScoreRule::AllTricks)
    );
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![1, 1, -2], ScoreRule::NoTrick)
    );
    assert_eq!(
        score(&r, &[30, 110, 17], &[2, 8, 2]),
        (vec![1, -2, 1], ScoreRule::Hundred)
    );
    // Played: seat 0 takes three whole suits (114), seat 1 the clubs and the last trick (43).
    let xx = "AS KS QS AH KH QH AD KD QD JC TC 9C";
    let yy = "JS TS 9S JH TH 9H JD TD 9D AC KC QC";
    let mut d = deal(r, 2, &[xx, yy, Z]);
    autoplay(&mut d);
    assert_eq!(points(&d), [114, 43, 0]);
    assert_eq!(
        score_deal(&d),
        (vec![-1, 2, -1], ScoreRule::HundredAndNoTrick)
    );
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[xx, yy, Z]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 1, -2], ScoreRule::NoTrick));
}

#[test]
fn middler_game_is_twelve_deals() {
    let mut game = Game::new(Preset::Middler.ruleset(), 0).unwrap();
    for _ in 0..11 {
        game_deal(&mut game, &[X, Y, Z], "");
    }
    assert!(!game.is_finished());
    game_deal(&mut game, &[X, Y, Z], "");
    assert!(game.is_finished());
    assert_eq!(game.results().len(), 12);
}

// ---------------------------------------------------------------------------------------------
// 2.8 Middler with joker
// ---------------------------------------------------------------------------------------------

/// Middler with joker (dealer 2): seat 1 holds the joker and no spade.
const MJ1: [&str; 3] = [
    "AS KS QS JS QD JD TD 9D 8D 7D AC",
    "JK AH KH QH JH TH 9H 8H 7H AD KD",
    "TS 9S 8S 7S KC QC JC TC 9C 8C 7C",
];
/// Middler with joker (dealer 2): seat 2 holds the joker and no heart.
const MJ3: [&str; 3] = [
    "AS KS QS JS TS AD KD QD JD TD 9D",
    "AH KH QH JH TH 9H 8H 7H 8D 7D AC",
    "JK 9S 8S 7S KC QC JC TC 9C 8C 7C",
];

#[test]
fn middler_joker_deck_and_ranks() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(r.deck().len(), 33);
    assert_eq!(r.tricks(), 11);
    assert!(r.deck().contains(Card::JOKER));
    assert!(!r.deck().contains(card("6S")));
    // Every suit, trump included, ranks A K Q J T 9 8 7; the joker is above the trump ace.
    let trump = Trump::Suit(Suit::Hearts);
    let mut cards: Vec<Card> = r
        .deck()
        .iter()
        .filter(|c| c.suit() == Some(Suit::Hearts) || c.is_joker())
        .collect();
    cards.sort_by_key(|c| std::cmp::Reverse(r.strength(*c, Some(Suit::Hearts), trump, false)));
    let order: Vec<String> = cards.iter().map(ToString::to_string).collect();
    assert_eq!(order.join(" "), "JK AH KH QH JH TH 9H 8H 7H");
}

#[test]
fn middler_joker_is_highest_trump_worth_one() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ3);
    play(&mut d, "AS 7H");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    // The joker is a trump now, so it may not be played on a spade lead by a seat with spades.
    assert_eq!(legal(&d), "9S 8S 7S");
    assert_eq!(why(&d, "JK"), PlayError::MustFollow { led: Suit::Spades });
    play(&mut d, "7S | AH");
    // It belongs to the trump suit: a seat whose only trump is the joker must play it.
    assert_eq!(legal(&d), "JK");
    play(&mut d, "JK 9D");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.card_points(2), 11 + 1);
}

#[test]
fn middler_joker_led_after_trump_exists_calls_for_trump() {
    let mj4 = [
        "AS KS QS JS TS AD KD QD JD TD 9D",
        "AH KH QH JH TH 9H 8H 7H 8D 7D 7C",
        "JK 9S 8S 7S AC KC QC JC TC 9C 8C",
    ];
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &mj4);
    play(&mut d, "AS 7H 7S | 7C AC TD | JK");
    // Once hearts are trump the joker is a heart: led, it calls for trumps.
    assert_eq!(d.led(), Some(Suit::Hearts));
    assert_eq!(legal(&d), "KS QS JS TS AD KD QD JD 9D");
    play(&mut d, "9D");
    assert_eq!(legal(&d), "AH KH QH JH TH 9H 8H");
    play(&mut d, "AH");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
}

#[test]
fn middler_joker_seat_void_in_trump_cannot_hold_the_joker() {
    let hands = [
        "AS KS QS JS TS AD KD QD JD TD 9D",
        "AH KH QH JH TH 8H 7H 8D 7D 7C 8C",
        "JK 9H 9S 8S 7S AC KC QC JC TC 9C",
    ];
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &hands);
    play(&mut d, "AS 7H 7S | AH 9H 9D");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    // Seat 0 did not follow a trump lead, so it holds no trump, and the joker is a trump: as
    // far as seat 1 can tell, only seat 2 may hold it.
    let view = View::new(&d, 1);
    assert!(!view.possible(0).contains(card("JK")));
    assert!(view.possible(2).contains(card("JK")));
    // Its other unseen cards stay possible.
    assert!(view.possible(0).contains(card("KS")));
}

#[test]
fn middler_joker_plain_must_follow() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ3);
    play(&mut d, "AS 7H 7S | AH JK 9D | KC AD");
    // Seat 1 holds a club and trumps: it must follow, it may not trump.
    assert_eq!(legal(&d), "AC");
    assert_eq!(why(&d, "8H"), PlayError::MustFollow { led: Suit::Clubs });
    play(&mut d, "AC");
    assert_eq!(winner_of_last_trick(&d), 1);
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(r.follow, torite_core::FollowRule::MustFollow);
}

#[test]
fn middler_joker_played_before_trump_makes_joker_only_trump() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ1);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "AH KH QH JH TH 9H 8H 7H AD KD JK");
    play(&mut d, "JK");
    assert_eq!(d.trump(), Trump::JokerOnly);
    assert_eq!(d.trump().to_string(), "JK");
    play(&mut d, "7S");
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(d.card_points(1), 11 + 1);
    // Later cards that do not follow set nothing, and do not win.
    play(&mut d, "AH KC AC");
    assert_eq!(d.trump(), Trump::JokerOnly);
    assert_eq!(winner_of_last_trick(&d), 1);
    autoplay(&mut d);
    assert_eq!(d.trump(), Trump::JokerOnly);
}

#[test]
fn middler_joker_led_before_trump_wins_others_free_set_no_trump() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 0, &MJ1);
    assert_eq!(d.to_act(), 1);
    play(&mut d, "JK");
    assert_eq!(d.led(), None);
    assert_eq!(legal(&d), "TS 9S 8S 7S KC QC JC TC 9C 8C 7C");
    play(&mut d, "KC");
    assert_eq!(legal(&d), "AS KS QS JS QD JD TD 9D 8D 7D AC");
    play(&mut d, "AS");
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(d.trump(), Trump::JokerOnly);
}

#[test]
fn middler_joker_121_points_no_last_trick_bonus() {
    // 120 in the four suits plus 1 for the joker, whether the joker or a suit is trump: no
    // last-trick bonus, and the 8s are worth nothing even in a deal with no trump suit.
    for (dealer, hands, trump) in [
        (2, MJ1, Trump::JokerOnly),
        (0, MJ1, Trump::JokerOnly),
        (2, MJ3, Trump::Suit(Suit::Hearts)),
    ] {
        let mut d = deal(Preset::MiddlerJoker.ruleset(), dealer, &hands);
        autoplay(&mut d);
        assert_eq!(d.trump(), trump);
        assert_eq!(points(&d).iter().sum::<u32>(), 121, "{hands:?}");
    }
    assert_eq!(Preset::MiddlerJoker.ruleset().last_trick_bonus, 0);
}

#[test]
fn middler_joker_own_points_scoring() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(
        score(&r, &[40, 70, 11], &[3, 6, 2]),
        (vec![0, 70, 11], ScoreRule::OwnPoints)
    );
    // No penalty for many points or no trick.
    assert_eq!(
        score(&r, &[0, 110, 11], &[0, 9, 2]),
        (vec![0, 110, 0], ScoreRule::OwnPoints)
    );
}

#[test]
fn middler_joker_two_equal_only_third_scores() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(
        score(&r, &[50, 21, 50], &[4, 2, 5]),
        (vec![0, 21, 0], ScoreRule::OwnPointsTwoEqual)
    );
    assert_eq!(
        score(&r, &[30, 61, 30], &[3, 5, 3]),
        (vec![0, 61, 0], ScoreRule::OwnPointsTwoEqual)
    );
}

#[test]
fn middler_joker_accepts_only_must_follow() {
    assert!(refused("middler-joker", &[("follow", json!("jass"))]).contains("follow"));
    assert!(refused("middler-joker", &[("follow", json!("handjass"))]).contains("follow"));
    assert!(rules("middler-joker", &[("follow", json!("must-follow"))]).is_preset());
}

// ---------------------------------------------------------------------------------------------
// 3. Mura
// ---------------------------------------------------------------------------------------------

/// Mura, four players, dealer 3.
const MURA: [&str; 4] = [
    "AS 6S 7S 8S AH 6H 7H 8H 6D",
    "9S KH TH 9H 7D 8D 9D TD JD",
    "TS QH QD KD AD 6C 7C 8C 9C",
    "KS QS JS JH TC JC QC KC AC",
];

#[test]
fn mura_deck_and_hands() {
    let r = Preset::Mura4.ruleset();
    assert_eq!((r.deck().len(), r.players, r.tricks()), (36, 4, 9));
    let r = Preset::Mura3.ruleset();
    assert_eq!((r.deck().len(), r.players, r.tricks()), (36, 3, 12));
    assert_eq!(r.trump, torite_core::TrumpRule::NoTrump);
}

#[test]
fn mura_rank_order_ten_nine_ace() {
    let r = Preset::Mura4.ruleset();
    let mut spades: Vec<Card> = r.deck().of_suit(Suit::Spades).iter().collect();
    spades
        .sort_by_key(|c| std::cmp::Reverse(r.strength(*c, Some(Suit::Spades), Trump::None, false)));
    let order: Vec<String> = spades.iter().map(ToString::to_string).collect();
    assert_eq!(order.join(" "), "TS 9S AS KS QS JS 8S 7S 6S");
    let mut d = deal(r, 3, &MURA);
    play(&mut d, "AS 9S");
    assert_eq!(d.winning(), Some(1));
    play(&mut d, "TS KS");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn mura_no_trump_must_follow() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "9S");
    play(&mut d, "9S TS");
    assert_eq!(legal(&d), "KS QS JS");
    play(&mut d, "KS | QH JH AH KH | 6D");
    // Seat 1 may follow only with diamonds; a void seat plays anything, which never wins.
    assert_eq!(legal(&d), "JD TD 9D 8D 7D");
    play(&mut d, "7D");
    assert_eq!(legal(&d), "AD KD QD");
    play(&mut d, "QD TC");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn mura_figures_worth_one_point_each() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS | QH JH AH KH | 6D 7D QD TC");
    // Seat 2 won the spade trick (AS, KS: the losing ace is one point) and QD.
    assert_eq!(points(&d), [5, 0, 3, 0]);
}

#[test]
fn mura_ace_worth_two_when_it_wins_its_trick() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS | QH JH AH KH");
    assert_eq!(winner_of_last_trick(&d), 0);
    // A 2 (it won its own trick) + K + Q + J.
    assert_eq!(d.card_points(0), 5);
}

#[test]
fn mura_ace_worth_one_to_winner_when_it_loses() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(points(&d), [0, 0, 2, 0]);
}

#[test]
fn mura_points_total_16_to_20() {
    // The leader takes every trick: 16 counters plus its own winning ace.
    let mut d = deal(Preset::Mura4.ruleset(), 3, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(points(&d), [17, 0, 0, 0]);
}

#[test]
fn mura_penalty_tricks_plus_one() {
    let r = Preset::Mura4.ruleset();
    assert_eq!(
        score(&r, &[3, 2, 1, 0], &[4, 3, 2, 0]),
        (vec![5, 4, 3, 1], ScoreRule::Penalty)
    );
    let mut d = deal(r, 3, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d).0, [0, 1, 1, 1]);
}

#[test]
fn mura_threshold_exemption() {
    let r = Preset::Mura4.ruleset();
    assert_eq!(score(&r, &[6, 3, 5, 2], &[4, 3, 2, 0]).0, [0, 4, 0, 1]);
    assert_eq!(score(&r, &[4, 3, 0, 0], &[5, 3, 1, 0]).0, [0, 4, 2, 1]);
    // The hard variant: threshold 6.
    let r = rules("mura-4", &[("threshold", json!(6))]);
    assert_eq!(score(&r, &[6, 3, 5, 2], &[4, 3, 2, 0]).0, [0, 4, 3, 1]);
    // Three players: 5.
    let r = Preset::Mura3.ruleset();
    assert_eq!(score(&r, &[4, 5, 8], &[5, 4, 3]).0, [6, 0, 0]);
}

#[test]
fn mura_bonus_at_7_takes_one_off_never_below_zero() {
    let r = rules("mura-4", &[("bonus_at", json!(7))]);
    let f = facts(&[8, 3, 5, 2], &[4, 3, 2, 0]);
    assert_eq!(
        r.score(&f, &[3, 0, 0, 0], None).unwrap().scores[..4],
        [-1, 4, 0, 1]
    );
    assert_eq!(
        r.score(&f, &[0, 0, 0, 0], None).unwrap().scores[..4],
        [0, 4, 0, 1]
    );
    let f = facts(&[7, 3, 5, 1], &[4, 3, 2, 0]);
    assert_eq!(
        r.score(&f, &[1, 2, 2, 2], None).unwrap().scores[..4],
        [-1, 4, 0, 1]
    );
    // Without the option, 7 points only exempt.
    let r = Preset::Mura4.ruleset();
    assert_eq!(
        r.score(&f, &[1, 2, 2, 2], None).unwrap().scores[..4],
        [0, 4, 0, 1]
    );
    // In a game the total stops at 0.
    let mut game = Game::new(rules("mura-4", &[("bonus_at", json!(7))]), 3).unwrap();
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 1, 1, 1]);
    let r = game_deal(&mut game, &rotate(&SWISS_ONE_SUIT, 1), "");
    assert_eq!(r.score.scores[..4], [1, -1, 1, 1]);
    assert_eq!(game.totals(), [1, 0, 2, 2]);
}

#[test]
fn mura_bonus_at_must_be_above_threshold() {
    let msg = refused("mura-4", &[("bonus_at", json!(4))]);
    assert!(
        msg.contains("bonus_at") && msg.contains("threshold"),
        "{msg}"
    );
    let msg = refused("mura-4", &[("threshold", json!(6)), ("bonus_at", json!(6))]);
    assert!(
        msg.contains("bonus_at (6) must be above threshold (6)"),
        "{msg}"
    );
    let r = rules("mura-4", &[("threshold", json!(6)), ("bonus_at", json!(7))]);
    assert_eq!(
        r.scoring,
        torite_core::Scoring::Mura {
            threshold: 6,
            bonus_at: Some(7)
        }
    );
    let r = rules("mura-4", &[("bonus_at", Value::Null)]);
    assert!(r.is_preset());
}

#[test]
fn mura_game_ends_at_10_fewest_wins() {
    // Each deal the leader takes everything and is exempt; the three others take 1 each.
    let mut game = Game::new(Preset::Mura4.ruleset(), 0).unwrap();
    for _ in 0..12 {
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert_eq!(game.totals(), [9, 9, 9, 9]);
    assert!(!game.is_finished());
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [10, 9, 10, 10]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [1]);
}

#[test]
fn mura_target_7_option() {
    let mut game = Game::new(rules("mura-4", &[("target", json!(7))]), 0).unwrap();
    for _ in 0..8 {
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert_eq!(game.totals(), [6, 6, 6, 6]);
    assert!(!game.is_finished());
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [7, 6, 7, 7]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [1]);
}

#[test]
fn mura_tied_fewest_share_the_win() {
    // No exemption: the leader takes 9 tricks, 10 penalty points, and ends the game.
    let mut game = Game::new(rules("mura-4", &[("threshold", json!(40))]), 0).unwrap();
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [1, 10, 1, 1]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0, 2, 3]);
}

// ---------------------------------------------------------------------------------------------
// 4. House rules and option names
// ---------------------------------------------------------------------------------------------

#[test]
fn deals_option_ends_game_with_shared_winners() {
    let mut game = Game::new(rules("mini-misere-4", &[("deals", json!(2))]), 0).unwrap();
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert!(!game.is_finished());
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert_eq!(game.totals(), [12, 6, 6, 12]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0, 3]);
    // Penalty games: the fewest share.
    let mut game = Game::new(rules("mura-4", &[("deals", json!(2))]), 0).unwrap();
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [2, 1, 1, 2]);
    assert_eq!(game.winners(), [1, 2]);
}

#[test]
fn every_ruleset_can_be_played_for_a_fixed_number_of_deals() {
    for p in Preset::ALL {
        let r = rules(p.id(), &[("deals", json!(5))]);
        assert_eq!(r.end, GameEnd::Deals(5), "{p}");
    }
}

#[test]
fn house_rules_start_from_a_preset() {
    let r = rules("mini-misere-4", &[("lot_timing", json!("before-lead"))]);
    assert_eq!(
        (r.players, r.lot.unwrap().success, r.lot.unwrap().timing),
        (4, 12, LotTiming::BeforeLead)
    );
    let r = rules("mura-4", &[("threshold", json!(6))]);
    assert_eq!(
        r.scoring,
        torite_core::Scoring::Mura {
            threshold: 6,
            bonus_at: None
        }
    );
    let r = rules(
        "mini-misere-5",
        &[("low_card", json!(9)), ("led_low_wins", json!(false))],
    );
    assert_eq!(
        (r.low_card, r.led_low_wins, r.deck().len()),
        (Some(Rank::NINE), false, 25)
    );
    let r = rules("plus-minus-jass-3", &[("target", json!(10))]);
    assert!(matches!(r.end, GameEnd::Target { points: 10, .. }));
    let r = rules("mittlere-jass", &[("follow", json!("handjass"))]);
    assert_eq!(r.follow, torite_core::FollowRule::Handjass);
}

#[test]
fn low_card_refused_for_1989_presets() {
    let msg = refused("mini-misere-4-1989", &[("low_card", json!(9))]);
    assert!(msg.contains("option low_card does not apply"), "{msg}");
    let msg = refused("mini-misere-5-1989", &[("low_card", json!(2))]);
    assert!(msg.contains("option low_card does not apply"), "{msg}");
    // Jass decks have no low card at all.
    assert!(refused("mittlere-jass", &[("low_card", json!(9))]).contains("low_card"));
    // Refused whatever the value (RULES.md 4), and not offered in their option lists.
    assert!(refused("mini-misere-4-1989", &[("low_card", json!(2))]).contains("low_card"));
    assert!(refused("mini-misere-5-1989", &[("low_card", json!(9))]).contains("low_card"));
    for base in ["mini-misere-4-1989", "mini-misere-5-1989"] {
        let preset = torite_core::Preset::from_id(base).unwrap().ruleset();
        assert!(preset.options().iter().all(|(name, _)| *name != "low_card"));
    }
}

#[test]
fn follow_jass_refused_for_mini_misere() {
    for base in [
        "mini-misere-4",
        "mini-misere-4-1989",
        "mini-misere-5",
        "mini-misere-5-1989",
        "mura-4",
        "mura-3",
    ] {
        for follow in ["jass", "handjass"] {
            let msg = refused(base, &[("follow", json!(follow))]);
            assert!(
                msg.contains("option follow does not apply"),
                "{base}: {msg}"
            );
        }
        assert_eq!(
            rules(base, &[("follow", json!("must-follow"))]),
            Preset::from_id(base).unwrap().ruleset()
        );
    }
}

#[test]
fn target_with_deals_refused() {
    let msg = refused(
        "mini-misere-4",
        &[("target", json!(30)), ("deals", json!(4))],
    );
    assert!(msg.contains("options target and deals conflict"), "{msg}");
    let msg = refused("mura-4", &[("deals", json!(4)), ("target", json!(7))]);
    assert!(msg.contains("target") && msg.contains("deals"), "{msg}");
}

#[test]
fn unknown_option_refused_by_name() {
    let err = Ruleset::from_options("mini-misere-4", [("colour", &json!(1))]).unwrap_err();
    assert_eq!(
        err.problems,
        [RulesetProblem::UnknownOption("colour".into())]
    );
    assert!(
        err.to_string().contains("unknown option \"colour\""),
        "{err}"
    );
    let err = Ruleset::from_options("mini-misere-7", []).unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown ruleset \"mini-misere-7\""),
        "{err}"
    );
}

#[test]
fn options_of_another_game_refused_by_name() {
    let cases = [
        ("mura-4", "molotow_middle_wins", json!(true)),
        ("mini-misere-4", "threshold", json!(6)),
        ("mittlere-jass", "lot_timing", json!("before-lead")),
        ("mittlere-jass", "target", json!(10)),
        ("molotow-jass", "bonus_at", json!(8)),
        ("mura-4", "led_low_wins", json!(true)),
        ("plus-minus-jass-4", "molotow_middle_wins", json!(true)),
    ];
    for (base, name, value) in cases {
        let msg = refused(base, &[(name, value)]);
        assert!(
            msg.contains(&format!("option {name} does not apply")),
            "{base} {name}: {msg}"
        );
    }
}

#[test]
fn bad_option_values_refused_by_name() {
    let cases = [
        ("mura-4", "threshold", json!("6")),
        ("mura-4", "bonus_at", json!(true)),
        ("mini-misere-4", "lot_timing", json!("never")),
        ("mini-misere-4", "low_card", json!(3)),
        ("mini-misere-4", "led_low_wins", json!("yes")),
        ("mittlere-jass", "follow", json!("strict")),
        ("molotow-jass", "molotow_middle_wins", json!(1)),
        ("mini-misere-4", "target", json!(-1)),
        ("mittlere-jass", "deals", json!(0)),
        ("mittlere-jass", "deals", json!(2.5)),
    ];
    for (base, name, value) in cases {
        let err = Ruleset::from_options(base, [(name, &value)]).unwrap_err();
        assert!(
            matches!(&err.problems[..], [RulesetProblem::BadValue { option, .. }] if *option == name),
            "{base} {name}: {err:?}"
        );
        assert!(
            err.to_string()
                .contains(&format!("option {name} = {value} is invalid")),
            "{err}"
        );
    }
}
