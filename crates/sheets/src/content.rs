//! The words of every sheet, generated from the ruleset's options.
//!
//! Everything here matches on the option enums of [`Ruleset`]; nothing looks at which preset
//! the rules came from, so a house rule prints its own rules. Every sentence comes from the
//! Fluent catalogs (`sheet-*` keys).

use torite_core::{
    Card, CardPoints, Direction, FollowRule, GameEnd, JokerRule, LotTiming, Rank, Ranking, Ruleset,
    Scoring, Suit, TieRule, Trump, TrumpRule,
};
use torite_i18n::present::strokes_and_circles;
use torite_i18n::{Catalog, Lang};

use crate::{Block, Body, Kind, Pad, Section, Sheet, Table, Tally, compare};

/// Deal rows of a score sheet for a game played to a target (its length is not known).
const TARGET_ROWS: usize = 20;

/// The catalog, with the shorthands the sheets use.
pub(crate) struct Words<'a> {
    pub(crate) catalog: &'a Catalog,
}

impl Words<'_> {
    pub(crate) fn t(&self, key: &str) -> String {
        self.catalog.get(key, &[])
    }

    pub(crate) fn n(&self, key: &str, numbers: &[(&str, i64)]) -> String {
        self.catalog.get_counted(key, &[], numbers)
    }

    pub(crate) fn a(&self, key: &str, args: &[(&str, String)], numbers: &[(&str, i64)]) -> String {
        self.catalog.get_counted(key, args, numbers)
    }

    /// Sentences joined as the language writes them.
    pub(crate) fn join(&self, sentences: &[String]) -> String {
        let sep = match self.catalog.lang() {
            Lang::Ja => "",
            _ => " ",
        };
        sentences
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join(sep)
    }
}

/// How a rank is printed on a sheet: `10` for the ten.
pub(crate) fn rank_text(rank: Rank) -> String {
    if rank == Rank::TEN {
        "10".to_owned()
    } else {
        rank.letter().to_string()
    }
}

pub(crate) fn order(ranking: Ranking, ranks: u16, sep: &str) -> String {
    ranking
        .order(ranks)
        .into_iter()
        .map(rank_text)
        .collect::<Vec<_>>()
        .join(sep)
}

fn has(rules: &Ruleset, rank: Rank) -> bool {
    rules.ranks & (1 << rank.index()) != 0
}

/// A card's Jass value (RULES.md 2.1) as core counts it, in a plain suit or in the trump suit.
fn jass_value(rules: &Ruleset, rank: Rank, trump: bool) -> u32 {
    let suit = Suit::Spades;
    let trump = if trump {
        Trump::Suit(suit)
    } else {
        Trump::None
    };
    rules.card_value(Card::new(suit, rank), trump)
}

/// The card points of a whole deal, as core counts them (the most, where the way the deal
/// ends changes the sum).
fn jass_total(rules: &Ruleset) -> u32 {
    rules.card_point_total().1
}

/// The options changed from the preset, each as its label and value in words.
fn house_rules(rules: &Ruleset, w: &Words) -> Option<String> {
    if rules.is_preset() {
        return None;
    }
    let options: Vec<String> = rules
        .overrides()
        .into_iter()
        .map(|(name, value)| {
            w.a(
                "sheet-house-option",
                &[
                    ("label", w.catalog.option_label(name)),
                    ("value", w.catalog.option_value(name, &value)),
                ],
                &[],
            )
        })
        .collect();
    let sep = match w.catalog.lang() {
        Lang::Ja => "／",
        _ => "; ",
    };
    Some(w.a("sheet-house-rules", &[("options", options.join(sep))], &[]))
}

pub(crate) fn build(rules: &Ruleset, kind: Kind, catalog: &Catalog) -> Sheet {
    let w = Words { catalog };
    let lang = catalog.lang();
    let mut title = catalog.preset_name(rules.base);
    let (kicker, body) = match kind {
        Kind::Rules => (
            w.t("sheet-kicker-rules"),
            Body::Rules(rule_sections(rules, &w)),
        ),
        Kind::Scores => (
            w.t("sheet-kicker-scores"),
            Body::Card(card_sections(rules, &w)),
        ),
        Kind::Scorepad => (
            w.t("sheet-kicker-scorepad"),
            Body::Pad(Box::new(pad(rules, &w))),
        ),
        Kind::Compare => {
            title = compare::title(rules, &w);
            (
                w.t("sheet-kicker-compare"),
                Body::Rules(compare::sections(rules, &w)),
            )
        }
    };
    Sheet {
        kind,
        lang,
        title,
        kicker,
        house_rules: house_rules(rules, &w),
        body,
        footer: footer(rules, &w),
    }
}

/// The small print: the preset, or for a house rule the preset it is based on, by its name in
/// the sheet's language (never an id or the interchange JSON).
fn footer(rules: &Ruleset, w: &Words) -> String {
    let base = w.catalog.preset_name(rules.base);
    if rules.is_preset() {
        w.a("sheet-footer", &[("ruleset", base)], &[])
    } else {
        w.a("sheet-footer-house", &[("base", base)], &[])
    }
}

pub(crate) fn para(text: String) -> Block {
    Block::Para(text)
}

pub(crate) fn section(heading: String, blocks: Vec<Block>) -> Section {
    Section { heading, blocks }
}

// ---------------------------------------------------------------------------------------------
// The rules sheet

fn rule_sections(rules: &Ruleset, w: &Words) -> Vec<Section> {
    let mut sections = vec![
        players_section(rules, w),
        ranks_section(rules, w),
        play_section(rules, w),
    ];
    if let Some(lot) = lot_section(rules, w) {
        sections.push(lot);
    }
    if let Some(points) = card_points_section(rules, w) {
        sections.push(points);
    }
    sections.push(scoring_section(rules, w));
    sections.push(section(
        w.t("sheet-sec-end"),
        vec![para(end_text(rules, w))],
    ));
    sections
}

fn players_section(rules: &Ruleset, w: &Words) -> Section {
    let ranks = order(rules.ranking, rules.ranks, " ");
    let deck_key = if rules.joker.is_some() {
        "sheet-deck-joker"
    } else {
        "sheet-deck"
    };
    let deck = w.a(
        deck_key,
        &[("ranks", ranks)],
        &[("count", rules.deck().len() as i64)],
    );
    let players = w.n("sheet-players", &[("players", i64::from(rules.players))]);
    let deal_key = match rules.direction {
        Direction::Clockwise => "sheet-deal-clockwise",
        Direction::CounterClockwise => "sheet-deal-counterclockwise",
    };
    let deal = w.n(deal_key, &[("count", rules.tricks() as i64)]);
    section(
        w.t("sheet-sec-players"),
        vec![para(w.join(&[players, deck])), para(deal)],
    )
}

fn trump_order(rules: &Ruleset, w: &Words, sep: &str) -> String {
    let mut order = order(rules.trump_ranking, rules.ranks, sep);
    if rules.joker == Some(JokerRule::HighestTrump) {
        order = format!("{}{sep}{order}", w.t("sheet-joker-name"));
    }
    order
}

fn ranks_section(rules: &Ruleset, w: &Words) -> Section {
    let mut blocks = vec![para(w.a(
        "sheet-rank-order",
        &[("order", order(rules.ranking, rules.ranks, " > "))],
        &[],
    ))];
    if rules.trump != TrumpRule::NoTrump {
        blocks.push(para(w.a(
            "sheet-rank-trump-order",
            &[("order", trump_order(rules, w, " > "))],
            &[],
        )));
    }
    if rules.ranking == Ranking::TenNineAce {
        blocks.push(para(w.t("sheet-rank-ten-nine")));
    }
    if let Some(low) = rules.low_card {
        let key = if rules.led_low_wins {
            "sheet-led-low-wins"
        } else {
            "sheet-low-no-power"
        };
        blocks.push(para(w.a(key, &[("low", rank_text(low))], &[])));
    }
    if let Some(key) = joker_key(rules) {
        blocks.push(para(w.t(key)));
    }
    section(w.t("sheet-sec-ranks"), blocks)
}

fn joker_key(rules: &Ruleset) -> Option<&'static str> {
    match rules.joker? {
        JokerRule::LeadWinsFreeFollow => Some("sheet-joker-free-follow"),
        JokerRule::LeadWinsNamesSuit => Some("sheet-joker-names-suit"),
        JokerRule::HighestTrump => Some("sheet-joker-highest-trump"),
        JokerRule::LastSays => Some("sheet-joker-last-says"),
        _ => None,
    }
}

pub(crate) fn play_section(rules: &Ruleset, w: &Words) -> Section {
    let mut blocks = Vec::new();
    let trump = rules.trump != TrumpRule::NoTrump;
    blocks.push(para(if trump {
        w.t("sheet-trump-first-off-suit")
    } else {
        w.t("sheet-no-trumps")
    }));
    match rules.follow {
        FollowRule::MustFollow => blocks.push(para(w.t("sheet-follow-must"))),
        FollowRule::Jass => {
            blocks.push(para(w.t("sheet-follow-jass-intro")));
            blocks.push(Block::List {
                numbered: true,
                items: (1..=4)
                    .map(|i| w.t(&format!("sheet-follow-jass-{i}")))
                    .collect(),
            });
        }
        FollowRule::Handjass => blocks.push(para(w.t("sheet-follow-handjass"))),
    }
    blocks.push(para(if trump {
        w.t("sheet-trick-winner-trump")
    } else {
        w.t("sheet-trick-winner-no-trump")
    }));
    section(w.t("sheet-sec-play"), blocks)
}

fn lot_section(rules: &Ruleset, w: &Words) -> Option<Section> {
    let lot = rules.lot?;
    let timing = match lot.timing {
        LotTiming::FirstCard => w.t("sheet-lot-first-card"),
        LotTiming::BeforeLead => w.t("sheet-lot-before-lead"),
    };
    Some(section(
        w.t("sheet-sec-lot"),
        vec![
            para(w.join(&[w.t("sheet-lot-intro"), timing])),
            Block::List {
                numbered: false,
                items: vec![
                    w.n("sheet-lot-success", &[("points", i64::from(lot.success))]),
                    w.n("sheet-lot-fail", &[("points", i64::from(lot.fail))]),
                ],
            },
            para(w.t(match lot.timing {
                LotTiming::FirstCard => "sheet-lot-ends",
                LotTiming::BeforeLead => "sheet-lot-ends-one",
            })),
        ],
    ))
}

/// The Jass card-points table: the ranks, then the points in plain suits and (when they
/// differ) in the trump suit.
fn jass_points_table(rules: &Ruleset, w: &Words, joker: u8) -> Table {
    let ranks = Ranking::AceHigh.order(rules.ranks);
    let mut head = vec![w.t("sheet-points-card")];
    head.extend(ranks.iter().map(|r| rank_text(*r)));
    let with_joker = rules.joker.is_some();
    if with_joker {
        head.push(w.t("sheet-joker-name"));
    }
    let row = |label: String, trump: bool| {
        let mut row = vec![label];
        row.extend(
            ranks
                .iter()
                .map(|r| jass_value(rules, *r, trump).to_string()),
        );
        if with_joker {
            row.push(if trump || rules.trump == TrumpRule::NoTrump {
                joker.to_string()
            } else {
                "–".to_owned()
            });
        }
        row
    };
    let differ = rules.trump != TrumpRule::NoTrump
        && ranks
            .iter()
            .any(|r| jass_value(rules, *r, false) != jass_value(rules, *r, true));
    let rows = if differ {
        vec![
            head,
            row(w.t("sheet-points-plain"), false),
            row(w.t("sheet-points-trump"), true),
        ]
    } else {
        vec![head, row(w.t("sheet-points-every-suit"), true)]
    };
    Table {
        rows,
        header_column: true,
    }
}

fn card_points_section(rules: &Ruleset, w: &Words) -> Option<Section> {
    let blocks = match rules.card_points {
        CardPoints::Jass {
            no_trump_eights,
            joker,
        } => {
            let mut blocks = vec![Block::Table(jass_points_table(rules, w, joker))];
            let mut notes = Vec::new();
            if rules.joker.is_some() {
                notes.push(w.n("sheet-points-joker", &[("points", i64::from(joker))]));
            }
            if rules.last_trick_bonus > 0 {
                notes.push(w.n(
                    "sheet-points-last-trick",
                    &[("points", i64::from(rules.last_trick_bonus))],
                ));
            }
            notes.push(w.n(
                "sheet-points-total",
                &[("total", i64::from(jass_total(rules)))],
            ));
            if no_trump_eights && has(rules, Rank::EIGHT) && rules.trump != TrumpRule::NoTrump {
                notes.push(w.t("sheet-points-eights"));
            }
            blocks.push(para(w.join(&notes)));
            blocks
        }
        CardPoints::Mura => vec![para(w.t("sheet-points-mura"))],
        _ => return None,
    };
    Some(section(w.t("sheet-sec-card-points"), blocks))
}

fn card_total(rules: &Ruleset) -> i64 {
    match rules.card_points {
        CardPoints::Jass { .. } => i64::from(jass_total(rules)),
        _ => 0,
    }
}

fn trick_table(points: &[i8; 8], tricks: usize, w: &Words) -> Table {
    let mut head = vec![w.t("sheet-tricks")];
    let mut row = vec![w.t("sheet-points")];
    for (t, p) in points.iter().enumerate().take(tricks + 1) {
        head.push(t.to_string());
        row.push(p.to_string());
    }
    Table {
        rows: vec![head, row],
        header_column: true,
    }
}

/// The scoring rules in the order they are tried.
fn scoring_rules(rules: &Ruleset, w: &Words, prefix: &str) -> Vec<String> {
    let k = |name: &str| format!("{prefix}{name}");
    let total = card_total(rules);
    match rules.scoring {
        Scoring::Mittlere {
            hundred_with_no_trick,
        } => {
            let mut out = vec![w.t(&k("mittlere-all-tricks"))];
            if hundred_with_no_trick {
                out.push(w.t(&k("mittlere-hundred-no-trick")));
            }
            out.extend([
                w.t(&k("mittlere-no-trick")),
                w.t(&k("mittlere-hundred")),
                w.t(&k("mittlere-two-equal")),
                w.t(&k("mittlere-else")),
            ]);
            out
        }
        Scoring::Molotow { middle_wins } => {
            let swap = if middle_wins { "-reversed" } else { "" };
            vec![
                w.n(&k("molotow-all-points"), &[("total", total)]),
                w.t(&k("molotow-hundred")),
                w.t(&k("molotow-three-equal")),
                w.t(&k("molotow-two-lowest")),
                w.t(&k("molotow-two-highest")),
                w.t(&k(&format!("molotow-two-middle{swap}"))),
                w.t(&k(&format!("molotow-all-differ{swap}"))),
            ]
        }
        Scoring::PlusMinus => vec![
            w.t(&k("plus-minus-all-but-one")),
            w.t(&k("plus-minus-else")),
        ],
        Scoring::OwnPoints => vec![w.t(&k("own-points")), w.t(&k("own-points-two-equal"))],
        _ => Vec::new(),
    }
}

fn scoring_section(rules: &Ruleset, w: &Words) -> Section {
    let mut blocks = Vec::new();
    let heading = if rules.scoring.is_penalty() {
        w.t("sheet-sec-penalty")
    } else {
        w.t("sheet-sec-scoring")
    };
    match rules.scoring {
        Scoring::TrickTable { points } => {
            let key = if rules.lot.is_some() {
                "sheet-trick-table-intro-lot"
            } else {
                "sheet-trick-table-intro"
            };
            blocks.push(para(w.t(key)));
            blocks.push(Block::Table(trick_table(&points, rules.tricks(), w)));
        }
        Scoring::Mittlere { .. } | Scoring::Molotow { .. } => {
            blocks.push(para(w.t("sheet-first-rule-applies")));
            blocks.push(Block::List {
                numbered: true,
                items: scoring_rules(rules, w, "sheet-"),
            });
            let mut notes = Vec::new();
            if matches!(rules.scoring, Scoring::Molotow { .. }) {
                notes.push(w.t("sheet-molotow-no-trick"));
            }
            notes.push(w.t("sheet-strokes"));
            blocks.push(para(w.join(&notes)));
        }
        Scoring::PlusMinus => {
            blocks.push(para(w.t("sheet-plus-minus-intro")));
            blocks.push(Block::List {
                numbered: true,
                items: scoring_rules(rules, w, "sheet-"),
            });
            if rules.players >= 4 {
                blocks.push(para(w.t("sheet-plus-minus-held")));
            }
        }
        Scoring::OwnPoints => {
            let mut text = scoring_rules(rules, w, "sheet-");
            text.push(w.t("sheet-own-points-no-penalty"));
            blocks.push(para(w.join(&text)));
        }
        Scoring::Mura {
            threshold,
            bonus_at,
        } => {
            let mut items = vec![
                w.t("sheet-mura-penalty"),
                w.n("sheet-mura-threshold", &[("points", i64::from(threshold))]),
            ];
            if let Some(bonus) = bonus_at {
                items.push(w.n("sheet-mura-bonus", &[("points", i64::from(bonus))]));
            }
            blocks.push(Block::List {
                numbered: false,
                items,
            });
        }
        _ => {}
    }
    section(heading, blocks)
}

fn end_text(rules: &Ruleset, w: &Words) -> String {
    let penalty = rules.scoring.is_penalty();
    match rules.end {
        GameEnd::Deals(n) => {
            let key = if penalty {
                "sheet-end-deals-penalty"
            } else {
                "sheet-end-deals"
            };
            w.n(key, &[("deals", i64::from(n))])
        }
        GameEnd::Target { points, tie } => {
            let key = if penalty {
                "sheet-end-target-penalty"
            } else {
                "sheet-end-target"
            };
            let tie = match (tie, penalty) {
                (TieRule::PlayOn, false) => "sheet-end-tie-play-on",
                (TieRule::Share, false) => "sheet-end-tie-share",
                (TieRule::PlayOn, true) => "sheet-end-tie-play-on-penalty",
                (TieRule::Share, true) => "sheet-end-tie-share-penalty",
            };
            w.join(&[w.n(key, &[("target", i64::from(points))]), w.t(tie)])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The score card

fn card_sections(rules: &Ruleset, w: &Words) -> Vec<Section> {
    let mut sections = Vec::new();
    match rules.scoring {
        Scoring::TrickTable { points } => {
            let mut rows = vec![vec![w.t("sheet-tricks"), w.t("sheet-points")]];
            for (t, p) in points.iter().enumerate().take(rules.tricks() + 1) {
                rows.push(vec![t.to_string(), p.to_string()]);
            }
            let heading = if rules.lot.is_some() {
                w.t("sheet-card-table-no-lot")
            } else {
                w.t("sheet-card-table")
            };
            sections.push(section(
                heading,
                vec![Block::Table(Table {
                    rows,
                    header_column: false,
                })],
            ));
        }
        Scoring::Mura {
            threshold,
            bonus_at,
        } => {
            let mut items = vec![
                w.t("sheet-card-mura-penalty"),
                w.n(
                    "sheet-card-mura-threshold",
                    &[("points", i64::from(threshold))],
                ),
            ];
            if let Some(bonus) = bonus_at {
                items.push(w.n("sheet-card-mura-bonus", &[("points", i64::from(bonus))]));
            }
            sections.push(section(
                w.t("sheet-sec-penalty"),
                vec![Block::List {
                    numbered: false,
                    items,
                }],
            ));
        }
        Scoring::OwnPoints => sections.push(section(
            w.t("sheet-sec-scoring"),
            vec![Block::List {
                numbered: false,
                items: scoring_rules(rules, w, "sheet-card-"),
            }],
        )),
        Scoring::PlusMinus => {
            let mut blocks = vec![Block::List {
                numbered: true,
                items: scoring_rules(rules, w, "sheet-card-"),
            }];
            if rules.players >= 4 {
                blocks.push(para(w.t("sheet-card-plus-minus-held")));
            }
            sections.push(section(w.t("sheet-card-first-rule"), blocks));
        }
        _ => {
            let mut blocks = vec![Block::List {
                numbered: true,
                items: scoring_rules(rules, w, "sheet-card-"),
            }];
            if strokes_and_circles(rules) {
                blocks.push(para(w.t("sheet-card-strokes")));
            }
            sections.push(section(w.t("sheet-card-first-rule"), blocks));
        }
    }
    if let Some(lot) = rules.lot {
        let when = match lot.timing {
            LotTiming::FirstCard => "sheet-card-lot-first-card",
            LotTiming::BeforeLead => "sheet-card-lot-before-lead",
        };
        let mut items = vec![
            w.n(
                "sheet-card-lot-success",
                &[("points", i64::from(lot.success))],
            ),
            w.n("sheet-card-lot-fail", &[("points", i64::from(lot.fail))]),
        ];
        match lot.timing {
            LotTiming::FirstCard => items.push(w.t("sheet-card-lot-several")),
            LotTiming::BeforeLead => items.push(w.t("sheet-card-lot-priority")),
        }
        sections.push(section(
            w.a("sheet-card-lot", &[("when", w.t(when))], &[]),
            vec![Block::List {
                numbered: false,
                items,
            }],
        ));
    }
    if let Some(points) = card_points_lines(rules, w) {
        sections.push(section(
            w.t("sheet-sec-card-points"),
            vec![Block::List {
                numbered: false,
                items: points,
            }],
        ));
    }
    // No-break spaces keep an order on one line of the narrow card.
    let mut reminders = vec![w.a(
        "sheet-card-rank-order",
        &[("order", order(rules.ranking, rules.ranks, "\u{a0}"))],
        &[],
    )];
    if rules.trump != TrumpRule::NoTrump {
        reminders.push(w.t("sheet-card-trump-set"));
        reminders.push(w.a(
            "sheet-card-trump",
            &[("order", trump_order(rules, w, "\u{a0}"))],
            &[],
        ));
    }
    if let Some(low) = rules.low_card
        && rules.led_low_wins
    {
        reminders.push(w.a("sheet-card-led-low", &[("low", rank_text(low))], &[]));
    }
    if let Some(key) = joker_key(rules) {
        reminders.push(w.t(&key.replace("sheet-", "sheet-card-")));
    }
    sections.push(section(
        w.t("sheet-sec-ranks"),
        vec![Block::List {
            numbered: false,
            items: reminders,
        }],
    ));
    sections.push(section(
        w.t("sheet-sec-end"),
        vec![para(card_end(rules, w))],
    ));
    sections
}

/// The card points as short lines: `A 11 · 10 10 · ...`.
fn card_points_lines(rules: &Ruleset, w: &Words) -> Option<Vec<String>> {
    match rules.card_points {
        CardPoints::Jass {
            joker,
            no_trump_eights,
        } => {
            let values = |trump: bool, only_changed: bool| {
                let ranking = if trump {
                    rules.trump_ranking
                } else {
                    rules.ranking
                };
                ranking
                    .order(rules.ranks)
                    .into_iter()
                    .filter(|r| {
                        let v = jass_value(rules, *r, trump);
                        v > 0 && (!only_changed || v != jass_value(rules, *r, false))
                    })
                    .map(|r| format!("{}={}", rank_text(r), jass_value(rules, r, trump)))
                    .collect::<Vec<_>>()
                    .join(" · ")
            };
            let mut lines = vec![values(false, false)];
            let trump = values(true, true);
            if rules.trump != TrumpRule::NoTrump && !trump.is_empty() {
                lines.push(w.a("sheet-card-points-trump", &[("values", trump)], &[]));
            }
            if rules.joker.is_some() {
                lines.push(w.n("sheet-card-points-joker", &[("points", i64::from(joker))]));
            }
            if rules.last_trick_bonus > 0 {
                lines.push(w.n(
                    "sheet-card-points-last-trick",
                    &[("points", i64::from(rules.last_trick_bonus))],
                ));
            }
            lines.push(w.n(
                "sheet-card-points-total",
                &[("total", i64::from(jass_total(rules)))],
            ));
            if no_trump_eights && has(rules, Rank::EIGHT) && rules.trump != TrumpRule::NoTrump {
                lines.push(w.t("sheet-card-points-eights"));
            }
            Some(lines)
        }
        CardPoints::Mura => Some(vec![
            w.t("sheet-card-points-mura-figures"),
            w.t("sheet-card-points-mura-ace"),
        ]),
        _ => None,
    }
}

fn card_end(rules: &Ruleset, w: &Words) -> String {
    let penalty = rules.scoring.is_penalty();
    match rules.end {
        GameEnd::Deals(n) => w.n("sheet-card-end-deals", &[("deals", i64::from(n))]),
        GameEnd::Target { points, tie } => {
            let key = match (penalty, tie) {
                (false, TieRule::PlayOn) => "sheet-card-end-target-play-on",
                (false, TieRule::Share) => "sheet-card-end-target-share",
                (true, TieRule::PlayOn) => "sheet-card-end-penalty-play-on",
                (true, TieRule::Share) => "sheet-card-end-penalty-share",
            };
            w.n(key, &[("target", i64::from(points))])
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The score sheet

fn pad(rules: &Ruleset, w: &Words) -> Pad {
    let col = |key: &str| w.t(key);
    let (columns, totals): (Vec<String>, Vec<(String, bool)>) = match rules.scoring {
        Scoring::TrickTable { .. } => (
            vec![col("sheet-pad-points"), col("sheet-pad-running")],
            vec![],
        ),
        Scoring::Mittlere { .. } | Scoring::Molotow { .. } => (
            vec![
                col("sheet-pad-card-points"),
                col("sheet-pad-strokes"),
                col("sheet-pad-circles"),
            ],
            vec![
                (col("sheet-pad-total"), false),
                (col("sheet-pad-net"), true),
            ],
        ),
        Scoring::PlusMinus => (
            vec![col("sheet-pad-card-points"), col("sheet-pad-strokes")],
            vec![(col("sheet-pad-total"), false)],
        ),
        Scoring::OwnPoints => (
            vec![col("sheet-pad-card-points"), col("sheet-pad-score")],
            vec![(col("sheet-pad-total"), false)],
        ),
        Scoring::Mura { .. } => (
            vec![col("sheet-pad-penalty"), col("sheet-pad-running")],
            vec![],
        ),
        _ => (vec![col("sheet-pad-points")], vec![]),
    };
    let rows = match rules.end {
        GameEnd::Deals(n) => n as usize,
        GameEnd::Target { .. } => TARGET_ROWS,
    };
    let mut hints = vec![card_end(rules, w)];
    match rules.scoring {
        Scoring::Mittlere { .. } | Scoring::Molotow { .. } => {
            hints.push(w.t("sheet-card-strokes"));
        }
        Scoring::PlusMinus if rules.players >= 4 => hints.push(w.t("sheet-pad-held")),
        Scoring::Mura {
            threshold,
            bonus_at,
        } => {
            let mut text = vec![
                w.t("sheet-card-mura-penalty"),
                w.n(
                    "sheet-card-mura-threshold",
                    &[("points", i64::from(threshold))],
                ),
            ];
            if let Some(bonus) = bonus_at {
                text.push(w.n("sheet-card-mura-bonus", &[("points", i64::from(bonus))]));
            }
            hints.push(text.join(" · "));
        }
        _ => {}
    }
    if let Some(lot) = rules.lot {
        hints.push(w.a(
            "sheet-pad-lot",
            &[],
            &[
                ("success", i64::from(lot.success)),
                ("fail", i64::from(lot.fail)),
            ],
        ));
    }
    let scoring = match rules.scoring {
        Scoring::Mittlere { .. }
        | Scoring::Molotow { .. }
        | Scoring::PlusMinus
        | Scoring::OwnPoints => {
            let numbered = !matches!(rules.scoring, Scoring::OwnPoints);
            let heading = if numbered {
                "sheet-card-first-rule"
            } else {
                "sheet-sec-scoring"
            };
            Some(section(
                w.t(heading),
                vec![Block::List {
                    numbered,
                    items: scoring_rules(rules, w, "sheet-"),
                }],
            ))
        }
        _ => None,
    };
    let tally = strokes_and_circles(rules).then(|| Tally {
        heading: col("sheet-pad-tally"),
        how: col("sheet-pad-tally-how"),
        plus: col("sheet-pad-tally-plus"),
        minus: col("sheet-pad-tally-minus"),
        zero: col("sheet-pad-tally-zero"),
    });
    Pad {
        filled: None,
        scoring,
        tally,
        deal: col("sheet-pad-deal"),
        players: (1..=i64::from(rules.players))
            .map(|n| w.n("sheet-pad-player", &[("n", n)]))
            .collect(),
        columns,
        notes: col("sheet-pad-notes"),
        rows,
        totals,
        fields: vec![col("sheet-pad-date"), col("sheet-pad-place")],
        hints,
    }
}

/// The cells of a kept game's score sheet, column by column as [`pad`] heads them.
pub(crate) fn fill(
    rules: &Ruleset,
    catalog: &Catalog,
    names: &[String],
    results: &[torite_core::DealResult],
    totals: &[(String, bool)],
) -> crate::Filled {
    let n = rules.players as usize;
    let marks = |score: i32| torite_i18n::present::tally(rules, [score]).unwrap_or_default();
    let name = |s: usize| names.get(s).cloned().unwrap_or_else(|| catalog.seat(s));
    let rows = results
        .iter()
        .map(|r| {
            let mut cells = Vec::new();
            for s in 0..n {
                let score = r.score.scores[s];
                let points = r.facts.points[s].to_string();
                match rules.scoring {
                    Scoring::Mittlere { .. } | Scoring::Molotow { .. } => {
                        cells.extend([points, marks(score.max(0)), marks(score.min(0))]);
                    }
                    Scoring::PlusMinus => cells.extend([points, marks(score.max(0))]),
                    Scoring::OwnPoints => cells.extend([points, score.to_string()]),
                    Scoring::TrickTable { .. } | Scoring::Mura { .. } => {
                        cells.extend([score.to_string(), r.totals[s].to_string()]);
                    }
                    _ => cells.push(score.to_string()),
                }
            }
            let mut notes = Vec::new();
            if let Some(lot) = r.facts.lot {
                let declarers: Vec<String> = (lot.declaring() & torite_core::SeatSet::all(n))
                    .iter()
                    .map(name)
                    .collect();
                let outcome = if lot.winner.is_some() { "✓" } else { "✗" };
                notes.push(format!("{} {outcome}", declarers.join(", ")));
            }
            if let Some(d) = r.draw {
                notes.push(format!("↑ {}", name(d)));
            }
            (cells, notes.join(" · "))
        })
        .collect();
    let columns = match rules.scoring {
        Scoring::Mittlere { .. } | Scoring::Molotow { .. } => 3,
        Scoring::PlusMinus
        | Scoring::OwnPoints
        | Scoring::TrickTable { .. }
        | Scoring::Mura { .. } => 2,
        _ => 1,
    };
    let last = results
        .last()
        .map_or([0; torite_core::MAX_SEATS], |r| r.totals);
    let sums =
        |s: usize, f: fn(i32) -> i32| -> i32 { results.iter().map(|r| f(r.score.scores[s])).sum() };
    let totals = totals
        .iter()
        .map(|(_, merged)| {
            if *merged {
                (0..n).map(|s| last[s].to_string()).collect()
            } else {
                (0..n)
                    .flat_map(|s| {
                        let mut cells = vec![String::new(); columns];
                        match rules.scoring {
                            Scoring::Mittlere { .. } | Scoring::Molotow { .. } => {
                                cells[1] = sums(s, |v| v.max(0)).to_string();
                                cells[2] = sums(s, |v| (-v).max(0)).to_string();
                            }
                            _ => cells[columns - 1] = last[s].to_string(),
                        }
                        cells
                    })
                    .collect()
            }
        })
        .collect();
    crate::Filled {
        names: names.to_vec(),
        rows,
        totals,
    }
}

#[cfg(test)]
mod kept_tests {
    use torite_core::{DealFacts, Game, Preset};
    use torite_i18n::Lang;

    use crate::{Body, Sheet};

    /// A kept Mura game's sheet: each deal's penalty and running total per player, the names
    /// above their columns, in the HTML.
    #[test]
    fn a_kept_game_is_written_into_the_score_sheet() {
        let rules = Preset::Mura4.ruleset();
        let mut game = Game::new(rules, 0).expect("a game");
        let mut facts = DealFacts {
            players: 4,
            ..DealFacts::default()
        };
        facts.tricks[..4].copy_from_slice(&[3, 2, 2, 2]);
        facts.points[..4].copy_from_slice(&[6, 5, 3, 2]);
        game.record_facts(facts, None).expect("scored");
        let names: Vec<String> = ["Aki", "Ben", "Chie", "Dan"].map(String::from).to_vec();
        let sheet = Sheet::kept(&rules, Lang::En, &names, game.results());
        let Body::Pad(pad) = &sheet.body else {
            panic!("a score sheet");
        };
        let filled = pad.filled.as_ref().expect("written in");
        // Aki and Ben exempt (4 points or more), Chie and Dan 2 tricks + 1.
        assert_eq!(
            filled.rows[0].0,
            ["0", "0", "0", "0", "3", "3", "3", "3"].map(String::from)
        );
        let html = sheet.html();
        assert!(
            html.contains("<strong class=\"kept-name\">Dan</strong>"),
            "{html}"
        );
        assert!(
            html.contains("<td class=\"first\">3</td><td>3</td>"),
            "{html}"
        );
        // A blank sheet has nothing written in.
        let blank = Sheet::new(&rules, crate::Kind::Scorepad, Lang::En);
        assert!(!blank.html().contains("kept-name"));
    }
}
