//! What one address may have in progress at once on a costly route (a
//! replay built, an analysis waited for): counted while a [`Slot`] lives,
//! so a request that ends any way (answered, failed, its connection
//! closed) gives its slot back.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Requests in progress by address, at most `max` each.
pub(crate) struct PerAddress {
    max: usize,
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One request of an address in progress.
pub(crate) struct Slot {
    book: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    pub(crate) fn new(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            max,
            counts: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for `ip`, unless it already holds all it may.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let mut counts = self.counts.lock().expect("the address book");
        let n = counts.entry(ip).or_default();
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Slot {
            book: Arc::clone(self),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.book.counts.lock().expect("the address book");
        if let Some(n) = counts.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn an_address_holds_at_most_its_slots_and_gets_them_back() {
        let book = PerAddress::new(2);
        let (a, b) = (
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)),
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)),
        );
        let first = book.take(a).expect("one");
        let second = book.take(a).expect("two");
        assert!(book.take(a).is_none(), "a third waits for one to end");
        assert!(book.take(b).is_some(), "another address has its own");
        drop(first);
        let again = book.take(a).expect("given back");
        drop((second, again));
        assert!(book.counts.lock().unwrap().is_empty(), "nothing kept");
    }
}
