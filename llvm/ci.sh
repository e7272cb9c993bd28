#!/usr/bin/env bash
# CI for the C/C++ part: installs what it needs, builds the plugin, runs the
# IR tests (both store styles), the litmus tests (quick counts, both store
# styles), smoke builds of two real workloads with output comparison, and two
# real projects' own test suites, built with clang and with sc-cc's default
# store style (xchg).  --full also builds the workloads and suites with
# --sc-store=mfence and checks that sc-cc builds the plugin on first use from
# a copy of the sources.  No timing is ever asserted.
# The last line is "N passed, N failed"; the exit status is non-zero on any
# failure.
set -u
full=0
[ "${1:-}" = --full ] && full=1
configs=stock,sc-xchg
[ $full -eq 1 ] && configs=stock,sc-xchg,sc-mfence
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"

passed=0
failed=0
pass() { passed=$((passed + $1)); }
fail() { failed=$((failed + $1)); echo "ci: FAILED: $2" >&2; }
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}

# --- dependencies -----------------------------------------------------------
need=()
command -v clang-19 >/dev/null || need+=(clang-19)
command -v opt-19 >/dev/null || need+=(llvm-19)
[ -f /usr/lib/llvm-19/lib/cmake/llvm/LLVMConfig.cmake ] || need+=(llvm-19-dev)
[ -x /usr/lib/llvm-19/bin/FileCheck ] || need+=(llvm-19-tools)
[ -f /usr/lib/llvm-19/build/utils/lit/lit.py ] || need+=(llvm-19-tools)
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
command -v flock >/dev/null || need+=(util-linux)
if ! command -v cargo >/dev/null && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  need+=(cargo)
fi
if [ "${#need[@]}" -gt 0 ]; then
  echo "ci: installing ${need[*]}" >&2
  sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
         $sudo apt-get install -y -qq "${need[@]}" libclang-rt-19-dev; } >/tmp/vbd-ci-apt.log 2>&1; then
    tail -n 20 /tmp/vbd-ci-apt.log >&2
    fail 1 "installing ${need[*]}"
    finish
  fi
fi
export PATH="$PATH:$HOME/.cargo/bin"
# The bench's statistics (llvm/bench/requirements.txt).
if ! python3 -c 'import scipy' 2>/dev/null &&
   ! python3 -m pip install --quiet -r llvm/bench/requirements.txt >/tmp/vbd-ci-pip.log 2>&1; then
  tail -n 20 /tmp/vbd-ci-pip.log >&2
  fail 1 "installing scipy"
  finish
fi

# --- plugin -----------------------------------------------------------------
if cmake -S llvm -B llvm/build -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_CXX_COMPILER=clang++-19 >/tmp/vbd-ci-cmake.log 2>&1 &&
   cmake --build llvm/build -j 2 >>/tmp/vbd-ci-cmake.log 2>&1; then
  pass 1
else
  tail -n 30 /tmp/vbd-ci-cmake.log >&2
  fail 1 "building the plugin"
  finish
fi

# --- IR and driver tests (lit + FileCheck) ----------------------------------
log=/tmp/vbd-ci-lit.log
python3 /usr/lib/llvm-19/build/utils/lit/lit.py --show-all -v llvm/test >"$log" 2>&1
p=$(grep -c '^PASS: ' "$log")
f=$(grep -cE '^(FAIL|UNRESOLVED|XPASS|TIMEOUT): ' "$log")
grep -E '^(PASS|FAIL|UNRESOLVED|XPASS|TIMEOUT): ' "$log"
pass "$p"
if [ "$f" -gt 0 ] || [ "$p" -eq 0 ]; then
  grep -A40 -E '^(FAIL|UNRESOLVED): ' "$log" | head -n 200 >&2
  fail "$(( f > 0 ? f : 1 ))" "lit tests"
fi

# --- sc-cc builds the plugin on first use (--full) --------------------------
# a second build of the plugin, from a copy of the sources: a fresh clone's path
if [ $full -eq 1 ]; then
  tmp=$(mktemp -d)
  mkdir -p "$tmp/repo/llvm"
  cp -r bin "$tmp/repo/"
  cp -r llvm/CMakeLists.txt llvm/src llvm/include "$tmp/repo/llvm/"
  printf 'int x;\nint main(void) { x = 1; return x - 1; }\n' >"$tmp/t.c"
  if (unset SC_PLUGIN; "$tmp/repo/bin/sc-cc" -O2 "$tmp/t.c" -o "$tmp/t" 2>"$tmp/err") &&
     grep -q "building the VolatileByDefault plugin" "$tmp/err" &&
     [ -f "$tmp/repo/llvm/build/VolatileByDefault.so" ] && "$tmp/t"; then
    echo "PASS: sc-cc builds the plugin on first use"
    pass 1
  else
    cat "$tmp/err" >&2
    fail 1 "sc-cc first-use plugin build"
  fi
  rm -rf "$tmp"
fi

# --- litmus tests -----------------------------------------------------------
out=$(llvm/litmus/run.sh --quick)
echo "$out"
line=$(echo "$out" | tail -n 1)
if [[ "$line" =~ ^litmus:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  pass "${BASH_REMATCH[1]}"
  [ "${BASH_REMATCH[2]}" -gt 0 ] && fail "${BASH_REMATCH[2]}" "litmus tests"
else
  fail 1 "litmus runner gave no summary"
fi

# --- real workloads: built with each configuration, outputs compared -------
# lz4 single-threaded, zstd with two worker threads.
if llvm/bench/run.sh --smoke --workloads lz4,zstd --configs "$configs"; then
  pass 1
else
  fail 1 "lz4/zstd smoke build / output comparison"
fi

# --- real projects' own test suites, under clang and sc-cc ------------------
if llvm/bench/run.sh --suites --configs "$configs"; then
  pass 1
else
  fail 1 "bzip2 make test / bitarray tests"
fi

finish
