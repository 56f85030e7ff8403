//! Stopping cleanly on signals: the program's part of the clean-up, the library keeping the
//! record of the files to remove ([`millbase::remove_held_files`]).

use std::io;

/// The conventional name of a signal this process handles.
fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}

/// From now on, SIGINT (Ctrl-C), SIGTERM and SIGHUP remove the lock and temporary files
/// this process holds, print one line on standard error saying so and end it with status
/// 128 + the signal's number (130, 143, 129), whatever its threads are doing. SIGXFSZ is
/// ignored, so that a file-size limit (`ulimit -f`) makes writes fail with an error naming
/// the file instead of killing the process. Installed once; later calls do nothing.
pub fn stop_cleanly_on_signals() -> io::Result<()> {
    use std::sync::OnceLock;
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    // SAFETY: setting a signal's disposition to "ignore" has no preconditions.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let mut signals =
        signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM, libc::SIGHUP])?;
    std::thread::Builder::new()
        .name("millbase-signals".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            // No thread makes a file after this.
            millbase::remove_held_files();
            // Below a progress bar, if one is drawn.
            use std::io::IsTerminal;
            let newline = if io::stderr().is_terminal() { "\n" } else { "" };
            eprintln!(
                "{newline}millbase: stopped by {}: its lock and temporary files removed, the \
                 finished tables kept; run the same command again to resume",
                signal_name(signal)
            );
            // Without running destructors or exit handlers while other threads work.
            signal_hook::low_level::exit(128 + signal);
        })?;
    let _ = INSTALLED.set(());
    Ok(())
}
