//! Where the tables are kept: a SQLite file or a PostgreSQL URL, as
//! `tripoley serve --db` names it (a URL's password never printed).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where the tables are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created if missing; `:memory:` keeps everything in
    /// memory (lost on exit).
    Sqlite(PathBuf),
    /// A PostgreSQL database by its URL
    /// (`postgres://USER[:PASSWORD]@HOST[:PORT]/NAME`); the server creates
    /// its tables there. Connections are not encrypted (the database is
    /// expected on this machine or a private network).
    Postgres(String),
}

impl FromStr for Database {
    type Err = std::convert::Infallible;

    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything
    /// else is a SQLite file's path.
    fn from_str(s: &str) -> Result<Database, Self::Err> {
        Ok(
            if s.starts_with("postgres://") || s.starts_with("postgresql://") {
                Database::Postgres(s.to_owned())
            } else {
                Database::Sqlite(PathBuf::from(s))
            },
        )
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

/// The path, or the URL without its password (it is printed at startup
/// and in logs).
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(_) => write!(f, "Sqlite({self})"),
            Database::Postgres(_) => write!(f, "Postgres({self})"),
        }
    }
}

/// `url` with its password (in the user part or a `password=` parameter),
/// if any, replaced by `***`.
pub(super) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (main, query) = match rest.split_once('?') {
        Some((main, query)) => (main, Some(query)),
        None => (rest, None),
    };
    let authority = &main[..main.find('/').unwrap_or(main.len())];
    let mut out = format!("{scheme}://");
    match authority
        .rfind('@')
        .and_then(|at| Some((main[..at].split_once(':')?.0, &main[at..])))
    {
        Some((user, host_on)) => {
            out.push_str(user);
            out.push_str(":***");
            out.push_str(host_on);
        }
        None => out.push_str(main),
    }
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => p.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}
