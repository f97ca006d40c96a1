#!/usr/bin/env bash
# Prints the path of the komadai binary the check scripts run: $KOMADAI_BIN
# when set (CI passes the binary `cargo test` already built, instead of
# compiling every dependency a second time for a release build), otherwise
# the release build, built first. Build output goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${KOMADAI_BIN:-}" ]; then
    if [ ! -x "$KOMADAI_BIN" ]; then
        echo "KOMADAI_BIN=$KOMADAI_BIN is not an executable file" >&2
        exit 1
    fi
    echo "$KOMADAI_BIN"
else
    cargo build --release --quiet --bin komadai >&2
    echo "$PWD/target/release/komadai"
fi
