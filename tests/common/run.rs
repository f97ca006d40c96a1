//! Runs the `komadai` binary as a user would, for the tests of its commands.

use std::process::Command;

/// Runs `komadai` with `args` and no input: (success, stdout, stderr).
pub fn komadai(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_komadai"))
        .args(args)
        .output()
        .expect("komadai starts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
