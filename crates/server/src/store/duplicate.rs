//! The rows of duplicate series ([`crate::duplicate`]): each series' id, creation time and body
//! (its rules, deals, seed, seats, tables and the digest of its host key, as JSON), written
//! once at creation. The same SQL runs on SQLite and PostgreSQL, as the rest of the store.

use sqlx::Row;

use super::{BoxFuture, SqlStore, StoreError};

/// The series' table, created with the store's own.
pub(super) const SCHEMA: [&str; 1] = [
    "CREATE TABLE IF NOT EXISTS torite_duplicates (id TEXT PRIMARY KEY, created BIGINT NOT NULL, \
     body TEXT NOT NULL)",
];

/// Where duplicate series are kept. [`super::Store::duplicates`] gives it for a store that keeps
/// them.
pub trait DuplicateStore: Send + Sync {
    /// Keeps a new series (`body`: its JSON). Fails if the id exists.
    fn create_duplicate<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A series' JSON, if there is one.
    fn duplicate_series<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
}

impl DuplicateStore for SqlStore {
    fn create_duplicate<'a>(
        &'a self,
        id: &'a str,
        created: i64,
        body: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_duplicates (id, created, body) VALUES ($1, $2, $3)";
            on_pool!(self, pool => {
                sqlx::query(q).bind(id).bind(created).bind(body).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn duplicate_series<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body FROM torite_duplicates WHERE id = $1";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).fetch_optional(pool).await?
                    .map(|r| r.try_get::<String, _>(0))
                    .transpose()?
            });
            Ok(row)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::DuplicateStore;
    use crate::store::SqlStore;

    #[tokio::test]
    async fn a_series_is_kept_once() {
        let store = SqlStore::open("sqlite::memory:").await.unwrap();
        store.create_duplicate("s1", 5, "{\"a\":1}").await.unwrap();
        assert!(store.create_duplicate("s1", 6, "{}").await.is_err());
        assert_eq!(
            store.duplicate_series("s1").await.unwrap().as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(store.duplicate_series("s2").await.unwrap(), None);
    }
}
