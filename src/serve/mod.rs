//! `millbase serve`: the explorer, a local web page over a directory of tables, and the JSON
//! API beside it.
//!
//! Built on axum and tokio. The page's files are compiled into the binary (nothing is read
//! from disk or the network to show it); probes, which read memory-mapped tables and may
//! wait on the disk, run on tokio's blocking thread pool so that slow ones never stall the
//! connections. Routes: `/` (the page; its position is in the query, `/?fen=...`),
//! `/app.js`, `/style.css`, `/favicon.svg`, and the API of [`api`]. Anything else is a 404;
//! a method other than GET or HEAD a 405. Connections are capped and idle or slow ones
//! closed: see [`conn`].

pub mod api;
pub mod conn;

pub use api::{Explorer, Reply};
pub use conn::Limits;

use axum::Router;
use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::Response;
use axum::routing::get;
use std::sync::Arc;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// The page may load its own script, style and API answers, and nothing from elsewhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// Threads for probes: more than the cores, so that a probe waiting on the disk leaves the
/// cores to the others, and few enough that a burst of requests queues instead of thrashing.
const PROBE_THREADS: usize = 16;

/// Serve `explorer` on `listener` within `limits` until the process is stopped.
pub fn run(
    listener: std::net::TcpListener,
    explorer: Explorer,
    limits: Limits,
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .thread_name("millbase-serve")
        .max_blocking_threads(PROBE_THREADS)
        .build()?;
    let app = router(Arc::new(explorer));
    runtime.block_on(async move {
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        conn::serve(listener, app, limits).await;
        Ok(())
    })
}

/// The routes.
fn router(explorer: Arc<Explorer>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset("image/svg+xml", FAVICON_SVG) }),
        )
        .route("/api/info", get(info))
        .route("/api/probe", get(probe))
        .route("/api/pv", get(pv))
        .route("/api/moves", get(moves))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(explorer)
}

type Ex = State<Arc<Explorer>>;

async fn info(State(ex): Ex, RawQuery(q): RawQuery) -> Response {
    answer(ex, q, Explorer::info).await
}

async fn probe(State(ex): Ex, RawQuery(q): RawQuery) -> Response {
    answer(ex, q, Explorer::probe).await
}

async fn pv(State(ex): Ex, RawQuery(q): RawQuery) -> Response {
    answer(ex, q, Explorer::pv).await
}

async fn moves(State(ex): Ex, RawQuery(q): RawQuery) -> Response {
    answer(ex, q, Explorer::moves).await
}

/// Run an endpoint on the blocking pool. A panic (a bug) is answered with a 500 and reported
/// on standard error; the server goes on.
async fn answer(
    ex: Arc<Explorer>,
    query: Option<String>,
    endpoint: fn(&Explorer, Option<&str>) -> Reply,
) -> Response {
    let reply = tokio::task::spawn_blocking(move || endpoint(&ex, query.as_deref()))
        .await
        .unwrap_or_else(|e| {
            eprintln!("millbase serve: a request failed: {e}");
            Reply::error(
                500,
                "internal error: the request failed (please report this bug)",
            )
        });
    if reply.status == 500 {
        eprintln!("millbase serve: {}", reply.body);
    }
    json(reply)
}

async fn not_found(uri: Uri) -> Response {
    let path: String = uri.path().chars().take(200).collect();
    json(Reply::error(404, format!("not found: {path}")))
}

async fn method_not_allowed() -> Response {
    let mut r = json(Reply::error(405, "method not allowed: use GET"));
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    r
}

/// A response with the headers every answer carries.
fn response(status: u16, content_type: &'static str, body: Body) -> Response {
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // Tables may be added while the server runs: always ask again.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

fn json(reply: Reply) -> Response {
    let body = format!("{}\n", reply.body);
    response(reply.status, "application/json", Body::from(body))
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut r = response(200, content_type, Body::from(body));
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    r
}
