//! The backup of the scorekeeper's sheets (`torite_scoresheets`) and the duplicate series
//! (`torite_duplicates`): read as one snapshot, written in one transaction. The same SQL runs
//! on SQLite and PostgreSQL, as the rest of the store.

use sqlx::Row;

use super::{ImportError, SqlStore, StoreError};

/// One scorekeeper's sheet as stored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SheetRow {
    /// The sheet id.
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// How many times the sheet has been written since its creation.
    pub version: i64,
    /// The sheet (JSON: its rules, players, deals and the digests of its keys).
    pub body: String,
}

/// One duplicate series as stored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeriesRow {
    /// The series id.
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// The series (JSON: its rules, deals, seed, seats, tables and the digest of its host key).
    pub body: String,
}

/// Every score sheet and every duplicate series, oldest first.
pub type SheetRows = (Vec<SheetRow>, Vec<SeriesRow>);

impl SqlStore {
    /// Every score sheet and duplicate series the store holds, oldest first, as one snapshot
    /// (a server may write meanwhile).
    ///
    /// # Errors
    ///
    /// The database cannot be read.
    pub async fn export_sheets(&self) -> Result<SheetRows, StoreError> {
        let q1 = "SELECT id, created, version, body FROM torite_scoresheets ORDER BY created, id";
        let q2 = "SELECT id, created, body FROM torite_duplicates ORDER BY created, id";
        let both = on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if matches!(self, SqlStore::Postgres { .. }) {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    .execute(&mut *tx)
                    .await?;
            }
            let sheets = sqlx::query(q1)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| {
                    Ok(SheetRow {
                        id: r.try_get(0)?,
                        created: r.try_get(1)?,
                        version: r.try_get(2)?,
                        body: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            let series = sqlx::query(q2)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| {
                    Ok(SeriesRow {
                        id: r.try_get(0)?,
                        created: r.try_get(1)?,
                        body: r.try_get(2)?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
            tx.commit().await?;
            (sheets, series)
        });
        Ok(both)
    }

    /// The first sheet or series of `rows` already in the database, as the refusal of an
    /// import without replacing: to ask before anything is written.
    ///
    /// # Errors
    ///
    /// One is there, or the database fails.
    pub async fn check_sheets(&self, rows: &SheetRows) -> Result<(), ImportError> {
        let q1 = "SELECT id FROM torite_scoresheets WHERE id = $1";
        let q2 = "SELECT id FROM torite_duplicates WHERE id = $1";
        on_pool!(self, pool => {
            for s in &rows.0 {
                if sqlx::query(q1).bind(&s.id).fetch_optional(pool).await?.is_some() {
                    return Err(ImportError::SheetExists(s.id.clone()));
                }
            }
            for s in &rows.1 {
                if sqlx::query(q2).bind(&s.id).fetch_optional(pool).await?.is_some() {
                    return Err(ImportError::SeriesExists(s.id.clone()));
                }
            }
        });
        Ok(())
    }

    /// Writes score sheets and duplicate series into the store in one transaction: all of
    /// them or, on any refusal, none. One already in the database is refused unless
    /// `replace`, which overwrites it.
    ///
    /// # Errors
    ///
    /// A sheet or series exists (without `replace`), or the database fails.
    pub async fn import_sheets(&self, rows: &SheetRows, replace: bool) -> Result<(), ImportError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for s in &rows.0 {
                if replace {
                    sqlx::query("DELETE FROM torite_scoresheets WHERE id = $1")
                        .bind(&s.id).execute(&mut *tx).await?;
                } else if sqlx::query("SELECT id FROM torite_scoresheets WHERE id = $1")
                    .bind(&s.id).fetch_optional(&mut *tx).await?.is_some()
                {
                    return Err(ImportError::SheetExists(s.id.clone()));
                }
                sqlx::query("INSERT INTO torite_scoresheets (id, created, version, body) \
                             VALUES ($1, $2, $3, $4)")
                    .bind(&s.id).bind(s.created).bind(s.version).bind(&s.body)
                    .execute(&mut *tx).await?;
            }
            for s in &rows.1 {
                if replace {
                    sqlx::query("DELETE FROM torite_duplicates WHERE id = $1")
                        .bind(&s.id).execute(&mut *tx).await?;
                } else if sqlx::query("SELECT id FROM torite_duplicates WHERE id = $1")
                    .bind(&s.id).fetch_optional(&mut *tx).await?.is_some()
                {
                    return Err(ImportError::SeriesExists(s.id.clone()));
                }
                sqlx::query("INSERT INTO torite_duplicates (id, created, body) VALUES ($1, $2, $3)")
                    .bind(&s.id).bind(s.created).bind(&s.body)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{DuplicateStore, Store};

    #[tokio::test]
    async fn sheets_and_series_move_whole_and_replace_only_when_asked() {
        let store = SqlStore::open("sqlite::memory:").await.unwrap();
        store
            .create_scoresheet("k1", 7, "{\"deals\":[]}")
            .await
            .unwrap();
        assert!(
            store
                .update_scoresheet("k1", 0, "{\"deals\":[1]}")
                .await
                .unwrap()
        );
        store
            .create_duplicate("d1", 8, "{\"seed\":3}")
            .await
            .unwrap();
        let rows = store.export_sheets().await.unwrap();
        assert_eq!(
            rows,
            (
                vec![SheetRow {
                    id: "k1".into(),
                    created: 7,
                    version: 1,
                    body: "{\"deals\":[1]}".into()
                }],
                vec![SeriesRow {
                    id: "d1".into(),
                    created: 8,
                    body: "{\"seed\":3}".into()
                }]
            )
        );
        let other = SqlStore::open("sqlite::memory:").await.unwrap();
        other.check_sheets(&rows).await.unwrap();
        other.import_sheets(&rows, false).await.unwrap();
        assert_eq!(other.export_sheets().await.unwrap(), rows);
        assert_eq!(
            other.scoresheet("k1").await.unwrap(),
            Some(("{\"deals\":[1]}".to_owned(), 1))
        );
        // Again: refused, and nothing of it written (the series after the sheet neither).
        let mut more = rows.clone();
        more.0.insert(
            0,
            SheetRow {
                id: "k0".into(),
                ..rows.0[0].clone()
            },
        );
        assert_eq!(
            other.check_sheets(&more).await,
            Err(ImportError::SheetExists("k1".into()))
        );
        assert_eq!(
            other.import_sheets(&more, false).await,
            Err(ImportError::SheetExists("k1".into()))
        );
        assert_eq!(other.scoresheet("k0").await.unwrap(), None);
        let series_only = (Vec::new(), rows.1.clone());
        assert_eq!(
            other
                .import_sheets(&series_only, false)
                .await
                .unwrap_err()
                .to_string(),
            "duplicate series d1 is already in the database (--replace overwrites it); nothing was imported"
        );
        let mut changed = more.clone();
        changed.0[1].body = "{\"deals\":[2]}".into();
        other.import_sheets(&changed, true).await.unwrap();
        assert_eq!(other.export_sheets().await.unwrap(), changed);
    }
}
