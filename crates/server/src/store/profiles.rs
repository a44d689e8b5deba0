//! The rows of player profiles ([`crate::profiles`]): each profile's name and key digest, and
//! the seats its holder has taken, each with the finished game's result once it is known.
//! The same SQL runs on SQLite and PostgreSQL, as the rest of the store.

use sqlx::Row;

use super::{BoxFuture, SqlStore, StoreError};

/// The profiles' tables, created with the store's own.
pub(super) const SCHEMA: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS torite_profiles (id TEXT PRIMARY KEY, created BIGINT NOT NULL, \
     name TEXT NOT NULL, key_digest TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS torite_profile_seats (profile_id TEXT NOT NULL, \
     table_id TEXT NOT NULL, seat BIGINT NOT NULL, token_hash TEXT NOT NULL, \
     sealed TEXT NOT NULL, invite TEXT, created BIGINT NOT NULL, result TEXT, \
     PRIMARY KEY (profile_id, table_id), UNIQUE (table_id, seat))",
    "CREATE INDEX IF NOT EXISTS torite_profile_seats_open ON torite_profile_seats (result)",
];

/// A profile as stored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ProfileRow {
    /// The profile id (public: it names the profile in the ranking).
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// The display name.
    pub name: String,
    /// The SHA-256 digest (hex) of the profile's secret key.
    pub key_digest: String,
}

/// A seat taken with a profile.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    /// The profile.
    pub profile: String,
    /// The profile's display name (filled in when read).
    pub name: String,
    /// The table.
    pub table: String,
    /// The seat.
    pub seat: i64,
    /// The hash of the seat's token, as the table's events hold it.
    pub token_hash: String,
    /// The seat token sealed with the profile's key (hex): only the key's holder opens it.
    pub sealed: String,
    /// A private table's invite secret, sealed as the token is (hex), if the table has one.
    pub invite: Option<String>,
    /// When the seat was taken, seconds since the Unix epoch.
    pub created: i64,
    /// The game's result for this seat (JSON), once the game has ended or was let go.
    pub result: Option<String>,
}

/// Every profile and every kept seat: a backup's part.
pub type ProfileRows = (Vec<ProfileRow>, Vec<SeatRow>);

/// Where profiles are kept. [`super::Store::profiles`] gives it for a store that keeps them.
pub trait ProfileStore: Send + Sync {
    /// Creates a profile. Fails if the id exists.
    fn create_profile<'a>(&'a self, row: &'a ProfileRow) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A profile, if there is one.
    fn profile<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<ProfileRow>, StoreError>>;

    /// Changes a profile's display name; `false` if there is no such profile.
    fn rename_profile<'a>(
        &'a self,
        id: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Keeps a seat for its profile; `false` (nothing written) if another profile keeps that
    /// seat or this profile already keeps another seat of the table. Keeping the same seat
    /// again replaces its token.
    fn keep_seat<'a>(&'a self, row: &'a SeatRow) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// A profile's seats, newest first, at most `limit`.
    fn seats_of<'a>(
        &'a self,
        profile: &'a str,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<SeatRow>, StoreError>>;

    /// Seats whose result is not known yet, oldest first, at most `limit`.
    fn unsettled(&self, limit: i64) -> BoxFuture<'_, Result<Vec<SeatRow>, StoreError>>;

    /// Every seat of a table taken with a profile.
    fn seats_at<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<SeatRow>, StoreError>>;

    /// The newest `limit` seats whose result is known, oldest first.
    fn settled(&self, limit: i64) -> BoxFuture<'_, Result<Vec<SeatRow>, StoreError>>;

    /// Writes the result of a seat.
    fn settle<'a>(
        &'a self,
        profile: &'a str,
        table: &'a str,
        result: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// A table's events in order (empty for a table the store does not hold).
    fn table_events<'a>(&'a self, table: &'a str)
    -> BoxFuture<'a, Result<Vec<String>, StoreError>>;

    /// Whether a table was let go unstarted (marked expired): it will not be loaded again.
    fn table_expired<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Every profile and every seat kept with one (a backup's part).
    fn export_profiles(&self) -> BoxFuture<'_, Result<ProfileRows, StoreError>>;

    /// Writes a backup's profiles and seats in one transaction, replacing rows of the same
    /// ids.
    fn import_profiles<'a>(
        &'a self,
        profiles: &'a [ProfileRow],
        seats: &'a [SeatRow],
    ) -> BoxFuture<'a, Result<(), StoreError>>;
}

const SEAT_COLUMNS: &str = "s.profile_id, p.name, s.table_id, s.seat, s.token_hash, s.sealed, \
     s.created, s.result, s.invite FROM torite_profile_seats s JOIN torite_profiles p ON p.id = s.profile_id";

macro_rules! seat_rows {
    ($rows:expr) => {
        $rows
            .iter()
            .map(|r| {
                Ok(SeatRow {
                    profile: r.try_get(0)?,
                    name: r.try_get(1)?,
                    table: r.try_get(2)?,
                    seat: r.try_get(3)?,
                    token_hash: r.try_get(4)?,
                    sealed: r.try_get(5)?,
                    created: r.try_get(6)?,
                    result: r.try_get(7)?,
                    invite: r.try_get(8)?,
                })
            })
            .collect::<Result<Vec<SeatRow>, sqlx::Error>>()?
    };
}

impl ProfileStore for SqlStore {
    fn create_profile<'a>(&'a self, row: &'a ProfileRow) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_profiles (id, created, name, key_digest) \
                     VALUES ($1, $2, $3, $4)";
            on_pool!(self, pool => {
                sqlx::query(q).bind(&row.id).bind(row.created).bind(&row.name)
                    .bind(&row.key_digest).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn profile<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<ProfileRow>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT id, created, name, key_digest FROM torite_profiles WHERE id = $1";
            let row = on_pool!(self, pool => {
                sqlx::query(q).bind(id).fetch_optional(pool).await?
                    .map(|r| Ok::<_, sqlx::Error>(ProfileRow {
                        id: r.try_get(0)?,
                        created: r.try_get(1)?,
                        name: r.try_get(2)?,
                        key_digest: r.try_get(3)?,
                    }))
                    .transpose()?
            });
            Ok(row)
        })
    }

    fn rename_profile<'a>(
        &'a self,
        id: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let q = "UPDATE torite_profiles SET name = $1 WHERE id = $2";
            let done = on_pool!(self, pool => {
                sqlx::query(q).bind(name).bind(id).execute(pool).await?.rows_affected()
            });
            Ok(done == 1)
        })
    }

    fn keep_seat<'a>(&'a self, row: &'a SeatRow) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let q = "INSERT INTO torite_profile_seats \
                     (profile_id, table_id, seat, token_hash, sealed, invite, created, result) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL) \
                     ON CONFLICT (profile_id, table_id) DO UPDATE \
                     SET token_hash = excluded.token_hash, sealed = excluded.sealed, \
                     invite = excluded.invite \
                     WHERE torite_profile_seats.seat = excluded.seat";
            let done = on_pool!(self, pool => {
                match sqlx::query(q).bind(&row.profile).bind(&row.table).bind(row.seat)
                    .bind(&row.token_hash).bind(&row.sealed).bind(&row.invite).bind(row.created)
                    .execute(pool).await
                {
                    Ok(done) => done.rows_affected(),
                    // The seat is another profile's (the table's seats are unique).
                    Err(sqlx::Error::Database(e)) if e.is_unique_violation() => 0,
                    Err(e) => return Err(e.into()),
                }
            });
            Ok(done == 1)
        })
    }

    fn seats_of<'a>(
        &'a self,
        profile: &'a str,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<SeatRow>, StoreError>> {
        Box::pin(async move {
            let q = format!(
                "SELECT {SEAT_COLUMNS} WHERE s.profile_id = $1 \
                 ORDER BY s.created DESC, s.table_id LIMIT $2"
            );
            let rows = on_pool!(self, pool => {
                let rows = sqlx::query(&q).bind(profile).bind(limit).fetch_all(pool).await?;
                seat_rows!(rows)
            });
            Ok(rows)
        })
    }

    fn unsettled(&self, limit: i64) -> BoxFuture<'_, Result<Vec<SeatRow>, StoreError>> {
        Box::pin(async move {
            let q = format!(
                "SELECT {SEAT_COLUMNS} WHERE s.result IS NULL \
                 ORDER BY s.created, s.table_id, s.seat LIMIT $1"
            );
            let rows = on_pool!(self, pool => {
                let rows = sqlx::query(&q).bind(limit).fetch_all(pool).await?;
                seat_rows!(rows)
            });
            Ok(rows)
        })
    }

    fn seats_at<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<Vec<SeatRow>, StoreError>> {
        Box::pin(async move {
            let q = format!("SELECT {SEAT_COLUMNS} WHERE s.table_id = $1 ORDER BY s.seat");
            let rows = on_pool!(self, pool => {
                let rows = sqlx::query(&q).bind(table).fetch_all(pool).await?;
                seat_rows!(rows)
            });
            Ok(rows)
        })
    }

    fn settled(&self, limit: i64) -> BoxFuture<'_, Result<Vec<SeatRow>, StoreError>> {
        Box::pin(async move {
            let q = format!(
                "SELECT {SEAT_COLUMNS} WHERE s.result IS NOT NULL \
                 ORDER BY s.created DESC, s.table_id DESC, s.seat DESC LIMIT $1"
            );
            let mut rows = on_pool!(self, pool => {
                let rows = sqlx::query(&q).bind(limit).fetch_all(pool).await?;
                seat_rows!(rows)
            });
            rows.reverse();
            Ok(rows)
        })
    }

    fn settle<'a>(
        &'a self,
        profile: &'a str,
        table: &'a str,
        result: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let q = "UPDATE torite_profile_seats SET result = $1 \
                     WHERE profile_id = $2 AND table_id = $3";
            on_pool!(self, pool => {
                sqlx::query(q).bind(result).bind(profile).bind(table).execute(pool).await?;
            });
            Ok(())
        })
    }

    fn table_events<'a>(
        &'a self,
        table: &'a str,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let q = "SELECT body FROM torite_events WHERE table_id = $1 ORDER BY seq";
            let rows = on_pool!(self, pool => {
                sqlx::query(q).bind(table).fetch_all(pool).await?
                    .iter()
                    .map(|r| r.try_get::<String, _>(0))
                    .collect::<Result<Vec<String>, sqlx::Error>>()?
            });
            Ok(rows)
        })
    }

    fn table_expired<'a>(&'a self, table: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let q = "SELECT table_id FROM torite_expired WHERE table_id = $1";
            let found = on_pool!(self, pool => {
                sqlx::query(q).bind(table).fetch_optional(pool).await?.is_some()
            });
            Ok(found)
        })
    }

    fn export_profiles(&self) -> BoxFuture<'_, Result<ProfileRows, StoreError>> {
        Box::pin(async move {
            let q1 =
                "SELECT id, created, name, key_digest FROM torite_profiles ORDER BY created, id";
            let q2 = format!("SELECT {SEAT_COLUMNS} ORDER BY s.created, s.table_id, s.seat");
            let both = on_pool!(self, pool => {
                let mut tx = pool.begin().await?;
                if matches!(self, SqlStore::Postgres { .. }) {
                    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                        .execute(&mut *tx)
                        .await?;
                }
                let profiles = sqlx::query(q1)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|r| {
                        Ok(ProfileRow {
                            id: r.try_get(0)?,
                            created: r.try_get(1)?,
                            name: r.try_get(2)?,
                            key_digest: r.try_get(3)?,
                        })
                    })
                    .collect::<Result<Vec<_>, sqlx::Error>>()?;
                let rows = sqlx::query(&q2).fetch_all(&mut *tx).await?;
                let seats = seat_rows!(rows);
                tx.commit().await?;
                (profiles, seats)
            });
            Ok(both)
        })
    }

    fn import_profiles<'a>(
        &'a self,
        profiles: &'a [ProfileRow],
        seats: &'a [SeatRow],
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            on_pool!(self, pool => {
                let mut tx = pool.begin().await?;
                for p in profiles {
                    sqlx::query("DELETE FROM torite_profiles WHERE id = $1")
                        .bind(&p.id).execute(&mut *tx).await?;
                    sqlx::query("INSERT INTO torite_profiles (id, created, name, key_digest) \
                                 VALUES ($1, $2, $3, $4)")
                        .bind(&p.id).bind(p.created).bind(&p.name).bind(&p.key_digest)
                        .execute(&mut *tx).await?;
                }
                for s in seats {
                    sqlx::query("DELETE FROM torite_profile_seats \
                                 WHERE (profile_id = $1 AND table_id = $2) \
                                 OR (table_id = $2 AND seat = $3)")
                        .bind(&s.profile).bind(&s.table).bind(s.seat)
                        .execute(&mut *tx).await?;
                    sqlx::query("INSERT INTO torite_profile_seats \
                                 (profile_id, table_id, seat, token_hash, sealed, invite, created, result) \
                                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
                        .bind(&s.profile).bind(&s.table).bind(s.seat).bind(&s.token_hash)
                        .bind(&s.sealed).bind(&s.invite).bind(s.created).bind(&s.result)
                        .execute(&mut *tx).await?;
                }
                tx.commit().await?;
            });
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(profile: &str, table: &str, seat: i64) -> SeatRow {
        SeatRow {
            profile: profile.to_owned(),
            name: String::new(),
            table: table.to_owned(),
            seat,
            token_hash: format!("h{seat}"),
            sealed: format!("s{seat}"),
            invite: None,
            created: seat,
            result: None,
        }
    }

    #[tokio::test]
    async fn a_seat_is_kept_by_one_profile_and_settled_once() {
        let store = SqlStore::open("sqlite::memory:").await.unwrap();
        for id in ["a", "b"] {
            store
                .create_profile(&ProfileRow {
                    id: id.into(),
                    created: 1,
                    name: id.to_uppercase(),
                    key_digest: "d".into(),
                })
                .await
                .unwrap();
        }
        assert!(
            store
                .create_profile(&store.profile("a").await.unwrap().unwrap())
                .await
                .is_err()
        );
        assert!(store.keep_seat(&seat("a", "t", 0)).await.unwrap());
        // The same seat again (a new token) is kept; another seat of the table is not.
        assert!(store.keep_seat(&seat("a", "t", 0)).await.unwrap());
        assert!(!store.keep_seat(&seat("a", "t", 1)).await.unwrap());
        // Another profile cannot take a kept seat.
        assert!(!store.keep_seat(&seat("b", "t", 0)).await.unwrap());
        assert!(store.keep_seat(&seat("b", "t", 1)).await.unwrap());
        let at = store.seats_at("t").await.unwrap();
        assert_eq!(
            at.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["A", "B"]
        );
        assert_eq!(store.unsettled(10).await.unwrap().len(), 2);
        store.settle("a", "t", "{}").await.unwrap();
        assert_eq!(store.unsettled(10).await.unwrap().len(), 1);
        assert_eq!(
            store.settled(10).await.unwrap()[0].result.as_deref(),
            Some("{}")
        );
        let (profiles, seats) = store.export_profiles().await.unwrap();
        let other = SqlStore::open("sqlite::memory:").await.unwrap();
        other.import_profiles(&profiles, &seats).await.unwrap();
        other.import_profiles(&profiles, &seats).await.unwrap();
        assert_eq!(other.export_profiles().await.unwrap(), (profiles, seats));
    }
}
