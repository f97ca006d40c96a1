//! The komadai binary: a thin wrapper around [`komadai::cli`].

fn main() -> std::process::ExitCode {
    komadai::cli::main()
}
