//! Player profiles without passwords: a display name and a secret key that the browser keeps
//! (`docs/PROTOCOL.md`, "Profiles").
//!
//! - A key is `{profile id}.{secret}`; the store keeps only the secret's SHA-256 digest, and a
//!   key is checked against it in constant time.
//! - A seat taken with a profile is kept with its token *sealed* by the key (the token XOR a
//!   pad derived from the key, the table and the seat): the store cannot give a seat to
//!   anyone but the key's holder, who opens the token on any device and so reclaims the seat
//!   through the table's own token mechanism.
//! - Once a game has ended, each profile seat's result is read from the table's events (who
//!   sat where, people or bots, every deal's score, the winners) and kept with the seat: the
//!   club statistics and the ranking ([`ranking`], Glicko-2 over games between people only)
//!   are computed from those results.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use subtle::ConstantTimeEq;

use crate::hub::Hub;
use crate::store::{ProfileStore, SeatRow, StoreError};
use crate::table::{Event, Occupant, TableState};

/// The most seats of one profile read for its games and statistics (the newest).
pub const MAX_SEATS_READ: i64 = 2000;

/// The most kept results a ranking reads: the newest, taken in the order they were played.
pub const MAX_RESULTS_READ: i64 = 20_000;

/// The most seats whose games are looked at for their results in one request.
const SETTLE_BATCH: i64 = 64;

/// The SHA-256 digest of `text`, in hex.
#[must_use]
pub fn digest(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// A profile key split into its profile id and secret, if it has the form of one.
#[must_use]
pub fn split_key(key: &str) -> Option<(&str, &str)> {
    let (id, secret) = key.split_once('.')?;
    let hexish = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hexish(id, 16) && hexish(secret, 32)).then_some((id, secret))
}

/// A new profile id and key.
#[must_use]
pub fn new_key() -> (String, String) {
    let id = crate::actor::new_token()[..16].to_owned();
    let key = format!("{id}.{}", crate::actor::new_token());
    (id, key)
}

/// Whether `secret` is the one whose digest is `stored`, compared in constant time.
#[must_use]
pub fn secret_matches(secret: &str, stored: &str) -> bool {
    digest(secret).as_bytes().ct_eq(stored.as_bytes()).into()
}

fn pad(key: &str, table: &str, seat: i64, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let mut block = 0_u32;
    while out.len() < len {
        let mut h = Sha256::new();
        h.update(b"torite seat\0");
        h.update(key.as_bytes());
        h.update(b"\0");
        h.update(table.as_bytes());
        h.update(b"\0");
        h.update(seat.to_string().as_bytes());
        h.update(block.to_be_bytes());
        out.extend_from_slice(&h.finalize());
        block += 1;
    }
    out.truncate(len);
    out
}

/// A seat token sealed with a profile key (hex): only that key opens it ([`open`]).
#[must_use]
pub fn seal(key: &str, table: &str, seat: i64, token: &str) -> String {
    let bytes = token.as_bytes();
    let pad = pad(key, table, seat, bytes.len());
    hex(&bytes
        .iter()
        .zip(pad)
        .map(|(b, p)| b ^ p)
        .collect::<Vec<u8>>())
}

/// The token a sealed one stands for, opened with the key it was sealed with.
#[must_use]
pub fn open(key: &str, table: &str, seat: i64, sealed: &str) -> Option<String> {
    let bytes = unhex(sealed)?;
    let pad = pad(key, table, seat, bytes.len());
    String::from_utf8(bytes.iter().zip(pad).map(|(b, p)| b ^ p).collect()).ok()
}

/// What is kept of a finished (or let go) game for one profile seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    /// Whether the game was played to its end (`false`: let go before, never finished).
    pub finished: bool,
    /// The preset the rules are based on.
    pub base: String,
    /// The seat.
    pub seat: usize,
    /// Whether the seat was still the profile's at the end (not given to a bot).
    pub kept: bool,
    /// Each seat at the end: `human`, `bot` or `empty`.
    pub kinds: Vec<String>,
    /// Each seat's name at the end.
    pub names: Vec<String>,
    /// Every deal's scores, by seat.
    pub scores: Vec<Vec<i32>>,
    /// The totals, by seat.
    pub totals: Vec<i32>,
    /// The winning seats.
    pub winners: Vec<usize>,
    /// Whether the fewest points win (penalty scoring).
    pub penalty: bool,
}

impl SeatResult {
    /// Whether the game counts for this seat's statistics: played to its end in the seat.
    #[must_use]
    pub fn counts(&self) -> bool {
        self.finished && self.kept
    }

    /// Whether every other seat was a person at the end.
    #[must_use]
    pub fn against_people(&self) -> bool {
        self.kinds
            .iter()
            .enumerate()
            .all(|(s, k)| s == self.seat || k == "human")
    }
}

/// The state a table's stored events replay to.
pub(crate) fn replayed(id: &str, events: &[String]) -> Option<TableState> {
    let first: Event = serde_json::from_str(events.first()?).ok()?;
    let mut state = TableState::new(id, &first).ok()?;
    for body in &events[1..] {
        let event: Event = serde_json::from_str(body).ok()?;
        state.apply(&event).ok()?;
    }
    Some(state)
}

/// The result of `row`'s seat in a game that has ended (`state`).
#[must_use]
pub fn result_of(state: &TableState, seat: usize, token_hash: &str) -> SeatResult {
    let game = state.game();
    let n = state.seats().len();
    let kinds = state
        .seats()
        .iter()
        .map(|o| match o {
            Occupant::Empty => "empty",
            Occupant::Human { .. } => "human",
            Occupant::Bot { .. } => "bot",
        })
        .map(str::to_owned)
        .collect();
    let kept = matches!(state.seats().get(seat), Some(Occupant::Human { token, .. }) if token == token_hash);
    SeatResult {
        finished: game.is_finished(),
        base: state.rules().base.id().to_owned(),
        seat,
        kept,
        kinds,
        names: (0..n).map(|s| state.name(s)).collect(),
        scores: game
            .results()
            .iter()
            .map(|r| r.score.scores[..n].to_vec())
            .collect(),
        totals: game
            .results()
            .last()
            .map_or_else(|| vec![0; n], |r| r.totals[..n].to_vec()),
        winners: game.winners().to_vec(),
        penalty: state.rules().scoring.is_penalty(),
    }
}

/// The store's profiles, or the refusal of a store that keeps none.
pub(crate) fn store_of(hub: &Hub) -> Result<&dyn ProfileStore, StoreError> {
    hub.store()
        .profiles()
        .ok_or_else(|| StoreError("this store cannot keep profiles".to_owned()))
}

/// Looks at the games of seats whose result is not known yet (at most a batch): a game that
/// has ended, or a table let go unstarted, gets its result kept.
///
/// # Errors
///
/// The store fails.
pub async fn settle(hub: &Hub) -> Result<(), StoreError> {
    let store = store_of(hub)?;
    let open = store.unsettled(SETTLE_BATCH).await?;
    for row in open {
        settle_one(hub, store, &row).await?;
    }
    Ok(())
}

async fn settle_one(hub: &Hub, store: &dyn ProfileStore, row: &SeatRow) -> Result<(), StoreError> {
    let live = hub.table(&row.table).await;
    if let Some(t) = &live
        && t.states.borrow().summary.status != "finished"
    {
        return Ok(());
    }
    let events = store.table_events(&row.table).await?;
    let seat = usize::try_from(row.seat).unwrap_or(usize::MAX);
    let result = match replayed(&row.table, &events) {
        Some(state) if state.game().is_finished() => result_of(&state, seat, &row.token_hash),
        // Still live while the events catch up, or live on another server of a cluster, or
        // not loaded yet: looked at again later. Only a table let go unstarted is gone.
        _ if live.is_some() || !store.table_expired(&row.table).await? => return Ok(()),
        Some(state) => SeatResult {
            finished: false,
            ..result_of(&state, seat, &row.token_hash)
        },
        None => SeatResult {
            finished: false,
            base: String::new(),
            seat,
            kept: false,
            kinds: Vec::new(),
            names: Vec::new(),
            scores: Vec::new(),
            totals: Vec::new(),
            winners: Vec::new(),
            penalty: false,
        },
    };
    let text = serde_json::to_string(&result).map_err(|e| StoreError(e.to_string()))?;
    store.settle(&row.profile, &row.table, &text).await
}

/// One line of statistics: games, wins, deals and the sum of the deals' scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Games played to their end.
    pub games: u32,
    /// Games won (a shared win counts).
    pub wins: u32,
    /// Deals played in those games.
    pub deals: u32,
    /// The sum of this seat's deal scores.
    pub score_sum: i64,
}

impl Line {
    fn add(&mut self, r: &SeatResult) {
        self.games += 1;
        self.wins += u32::from(r.winners.contains(&r.seat));
        self.deals += u32::try_from(r.scores.len()).unwrap_or(u32::MAX);
        self.score_sum += r
            .scores
            .iter()
            .map(|d| i64::from(d.get(r.seat).copied().unwrap_or(0)))
            .sum::<i64>();
    }

    /// The average deal score (`None` before any deal).
    #[must_use]
    pub fn average(&self) -> Option<f64> {
        (self.deals > 0).then(|| self.score_sum as f64 / f64::from(self.deals))
    }
}

/// A profile's statistics for one preset: every game, those against bots (a bot in another
/// seat), those against people only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PresetStats {
    /// Every game.
    pub all: Line,
    /// Games with a bot in another seat.
    pub bots: Line,
    /// Games against people only.
    pub people: Line,
}

/// A profile's statistics by preset, from its seats' results.
#[must_use]
pub fn stats<'a>(
    results: impl IntoIterator<Item = &'a SeatResult>,
) -> BTreeMap<String, PresetStats> {
    let mut by: BTreeMap<String, PresetStats> = BTreeMap::new();
    for r in results.into_iter().filter(|r| r.counts()) {
        let s = by.entry(r.base.clone()).or_default();
        s.all.add(r);
        if r.against_people() {
            s.people.add(r);
        } else {
            s.bots.add(r);
        }
    }
    by
}

/// A ranked player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    /// The profile id.
    pub profile: String,
    /// The display name.
    pub name: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 rating deviation.
    pub deviation: f64,
    /// Ranked games played.
    pub games: u32,
    /// Ranked games won.
    pub wins: u32,
}

/// One game as the ranking sees it: each seat's profile (and name) and total, the winners.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedGame {
    /// Each seat's profile id and name.
    pub seats: Vec<(String, String)>,
    /// Each seat's total.
    pub totals: Vec<i32>,
    /// The winning seats.
    pub winners: Vec<usize>,
    /// Whether the fewest points win.
    pub penalty: bool,
}

/// A kept result as the ranking reads it: whose, at which table, and the game's outcome
/// (without its deals).
#[derive(Clone, Debug, PartialEq)]
pub struct KeptResult {
    /// The profile id.
    pub profile: String,
    /// The profile's name.
    pub name: String,
    /// The table.
    pub table: String,
    /// The result, its deals' scores left out.
    pub result: SeatResult,
}

/// The results of `rows` that count (played to the end in the profile's seat), each read
/// once, in order.
#[must_use]
pub fn kept_results(rows: Vec<SeatRow>) -> Vec<KeptResult> {
    rows.into_iter()
        .filter_map(|row| {
            let mut result: SeatResult = serde_json::from_str(row.result.as_deref()?).ok()?;
            result.scores = Vec::new();
            result.counts().then_some(KeptResult {
                profile: row.profile,
                name: row.name,
                table: row.table,
                result,
            })
        })
        .collect()
}

/// The games of `rows` that a ranking of `base` takes, in the order they were played: of
/// that preset, every seat a person, each seat's own profile (a game with a bot, or a person
/// without a profile, does not count).
#[must_use]
pub fn ranked_games(rows: &[KeptResult], base: &str) -> Vec<RankedGame> {
    let mut tables: Vec<&str> = Vec::new();
    let mut by: HashMap<&str, Vec<(&KeptResult, &SeatResult)>> = HashMap::new();
    for row in rows.iter().filter(|r| r.result.base == base) {
        let entry = by.entry(row.table.as_str()).or_default();
        if entry.is_empty() {
            tables.push(&row.table);
        }
        entry.push((row, &row.result));
    }
    tables
        .into_iter()
        .filter_map(|table| {
            let seats = &by[table];
            let (_, first) = &seats[0];
            let n = first.kinds.len();
            let people = first.kinds.iter().all(|k| k == "human");
            let mut profiles: Vec<Option<(String, String)>> = vec![None; n];
            for (row, r) in seats {
                if let Some(p) = profiles.get_mut(r.seat) {
                    *p = Some((row.profile.clone(), row.name.clone()));
                }
            }
            let seats: Vec<(String, String)> = profiles.into_iter().collect::<Option<_>>()?;
            let distinct = (1..n).all(|i| seats[..i].iter().all(|s| s.0 != seats[i].0));
            (people && distinct && n >= 2).then(|| RankedGame {
                seats,
                totals: first.totals.clone(),
                winners: first.winners.clone(),
                penalty: first.penalty,
            })
        })
        .collect()
}

/// How seat `a` did against seat `b` in a game: by the winners first, then by the totals.
fn outcome(game: &RankedGame, a: usize, b: usize) -> Outcomes {
    let (wa, wb) = (game.winners.contains(&a), game.winners.contains(&b));
    if wa != wb {
        return if wa { Outcomes::WIN } else { Outcomes::LOSS };
    }
    let (ta, tb) = (game.totals[a], game.totals[b]);
    let better = if game.penalty { ta < tb } else { ta > tb };
    if ta == tb {
        Outcomes::DRAW
    } else if better {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    }
}

/// The Glicko-2 ranking of `games` in order: each game is a rating period in which every
/// player meets every other player of the table (a win, a loss or a draw by the game's
/// winners, then by the totals), against the ratings they had before the game. Best first.
#[must_use]
pub fn ranking(games: &[RankedGame]) -> Vec<Ranked> {
    let config = Glicko2Config::new();
    let mut ratings: HashMap<String, (Glicko2Rating, String, u32, u32)> = HashMap::new();
    for game in games {
        let before: Vec<Glicko2Rating> = game
            .seats
            .iter()
            .map(|(id, _)| ratings.get(id).map_or_else(Glicko2Rating::new, |r| r.0))
            .collect();
        for (a, (id, name)) in game.seats.iter().enumerate() {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..game.seats.len())
                .filter(|b| *b != a)
                .map(|b| (before[b], outcome(game, a, b)))
                .collect();
            let after = glicko2_rating_period(&before[a], &results, &config);
            let entry = ratings
                .entry(id.clone())
                .or_insert_with(|| (Glicko2Rating::new(), name.clone(), 0, 0));
            entry.0 = after;
            entry.1.clone_from(name);
            entry.2 += 1;
            entry.3 += u32::from(game.winners.contains(&a));
        }
    }
    let mut list: Vec<Ranked> = ratings
        .into_iter()
        .map(|(profile, (r, name, games, wins))| Ranked {
            profile,
            name,
            rating: r.rating,
            deviation: r.deviation,
            games,
            wins,
        })
        .collect();
    list.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.profile.cmp(&b.profile))
    });
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_token_opens_only_with_its_key_table_and_seat() {
        let (_, key) = new_key();
        let (_, other) = new_key();
        let token = crate::actor::new_token();
        let sealed = seal(&key, "t1", 2, &token);
        assert_ne!(sealed, hex(token.as_bytes()));
        assert_eq!(
            open(&key, "t1", 2, &sealed).as_deref(),
            Some(token.as_str())
        );
        assert_ne!(
            open(&other, "t1", 2, &sealed).as_deref(),
            Some(token.as_str())
        );
        assert_ne!(
            open(&key, "t2", 2, &sealed).as_deref(),
            Some(token.as_str())
        );
        assert_ne!(
            open(&key, "t1", 1, &sealed).as_deref(),
            Some(token.as_str())
        );
        assert_eq!(open(&key, "t1", 2, "zz"), None);
    }

    #[test]
    fn keys_have_one_form_and_match_their_digest_only() {
        let (id, key) = new_key();
        let (kid, secret) = split_key(&key).unwrap();
        assert_eq!(kid, id);
        assert!(secret_matches(secret, &digest(secret)));
        // Another secret: its first character changed (a random secret need not hold any
        // given character, so replacing one could leave it as it was).
        let first = if secret.starts_with('a') { "b" } else { "a" };
        let other = format!("{first}{}", &secret[1..]);
        assert_ne!(other, secret);
        assert!(!secret_matches(&other, &digest(secret)));
        for bad in [
            "",
            "abc",
            "x.y",
            &format!("{id}.short"),
            &format!("{id}{secret}"),
        ] {
            assert_eq!(split_key(bad), None, "{bad}");
        }
    }

    fn result(seat: usize, kinds: &[&str], scores: &[&[i32]], winners: &[usize]) -> SeatResult {
        let n = kinds.len();
        let mut totals = vec![0; n];
        for d in scores {
            for (s, v) in d.iter().enumerate() {
                totals[s] += v;
            }
        }
        SeatResult {
            finished: true,
            base: "mini-misere-4".into(),
            seat,
            kept: true,
            kinds: kinds.iter().map(|k| (*k).to_owned()).collect(),
            names: Vec::new(),
            scores: scores.iter().map(|d| d.to_vec()).collect(),
            totals,
            winners: winners.to_vec(),
            penalty: false,
        }
    }

    #[test]
    fn statistics_split_games_against_bots_and_people() {
        let h = "human";
        let a = result(0, &[h, h, h], &[&[3, 1, 0], &[1, 0, 2]], &[0]);
        let b = result(1, &[h, h, "bot"], &[&[0, 5, 1]], &[1]);
        let c = result(0, &[h, "bot", h], &[&[2, 4, 0]], &[1]);
        let gone = SeatResult {
            finished: false,
            ..result(0, &[h, h, h], &[&[9, 0, 0]], &[])
        };
        let replaced = SeatResult {
            kept: false,
            ..a.clone()
        };
        let s = &stats([&a, &c, &gone, &replaced])["mini-misere-4"];
        assert_eq!(
            s.all,
            Line {
                games: 2,
                wins: 1,
                deals: 3,
                score_sum: 6
            }
        );
        assert_eq!(
            s.people,
            Line {
                games: 1,
                wins: 1,
                deals: 2,
                score_sum: 4
            }
        );
        assert_eq!(
            s.bots,
            Line {
                games: 1,
                wins: 0,
                deals: 1,
                score_sum: 2
            }
        );
        assert_eq!(s.all.average(), Some(2.0));
        assert_eq!(stats([&b])["mini-misere-4"].bots.wins, 1);
        assert_eq!(Line::default().average(), None);
    }

    fn row(profile: &str, table: &str, r: &SeatResult) -> SeatRow {
        SeatRow {
            profile: profile.into(),
            name: profile.to_uppercase(),
            table: table.into(),
            seat: i64::try_from(r.seat).unwrap(),
            token_hash: String::new(),
            sealed: String::new(),
            invite: None,
            created: 0,
            result: Some(serde_json::to_string(r).unwrap()),
        }
    }

    #[test]
    fn the_ranking_takes_games_between_profiles_only_and_orders_by_results() {
        let h = "human";
        let mut rows = Vec::new();
        // Three games of two: b beats a once, then a beats b twice (each game is a rating
        // period: the later games weigh as much as the first).
        for (t, winner) in [("t1", 1), ("t2", 0), ("t3", 0)] {
            let scores: &[i32] = if winner == 0 { &[5, 1] } else { &[1, 5] };
            for (seat, p) in ["a", "b"].iter().enumerate() {
                rows.push(row(p, t, &result(seat, &[h, h], &[scores], &[winner])));
            }
        }
        // With a bot: not ranked. With a person without a profile: not ranked.
        rows.push(row("b", "t4", &result(0, &[h, "bot"], &[&[9, 0]], &[0])));
        rows.push(row("b", "t5", &result(0, &[h, h], &[&[9, 0]], &[0])));
        let kept = kept_results(rows);
        assert_eq!(kept.len(), 8);
        assert!(kept.iter().all(|k| k.result.scores.is_empty()));
        let games = ranked_games(&kept, "mini-misere-4");
        assert_eq!(games.len(), 3);
        assert!(ranked_games(&kept, "mura-5").is_empty());
        let list = ranking(&games);
        assert_eq!(list.len(), 2);
        assert_eq!(
            (list[0].profile.as_str(), list[0].games, list[0].wins),
            ("a", 3, 2)
        );
        assert_eq!(
            (list[1].profile.as_str(), list[1].games, list[1].wins),
            ("b", 3, 1)
        );
        assert!(
            list[0].rating > 1500.0 && list[1].rating < 1500.0,
            "{list:?}"
        );
        assert!(list[0].deviation < 350.0);
        // The same games give the same ranking; a draw moves nobody apart.
        assert_eq!(ranking(&games), list);
        let draw = RankedGame {
            seats: vec![("a".into(), "A".into()), ("b".into(), "B".into())],
            totals: vec![3, 3],
            winners: vec![0, 1],
            penalty: false,
        };
        let even = ranking(&[draw]);
        assert!((even[0].rating - even[1].rating).abs() < 1e-9);
    }

    #[test]
    fn penalty_games_are_won_by_the_fewest_points() {
        let game = RankedGame {
            seats: Vec::new(),
            totals: vec![10, 30, 20],
            winners: vec![0],
            penalty: true,
        };
        assert_eq!(outcome(&game, 0, 1), Outcomes::WIN);
        assert_eq!(outcome(&game, 2, 1), Outcomes::WIN);
        assert_eq!(outcome(&game, 1, 2), Outcomes::LOSS);
        let points = RankedGame {
            penalty: false,
            winners: vec![1],
            ..game
        };
        assert_eq!(outcome(&points, 2, 0), Outcomes::WIN);
    }
}
