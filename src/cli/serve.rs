//! `serve`: the explorer, a local web page and JSON API over a table directory.

use super::CliError;
use super::common::{TablesArgs, other_variant};
use crate::serve::{self, Explorer, Limits};
use clap::Args;
use millbase::Tablebase;
use millbase::tables::TableDir;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};
use std::time::Duration;

/// Arguments of `millbase serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Address to listen on: 127.0.0.1 serves this machine only, 0.0.0.0 every network.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Port to listen on (0: any free port; the printed URL tells which).
    #[arg(long, default_value_t = 8080, allow_negative_numbers = true)]
    port: u16,
    /// Seconds a connection may wait for a request's head or leave its answer unread
    /// [default: 20] (hidden: for tests).
    #[arg(
        long,
        value_name = "SECS",
        value_parser = parse_seconds,
        hide = true,
        allow_negative_numbers = true
    )]
    timeout: Option<Duration>,
    /// The most connections served at once [default: half the descriptors still free, at
    /// most 1024] (hidden: for tests).
    #[arg(
        long,
        value_name = "N",
        hide = true,
        value_parser = super::common::whole_from(1u32),
        allow_negative_numbers = true
    )]
    max_connections: Option<u32>,
}

/// A positive number of seconds, fractions allowed.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|&x| x > 0.0)
        .and_then(|x| Duration::try_from_secs_f64(x).ok())
        .ok_or_else(|| format!("'{s}': expected a positive number of seconds"))
}

/// `millbase serve`: print the URL to open, then serve until stopped.
pub fn run_serve(args: &ServeArgs) -> Result<(), CliError> {
    // Any rules: where tables do not follow them the page shows the search only.
    let (v, dir) = args.tables.get()?;
    let tb = Tablebase::open(&dir, v).map_err(|e| CliError::usage(e.to_string()))?;
    // Serving another variant's tables would answer every position with an error.
    if let Some(why) = other_variant(&dir, &v) {
        return Err(CliError::usage(why));
    }
    let present = TableDir::scan(&dir).map_or(0, |t| t.sectors().count());
    let addr = SocketAddr::new(args.bind, args.port);
    let listener = TcpListener::bind(addr)
        .map_err(|e| CliError::failure(format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::failure(format!("cannot listen on {addr}: {e}")))?;
    // A server on every interface is opened through this machine's own address.
    let shown = match local.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), local.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), local.port())
        }
        _ => local,
    };
    println!(
        "millbase explorer: open http://{shown}/ (tables of {} in {}, {}; Ctrl-C stops it)",
        v.label(),
        dir.display(),
        tb.rule()
    );
    if present == 0 {
        eprintln!(
            "millbase serve: warning: no tables of variant {} in {} yet; the page names the \
             generate command for each position",
            v.label(),
            dir.display()
        );
    }
    let mut limits = Limits::default();
    limits.timeout = args.timeout.unwrap_or(limits.timeout);
    if let Some(n) = args.max_connections {
        limits.max_connections = n as usize;
    }
    serve::run(listener, Explorer::new(tb, dir), limits)
        .map_err(|e| CliError::failure(format!("the server stopped: {e}")))
}
