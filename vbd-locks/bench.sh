#!/usr/bin/env bash
# Runs vbd-locks' JMH benchmarks (src/test/java/dev/vbd/locks/bench) and the cancellation-cost probe.
#   vbd-locks/bench.sh [--java JAVA] [--json FILE] [JMH options...]   e.g. -f 2 -wi 3 -i 5 -w 1s -r 1s
#   vbd-locks/bench.sh --java JAVA --cancellation [SECONDS]   the cost of one cancellation (owner + intruder every 1 ms)
#   vbd-locks/bench.sh --java JAVA --membarrier               the cost of membarrier alone
#   vbd-locks/bench.sh --java JAVA --contention [SECONDS]     two threads contending: ops per thread, cancellations
# Build first: mvn -o install -pl vbd-locks -am -DskipTests
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
java=java json=""
while [ $# -gt 0 ]; do
  case "$1" in
    --java) java=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --cancellation) shift
      exec "$java" --enable-native-access=ALL-UNNAMED -cp "$here/target/test-classes:$here/target/classes:$(cat "$here/target/test-classpath.txt")" \
        dev.vbd.locks.bench.CancellationCost "$@" ;;
    --membarrier) shift
      exec "$java" --enable-native-access=ALL-UNNAMED -cp "$here/target/test-classes:$here/target/classes:$(cat "$here/target/test-classpath.txt")" \
        dev.vbd.locks.MembarrierProbe ;;
    --contention) shift
      exec "$java" --enable-native-access=ALL-UNNAMED -cp "$here/target/test-classes:$here/target/classes:$(cat "$here/target/test-classpath.txt")" \
        dev.vbd.locks.bench.ContentionProbe "$@" ;;
    *) break ;;
  esac
done
cp="$here/target/test-classes:$here/target/classes:$(cat "$here/target/test-classpath.txt")"
args=(-jvm "$(command -v "$java")")
[ -n "$json" ] && args+=(-rf json -rff "$json")
exec "$java" -cp "$cp" org.openjdk.jmh.Main "${args[@]}" "$@"
