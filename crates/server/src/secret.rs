//! Random secrets: the bytes behind seat tokens, invite codes and the
//! cluster's secrets. A leaf: it depends on no other module of the server.

/// `N` bytes from the operating system's random source.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0; N];
    getrandom::fill(&mut b).expect("the operating system supplies random bytes");
    b
}

/// A new secret token: 128 random bits as 32 hex digits.
pub(crate) fn new_token() -> String {
    use std::fmt::Write;
    random_bytes::<16>().iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
