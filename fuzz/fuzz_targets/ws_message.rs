//! Websocket messages from clients: whatever text arrives parses as a
//! Tripoley or Napalm message or is refused, never panics, and every
//! message that parses survives a round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tripoley_server::protocol::{ClientMsg, NapalmClientMsg};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
        let again = serde_json::to_string(&msg).expect("messages serialise");
        assert_eq!(serde_json::from_str::<ClientMsg>(&again).ok(), Some(msg));
    }
    if let Ok(msg) = serde_json::from_str::<NapalmClientMsg>(text) {
        let again = serde_json::to_string(&msg).expect("messages serialise");
        assert_eq!(
            serde_json::from_str::<NapalmClientMsg>(&again).ok(),
            Some(msg)
        );
    }
});
