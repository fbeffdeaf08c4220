//! The `fabric` command line: parse arguments, run, map errors to exit codes.

fn main() {
    // A closed stdout (`fabric ... | head`) ends the run quietly, as a
    // SIGPIPE would, instead of a panic message; any other failure to
    // print (a full disk) is an error naming the cause, exit 2.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = text.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(141);
            }
            // A full disk or a closed descriptor: a write error, not a bug.
            eprintln!("error: cannot write to standard output: {why}");
            std::process::exit(2);
        }
        default_hook(info);
    }));
    let cli = fabric::cli::parse_args();
    match fabric::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
