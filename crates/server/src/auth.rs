//! Secrets and limits: seat tokens (128 random bits, kept only as SHA-256
//! digests), invite codes, the websocket Origin check and the per-connection
//! message rate limit.

use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use axum::http::header::ORIGIN;
use sha2::{Digest, Sha256};

use crate::store::TokenHash;

/// The digest the server stores instead of the token.
pub(crate) fn hash_token(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// Compares digests without an early exit.
pub(crate) fn same_hash(a: &TokenHash, b: &TokenHash) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A new invite code: 10 characters of Crockford base 32 (no i, l, o, u)
/// (50 bits).
pub(crate) fn new_invite() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    crate::secret::random_bytes::<10>()
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect()
}

/// Whether an invite code is well formed (checked before any lookup).
pub(crate) fn valid_invite(invite: &str) -> bool {
    (4..=32).contains(&invite.len())
        && invite
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The Origin check of websocket upgrades and JSON POSTs (axum does none).
/// Browsers always send `Origin`: it must be one of `allowed` (the server's
/// public origins, `--allow-origin`) or name a loopback host (local play:
/// `localhost`, `127.x.y.z`, `[::1]`, any port). The request's own `Host` is
/// not trusted: a page of another site whose name resolves here (DNS
/// rebinding) sends its own name in both (issue 31, finding 7). A request
/// without `Origin` comes from a program, not a page, and is let through:
/// the check protects players' browsers from other sites, and programs
/// still need a seat token to act.
pub(crate) fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    allowed.iter().any(|a| a == origin) || loopback_origin(origin)
}

/// Whether `origin` (`http(s)://host[:port]`) names a loopback host.
fn loopback_origin(origin: &str) -> bool {
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map_or("", |(h, _)| h),
        None => authority.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A token bucket: `burst` messages at once, refilled at `per_second`.
pub(crate) struct RateLimit {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(burst: u32, per_second: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            last: Instant::now(),
        }
    }

    /// `burst` messages at once, refilled evenly over `period` (the chat's
    /// "five lines per ten seconds").
    pub fn per(burst: u32, period: Duration) -> RateLimit {
        RateLimit {
            per_second: f64::from(burst) / period.as_secs_f64(),
            ..RateLimit::new(burst, 0)
        }
    }

    /// How long until one more message may pass (zero when one may now).
    pub fn wait(&self) -> Duration {
        let refilled = self.tokens + self.last.elapsed().as_secs_f64() * self.per_second;
        if refilled >= 1.0 || self.per_second <= 0.0 {
            return Duration::ZERO;
        }
        Duration::from_secs_f64((1.0 - refilled) / self.per_second)
    }

    /// Whether one more message may pass now.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::new_token;

    #[test]
    fn tokens_are_random_and_hashed() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(same_hash(&hash_token(&a), &hash_token(&a)));
        assert!(!same_hash(&hash_token(&a), &hash_token(&b)));
        assert!(valid_invite(&new_invite()));
        assert!(!valid_invite("../etc"));
    }

    #[test]
    fn origin_must_be_loopback_or_allowed() {
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h, &[]));
        h.insert(ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(origin_allowed(&h, &[]));
        for foreign in [
            "http://evil.example",
            "http://127.0.0.1.evil.example",
            "file://x",
        ] {
            h.insert(ORIGIN, foreign.parse().unwrap());
            assert!(!origin_allowed(&h, &[]), "{foreign}");
        }
        h.insert(ORIGIN, "http://evil.example".parse().unwrap());
        assert!(origin_allowed(&h, &["http://evil.example".into()]));
    }

    #[test]
    fn the_rate_limit_allows_a_burst_then_refuses() {
        let mut r = RateLimit::new(5, 1);
        assert_eq!((0..10).filter(|_| r.allow()).count(), 5);
        let mut chat = RateLimit::per(5, Duration::from_secs(10));
        assert_eq!((0..10).filter(|_| chat.allow()).count(), 5);
        let wait = chat.wait();
        assert!(
            wait > Duration::from_millis(1500) && wait <= Duration::from_secs(2),
            "{wait:?}"
        );
    }
}
