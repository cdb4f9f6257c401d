//! The PROXY protocol, version 2 (HAProxy's `send-proxy-v2`): behind a
//! proxy every connection comes from the proxy's address, so the limits per
//! client address would count the proxy. A connection from a configured
//! proxy address (`--proxy-from`) starts with a binary header naming the
//! client's address, which the listener then uses instead (issue 30,
//! finding 7). Nobody else's header is read: from any other address those
//! bytes are a malformed HTTP request and refused as one.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// The header's first twelve bytes.
const SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";

/// The client address a trusted proxy's header names on `stream` (from
/// `peer`); the proxy's own for a `LOCAL` connection (its health checks)
/// or an address family other than TCP over IPv4 or IPv6. `None` for a
/// header that is malformed or late past `wait`: the connection is dropped.
pub(crate) async fn client_address(
    stream: &mut TcpStream,
    peer: SocketAddr,
    wait: Duration,
) -> Option<SocketAddr> {
    tokio::time::timeout(wait, read_header(stream, peer))
        .await
        .ok()
        .flatten()
}

async fn read_header(stream: &mut TcpStream, peer: SocketAddr) -> Option<SocketAddr> {
    let mut head = [0u8; 16];
    stream.read_exact(&mut head).await.ok()?;
    if head[..12] != SIGNATURE || head[12] >> 4 != 2 {
        return None;
    }
    let len = usize::from(u16::from_be_bytes([head[14], head[15]]));
    // The address block and the proxy's extensions: at most 64 KiB.
    let mut block = vec![0u8; len];
    stream.read_exact(&mut block).await.ok()?;
    parse(head[12] & 0x0F, head[13], &block, peer)
}

/// The client's address from a header's command, family and address block.
fn parse(command: u8, family: u8, block: &[u8], peer: SocketAddr) -> Option<SocketAddr> {
    match command {
        0 => return Some(peer),
        1 => {}
        _ => return None,
    }
    match family {
        0x11 if block.len() >= 12 => {
            let ip = Ipv4Addr::new(block[0], block[1], block[2], block[3]);
            let port = u16::from_be_bytes([block[8], block[9]]);
            Some(SocketAddr::new(IpAddr::V4(ip), port))
        }
        0x21 if block.len() >= 36 => {
            let octets: [u8; 16] = block[..16].try_into().ok()?;
            let port = u16::from_be_bytes([block[32], block[33]]);
            Some(SocketAddr::new(IpAddr::V6(Ipv6Addr::from(octets)), port))
        }
        0x11 | 0x21 => None,
        _ => Some(peer),
    }
}

/// A PROXY v2 header for a TCP over IPv4 connection from `client` to
/// `server` (what HAProxy sends; for tests and the load generator).
#[must_use]
pub fn header_v4(client: SocketAddrV4Pair) -> Vec<u8> {
    let (client, server) = client;
    let mut h = SIGNATURE.to_vec();
    h.extend_from_slice(&[0x21, 0x11, 0, 12]);
    h.extend_from_slice(&client.ip().octets());
    h.extend_from_slice(&server.ip().octets());
    h.extend_from_slice(&client.port().to_be_bytes());
    h.extend_from_slice(&server.port().to_be_bytes());
    h
}

/// A PROXY v2 header for a TCP over IPv6 connection from `client` to
/// `server` (an IPv4 address written IPv4-mapped); for tests that make
/// their own client addresses.
#[must_use]
pub fn header_v6(client: SocketAddr, server: SocketAddr) -> Vec<u8> {
    let six = |a: SocketAddr| match a.ip() {
        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
        IpAddr::V6(v6) => v6,
    };
    let mut h = SIGNATURE.to_vec();
    h.extend_from_slice(&[0x21, 0x21, 0, 36]);
    h.extend_from_slice(&six(client).octets());
    h.extend_from_slice(&six(server).octets());
    h.extend_from_slice(&client.port().to_be_bytes());
    h.extend_from_slice(&server.port().to_be_bytes());
    h
}

/// A client's and a server's IPv4 socket addresses.
pub type SocketAddrV4Pair = (std::net::SocketAddrV4, std::net::SocketAddrV4);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_names_the_client_and_local_names_the_proxy() {
        let peer: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let h = header_v4((
            "10.1.2.3:4567".parse().unwrap(),
            "10.0.0.1:80".parse().unwrap(),
        ));
        assert_eq!(h[..12], SIGNATURE);
        assert_eq!(
            parse(h[12] & 0x0F, h[13], &h[16..], peer),
            Some("10.1.2.3:4567".parse().unwrap())
        );
        assert_eq!(parse(0, 0, &[], peer), Some(peer));
        assert_eq!(parse(1, 0x11, &[1, 2, 3], peer), None, "too short");
        assert_eq!(parse(7, 0x11, &h[16..], peer), None, "no such command");
    }
}
