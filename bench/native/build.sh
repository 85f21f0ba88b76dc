#!/usr/bin/env bash
# Build the static native-anchor binary and copy it to bench/native/bin/.
#   ./build.sh        -> bin/native-anchor     (x86-64-v3: AVX2, Plonky3 8-lane packing)  [default anchor]
#   ./build.sh v4     -> bin/native-anchor-v4  (x86-64-v4 + ADX: AVX-512, 16-lane packing, ark-ff asm);
#                        optional, runs only on AVX-512 CPUs (SIGILL elsewhere)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
variant="${1:-v3}"
target=x86_64-unknown-linux-gnu
case "$variant" in
  v3) cpu=x86-64-v3; extra=""; name=native-anchor ;;
  v4) cpu=x86-64-v4; extra=",+adx"; name=native-anchor-v4 ;;
  *) echo "usage: $0 [v3|v4]" >&2; exit 2 ;;
esac
base="${CARGO_TARGET_DIR:-/work/cargo-target/native}"
# Separate target dirs per variant so switching does not rebuild everything.
if [ "$variant" = v3 ]; then export CARGO_TARGET_DIR="$base"; else export CARGO_TARGET_DIR="$base-$variant"; fi
export RUSTFLAGS="-C target-cpu=$cpu -C target-feature=+crt-static$extra"
echo "RUSTFLAGS=\"$RUSTFLAGS\" CARGO_TARGET_DIR=$CARGO_TARGET_DIR" >&2
cargo build --release --locked --target "$target" --manifest-path "$here/Cargo.toml"
mkdir -p "$here/bin"
cp "$CARGO_TARGET_DIR/$target/release/native-anchor" "$here/bin/$name"
file "$here/bin/$name"
if ldd "$here/bin/$name" 2>&1 | grep -q "=>"; then
  echo "error: $name is dynamically linked" >&2
  exit 1
fi
ls -l "$here/bin/$name"
