#!/usr/bin/env bash
# A static whir-oracle for another x86-64 host (the GPU machine has no cargo): bin/whir-oracle-<v>.
#   ./build-static.sh      -> x86-64-v3 (AVX2)
#   ./build-static.sh v4   -> x86-64-v4 (AVX-512; SIGILL on CPUs without it)
# The tests build with target-cpu=native instead (.cargo/config.toml); RUSTFLAGS overrides that here.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
variant="${1:-v3}"
case "$variant" in
  v3) cpu=x86-64-v3 ;;
  v4) cpu=x86-64-v4 ;;
  *) echo "usage: $0 [v3|v4]" >&2; exit 2 ;;
esac
target=x86_64-unknown-linux-gnu
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/cargo-target/whir-oracle}-$variant"
export RUSTFLAGS="-C target-cpu=$cpu -C target-feature=+crt-static"
cargo build --release --locked --target "$target" --manifest-path "$here/Cargo.toml"
mkdir -p "$here/bin"
cp "$CARGO_TARGET_DIR/$target/release/whir-oracle" "$here/bin/whir-oracle-$variant"
if ldd "$here/bin/whir-oracle-$variant" 2>&1 | grep -q "=>"; then echo "error: dynamically linked" >&2; exit 1; fi
ls -l "$here/bin/whir-oracle-$variant"
