#!/usr/bin/env bash
# Litmus tests: build each test with stock clang-19 and with sc-cc, run it,
# and count outcomes that sequential consistency forbids.
#
#   run.sh [--quick|--full]
#
# Stock builds only report their counts (x86-TSO cannot show every shape).
# Every sc-cc build must show no forbidden outcome and must not hang; any
# such result fails the run.  The last line is "litmus: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
mode=quick
case "${1:-}" in
  ""|--quick) mode=quick ;;
  --full) mode=full ;;
  *) echo "run.sh: unknown argument '$1' (expected --quick or --full)" >&2; exit 2 ;;
esac

out=$here/out
mkdir -p "$out"
CC=${SC_CLANG:-clang-19}
SCCC=$repo/bin/sc-cc

# test name : source : extra flags : iterations quick : iterations full :
# whether stock builds are expected to hang (they then get a short alarm)
tests=(
  "sb:sb.c::200000:2000000:0"
  "dekker:dekker.c::200000:1000000:1"
  "peterson:peterson.c::200000:1000000:1"
  "spin:spin.c::20:200:1"
  "publish:publish.c::100000:1000000:0"
  "sb_atomic_seqcst:sb.c:-DVIA_ATOMIC:200000:2000000:0"
  "sb_atomic_relaxed:sb.c:-DVIA_ATOMIC -DRELAXED:200000:2000000:0"
  "sb_memcpy_chk:sb.c:-DVIA_COPY -D_FORTIFY_SOURCE=2:200000:2000000:0"
  "sb_store_chain:sb.c:-DVIA_CHAIN:200000:2000000:0"
  "sb_snprintf_chk:sb.c:-DVIA_FORMAT -D_FORTIFY_SOURCE=2:100000:1000000:0"
  "mp_copy:mp_copy.c::100000:1000000:0"
  "nontemporal:nontemporal.c::200000:2000000:0"
  "nontemporal_si32:nontemporal.c:-DVIA_SI32:200000:2000000:0"
  "masked_maskmov:masked.c:-DVIA_MASKMOV:100000:1000000:0"
  "masked_maskmov_variable:masked.c:-DVIA_MASKMOV -DVARIABLE_MASK:100000:1000000:0"
  "masked_avx2:masked.c:-DVIA_AVX2:100000:1000000:0"
  "masked_avx2_variable:masked.c:-DVIA_AVX2 -DVARIABLE_MASK:100000:1000000:0"
  "masked_avx512:masked.c:-DVIA_AVX512:100000:1000000:0"
  "masked_avx512_variable:masked.c:-DVIA_AVX512 -DVARIABLE_MASK:100000:1000000:0"
  "spin_maskload:spin.c:-DVIA_MASKLOAD:20:200:1"
  "byval:byval.c::20:200:1"
  "bitfield:bitfield.c::100000:1000000:0"
)
# config name : compiler command.  Every run is bounded by an alarm: 30 s,
# or 5 s for a stock build of a test whose wait loops clang may hoist.  The
# limits are far above normal run times (well under a second) so that a
# loaded machine does not turn slowness into a reported hang.
configs=(
  "stock-O2:$CC -O2"
  "stock-O0:$CC -O0"
  "sc-xchg-O2:$SCCC --sc-store=xchg -O2"
  "sc-mfence-O2:$SCCC --sc-store=mfence -O2"
  "sc-xchg-O0:$SCCC --sc-store=xchg -O0"
  "sc-mfence-O0:$SCCC --sc-store=mfence -O0"
)
reps=1
[ "$mode" = full ] && reps=3

passed=0
failed=0
printf '| test | build | runs | forbidden outcomes | verdict |\n'
printf '|---|---|---:|---:|---|\n'
for t in "${tests[@]}"; do
  IFS=: read -r name src flags nq nf stock_hangs <<<"$t"
  iters=$nq
  [ "$mode" = full ] && iters=$nf
  for c in "${configs[@]}"; do
    IFS=: read -r cname ccmd <<<"$c"
    secs=30
    [ "${cname%%-*}" = stock ] && [ "$stock_hangs" = 1 ] && secs=5
    bin=$out/$name.$cname
    # shellcheck disable=SC2086
    if ! $ccmd -pthread $flags "$here/$src" -o "$bin" 2>"$bin.log"; then
      echo "litmus: build of $name with $cname failed:" >&2
      cat "$bin.log" >&2
      failed=$((failed + 1))
      continue
    fi
    total=0
    runs=0
    hang=0
    skipped=0
    for _ in $(seq "$reps"); do
      line=$("$bin" "$iters" "$secs" 2>/dev/null | grep '^RESULT' | tail -n 1)
      case "$line" in
        *" skipped "*) skipped=1 ;;
        *" hang") hang=$((hang + 1)) ;;
        *nonsc=*)
          n=${line#*nonsc=}; n=${n%% *}
          total=$((total + n)); runs=$((runs + iters)) ;;
        *) echo "litmus: $name ($cname) printed no result" >&2; hang=$((hang + 1000)) ;;
      esac
    done
    count="$total"
    [ "$hang" -gt 0 ] && count="$total + $hang hang(s)"
    bites=$(( total > 0 || hang > 0 ))
    if [ "$skipped" = 1 ]; then
      # The CPU lacks the test's instruction set: nothing ran, nothing passed.
      printf '| %s | %s | 0 | - | skipped (%s) |\n' "$name" "$cname" "${line#*skipped }"
      continue
    fi
    case "$cname:$name" in
      *:sb_atomic_relaxed)
        # Programmer-relaxed atomics may reorder under every build.
        verdict="info (relaxed atomics are left relaxed)"; passed=$((passed + 1)) ;;
      stock-*:sb_atomic_seqcst)
        if [ "$bites" = 1 ]; then verdict="FAIL (seq_cst atomics broken)"; failed=$((failed + 1));
        else verdict="ok"; passed=$((passed + 1)); fi ;;
      stock-*)
        if [ "$bites" = 1 ]; then verdict="bites"; else verdict="not observed"; fi
        passed=$((passed + 1)) ;;
      *)
        if [ "$bites" = 1 ]; then verdict="FAIL (not SC)"; failed=$((failed + 1));
        else verdict="ok"; passed=$((passed + 1)); fi ;;
    esac
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$cname" "$((runs > 0 ? runs : iters * reps))" "$count" "$verdict"
  done
done
echo "litmus: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
