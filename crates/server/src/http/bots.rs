//! `GET /api/bots`: the named levels a seat can be given, in the reader's language.

use std::collections::HashMap;

use axum::extract::Query;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use torite_bots::Level;
use torite_i18n::{Catalog, Lang};

use crate::refusal::{Refusal, Why, shown};

/// The levels, weakest first, each as `{"id", "name", "description"}` with its name and
/// one-line description in `lang` (`en`, the default, or `ja`); any other language is refused.
pub(crate) async fn list(
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let lang = match query.get("lang").map(String::as_str) {
        None | Some("en") => Lang::En,
        Some("ja") => Lang::Ja,
        Some(other) => {
            return Err(Refusal::bad(Why::UnknownLang {
                value: shown(other),
            }));
        }
    };
    Ok(axum::Json(levels(&Catalog::new(lang))).into_response())
}

/// The levels in the catalog's language.
fn levels(c: &Catalog) -> Value {
    Level::ALL
        .iter()
        .map(|level| {
            let id = level.id();
            json!({
                "id": id,
                "name": c.get(&format!("level-{id}"), &[]),
                "description": c.get(&format!("level-{id}-description"), &[]),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_named_and_described_in_both_languages() {
        for lang in [Lang::En, Lang::Ja] {
            let c = Catalog::new(lang);
            for level in levels(&c).as_array().unwrap() {
                let id = level["id"].as_str().unwrap();
                assert!(c.has(&format!("level-{id}")), "{lang}: {id}");
                assert!(c.has(&format!("level-{id}-description")), "{lang}: {id}");
            }
        }
    }
}
