//! Requests for a table another live process runs are forwarded to it:
//! HTTP requests and websockets alike (the upgrade is forwarded, then the
//! two connections are joined byte for byte), so a browser or the load
//! generator behind a round-robin proxy never knows which process it
//! reached. A new table is created on the least-loaded process the same
//! way. A forwarded request is marked with the cluster's secret, and its
//! receiver serves it itself: nothing is forwarded twice. It names its
//! client's address, which its receiver believes with the secret only: the
//! limits per address count the client, not the process that forwarded it.
//! Anyone else's mark and named address are taken off the request: it is
//! an ordinary client's, routed like any other, and the secret never goes
//! back in an answer.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;

use super::Cluster;
use crate::App;
use crate::auth::valid_invite;
use crate::protocol::{ErrorBody, ErrorCode};

/// The mark of a forwarded request: the cluster's secret.
const FORWARDED: HeaderName = HeaderName::from_static("x-tripoley-forwarded");

/// The address of a forwarded request's client, as its forwarder saw it.
const CLIENT: HeaderName = HeaderName::from_static("x-tripoley-client");

/// How long the owner has to accept a forwarded connection.
const CONNECT: Duration = Duration::from_secs(3);

/// How long the owner has to answer a forwarded request (API requests are
/// answered at once; a process that does not is hung).
const ANSWER: Duration = Duration::from_secs(3);

/// What a request is about, for routing.
#[derive(Debug, PartialEq, Eq)]
enum Target<'a> {
    /// A table: `/ws/{invite}`, `/api/tables/{invite}[/...]`.
    Table(&'a str),
    /// `POST /api/tables`: a new table.
    Create,
    /// Anything else: answered here.
    Here,
}

fn target<'a>(method: &Method, path: &'a str) -> Target<'a> {
    let invite = path
        .strip_prefix("/ws/")
        .or_else(|| path.strip_prefix("/api/tables/"))
        .map(|rest| rest.split('/').next().unwrap_or(rest));
    match invite {
        Some(invite) if valid_invite(invite) => Target::Table(invite),
        None if path == "/api/tables" && method == Method::POST => Target::Create,
        _ => Target::Here,
    }
}

/// The middleware: serves a request here, or forwards it to the process
/// that runs its table (or should hold a new one). If the registry cannot
/// be read, the request is served here; if this process is out of touch
/// with the database, a table's request (or a create) is answered "try
/// again" at once.
pub(crate) async fn route(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let Some(cluster) = app.cluster.clone() else {
        return next.run(req).await;
    };
    // Out of touch with the database, no table can run or be found here.
    if !cluster.in_touch() && target(req.method(), req.uri().path()) != Target::Here {
        return unreachable();
    }
    if vouched_for(&cluster, &mut req) {
        return next.run(req).await;
    }
    let target = target(req.method(), req.uri().path());
    let to = match target {
        Target::Here => None,
        Target::Table(invite) if app.runs(invite).await => None,
        Target::Table(invite) => cluster.owner(invite).await.ok().flatten(),
        Target::Create => cluster.place().await.ok().flatten(),
    };
    let Some(addr) = to else {
        return next.run(req).await;
    };
    match connect(&addr).await {
        Some(stream) => forward(req, stream, cluster, addr).await,
        // The least-loaded process cannot be reached (it has just died, and
        // its registration has not expired yet): any process can hold a
        // new table.
        None if target == Target::Create => next.run(req).await,
        None => unreachable(),
    }
}

/// Whether `req` was forwarded by a process of the cluster: it carries the
/// cluster's secret. Then it counts as the client it names for every limit
/// per address (a create's caps, the budgets of analyses and replays). The
/// mark and the named address are taken off the request either way: a
/// request without the secret is an ordinary client's, and nothing it
/// claims is passed on.
///
/// Where the request comes from proves nothing, and is not checked: a
/// reverse proxy on a server's own host connects from that server's
/// address, and a process may reach another from an address other than
/// the one it registered (a host with several).
fn vouched_for(cluster: &Cluster, req: &mut Request) -> bool {
    let mark = req.headers_mut().remove(&FORWARDED);
    let named = req.headers_mut().remove(&CLIENT);
    if !mark.is_some_and(|m| cluster.is_secret(&m)) {
        return false;
    }
    let named = named
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<IpAddr>().ok());
    if let (Some(client), Some(&ConnectInfo(peer))) =
        (named, req.extensions().get::<ConnectInfo<SocketAddr>>())
    {
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(client, peer.port())));
    }
    true
}

/// A connection to the process at `addr`, unless it cannot be reached.
async fn connect(addr: &str) -> Option<tokio::net::TcpStream> {
    let stream = tokio::time::timeout(CONNECT, tokio::net::TcpStream::connect(addr))
        .await
        .ok()?
        .ok()?;
    let _ = stream.set_nodelay(true);
    Some(stream)
}

/// "Try again": the process that runs the table cannot be reached (it is
/// stopping, or has just died: its tables move within the lease time).
fn unreachable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, crate::api_error::RETRY_AFTER)],
        axum::Json(moving()),
    )
        .into_response()
}

/// The answer about a table that is moving to another process.
pub(crate) fn moving() -> ErrorBody {
    ErrorBody::new(
        ErrorCode::Busy,
        "the server running this table is restarting: try again in a few seconds",
    )
}

/// Sends `req` to the process at `addr` over `stream`, marked with the
/// cluster's secret, and returns its answer (without the cluster's headers,
/// whatever the owner sent), or "try again" if it does not answer within
/// [`ANSWER`] (it hangs). A websocket upgrade the owner accepts joins the client's
/// connection to the owner's until either closes, or the owner leaves the
/// live processes (it hangs or died: its tables move, and the client,
/// cut off, reconnects to where its table runs now).
async fn forward(
    mut req: Request,
    stream: tokio::net::TcpStream,
    cluster: Arc<Cluster>,
    addr: String,
) -> Response {
    let client_side = hyper::upgrade::on(&mut req);
    req.headers_mut().insert(FORWARDED, cluster.secret.clone());
    let client = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .and_then(|ConnectInfo(c)| HeaderValue::from_str(&c.ip().to_string()).ok());
    match client {
        Some(client) => req.headers_mut().insert(CLIENT, client),
        None => req.headers_mut().remove(&CLIENT),
    };
    let asked = async {
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake::<_, Body>(TokioIo::new(stream))
                .await
                .ok()?;
        tokio::spawn(connection.with_upgrades());
        sender.send_request(req).await.ok()
    };
    let Ok(Some(mut answer)) = tokio::time::timeout(ANSWER, asked).await else {
        return unreachable();
    };
    answer.headers_mut().remove(&FORWARDED);
    answer.headers_mut().remove(&CLIENT);
    if answer.status() == StatusCode::SWITCHING_PROTOCOLS {
        let owner_side = hyper::upgrade::on(&mut answer);
        tokio::spawn(async move {
            if let (Ok(client), Ok(owner)) = tokio::join!(client_side, owner_side) {
                let (mut client, mut owner) = (TokioIo::new(client), TokioIo::new(owner));
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut client, &mut owner) => {}
                    () = cluster.gone(&addr) => {}
                }
            }
        });
    }
    answer.map(Body::new)
}

#[cfg(test)]
mod tests {
    use super::{Method, Target, target};

    #[test]
    fn requests_are_routed_by_their_table() {
        let get = Method::GET;
        let post = Method::POST;
        assert_eq!(target(&get, "/ws/ABCD1234"), Target::Table("ABCD1234"));
        assert_eq!(
            target(&post, "/api/tables/ABCD1234/sit"),
            Target::Table("ABCD1234")
        );
        assert_eq!(
            target(&get, "/api/tables/ABCD1234"),
            Target::Table("ABCD1234")
        );
        assert_eq!(target(&post, "/api/tables"), Target::Create);
        assert_eq!(target(&get, "/api/tables"), Target::Here);
        assert_eq!(target(&get, "/ws/no!"), Target::Here);
        assert_eq!(target(&get, "/t/ABCD1234"), Target::Here);
    }
}
