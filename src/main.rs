//! The `millbase` command-line program: a thin shell over the library's command-line front end.

fn main() {
    millbase::run_cli();
}
