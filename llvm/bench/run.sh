#!/usr/bin/env bash
# Benchmark: overhead of sc-cc (both store styles) against stock clang-19 -O2
# on C libraries fetched from crates.io.  See run.py --help.
#   run.sh [--quick|--full|--smoke] [--workloads sqlite,zlib,lz4,zstd] ...
# Results: llvm/bench/results/<mode>/{sc-xchg,sc-mfence}.json and overhead.md
# (results/full holds the run reported in llvm/README.md).
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 "$here/run.py" "$@"
