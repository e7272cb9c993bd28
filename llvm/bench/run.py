#!/usr/bin/env python3
"""Overhead of sequential consistency by default on real C code.

Fetches C libraries bundled in crates from crates.io (through cargo, into a
cache directory), builds each with stock clang-19 -O2 and with sc-cc -O2 in
both store styles, checks that every build produces the same output, and
times them: several invocations per configuration, interleaved; per
invocation the mean of the iterations after warm-up; over invocations the
mean ratio to stock with a Student's t 95% confidence interval; across
workloads the geometric mean.
"""
import argparse
import concurrent.futures as futures
import glob
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCCC = os.path.join(REPO, "bin", "sc-cc")
CLANG = os.environ.get("SC_CLANG", "clang-19")
CACHE = os.environ.get(
    "VBD_CACHE",
    os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "vbd"))

CRATES = {
    "libsqlite3-sys": '{ version = "=0.30.1", features = ["bundled"] }',
    "zstd-sys": '"=2.1.2"',
    "libz-sys": '{ version = "=1.1.31", features = ["static"] }',
    "lz4-sys": '"=1.11.1"',
}

CONFIGS = {
    "stock": [CLANG, "-O2"],
    "sc-xchg": [SCCC, "--sc-store=xchg", "-O2"],
    "sc-mfence": [SCCC, "--sc-store=mfence", "-O2"],
}

# Two-sided 95% Student's t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160,
       14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086, 25: 2.060, 30: 2.042}


def t95(df):
    if df in T95:
        return T95[df]
    keys = sorted(k for k in T95 if k <= df)
    return T95[keys[-1]] if df < 120 else 1.96


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def fetch():
    """Fetch the crates with cargo; return {crate: source dir}."""
    proj = os.path.join(CACHE, "llvm-bench", "fetch")
    os.makedirs(os.path.join(proj, "src"), exist_ok=True)
    deps = "\n".join("%s = %s" % kv for kv in CRATES.items())
    manifest = ('[package]\nname = "vbd-bench-fetch"\nversion = "0.0.0"\n'
                'edition = "2021"\npublish = false\n\n[dependencies]\n%s\n' % deps)
    with open(os.path.join(proj, "Cargo.toml"), "w") as f:
        f.write(manifest)
    with open(os.path.join(proj, "src", "main.rs"), "w") as f:
        f.write("fn main() {}\n")
    cargo = shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
    subprocess.run([cargo, "fetch", "--quiet"], cwd=proj, check=True)
    meta = json.loads(subprocess.run(
        [cargo, "metadata", "--format-version", "1", "--quiet"], cwd=proj,
        check=True, capture_output=True, text=True).stdout)
    dirs = {}
    for p in meta["packages"]:
        if p["name"] in CRATES:
            dirs[p["name"]] = os.path.dirname(p["manifest_path"])
    missing = set(CRATES) - set(dirs)
    if missing:
        sys.exit("bench: cargo did not provide %s" % ", ".join(sorted(missing)))
    return dirs


def workloads(src):
    """name -> (sources, extra flags, libs, driver, default args)."""
    sq = os.path.join(src["libsqlite3-sys"], "sqlite3")
    zl = os.path.join(src["libz-sys"], "src", "zlib")
    lz = os.path.join(src["lz4-sys"], "liblz4", "lib")
    zs = os.path.join(src["zstd-sys"], "zstd", "lib")
    zlib_files = ["adler32", "compress", "crc32", "deflate", "inflate",
                  "inftrees", "inffast", "trees", "uncompr", "zutil"]
    zstd_files = sorted(glob.glob(os.path.join(zs, "common", "*.c")) +
                        glob.glob(os.path.join(zs, "compress", "*.c")) +
                        glob.glob(os.path.join(zs, "decompress", "*.c")))
    return {
        "sqlite": dict(srcs=[os.path.join(sq, "sqlite3.c")],
                       flags=["-I" + sq, "-DSQLITE_THREADSAFE=1",
                              "-DSQLITE_OMIT_LOAD_EXTENSION"],
                       libs=["-lm"], driver="sqlite_bench.c"),
        "zlib": dict(srcs=[os.path.join(zl, f + ".c") for f in zlib_files],
                     flags=["-I" + zl, "-DHAVE_UNISTD_H", "-DHAVE_STDARG_H"],
                     libs=[], driver="zlib_bench.c"),
        "lz4": dict(srcs=[os.path.join(lz, "lz4.c")], flags=["-I" + lz],
                    libs=[], driver="lz4_bench.c"),
        # Plain C only: the x86-64 assembly Huffman decoder would bypass
        # the compiler, and so the SC passes.
        "zstd": dict(srcs=zstd_files,
                     flags=["-I" + zs, "-I" + os.path.join(zs, "common"),
                            "-DZSTD_MULTITHREAD", "-DZSTD_DISABLE_ASM"],
                     libs=[], driver="zstd_bench.c"),
    }


PLUGIN = os.environ.get("SC_PLUGIN", os.path.join(REPO, "llvm", "build", "VolatileByDefault.so"))


def fresh(out, inputs):
    """True if `out` exists and is newer than every input that exists."""
    if not os.path.exists(out):
        return False
    t = os.path.getmtime(out)
    return all(not os.path.exists(i) or os.path.getmtime(i) < t for i in inputs)


def build(names, wl, outdir, jobs):
    """Compile every (workload, config) with up to `jobs` compilers at once."""
    tasks, links = [], []
    for name in names:
        w = wl[name]
        for cfg, cc in CONFIGS.items():
            d = os.path.join(outdir, cfg, name)
            os.makedirs(d, exist_ok=True)
            objs = []
            for s in w["srcs"] + [os.path.join(HERE, "drivers", w["driver"])]:
                o = os.path.join(d, os.path.basename(s)[:-2] + ".o")
                objs.append(o)
                if not fresh(o, [s] + ([PLUGIN] if cfg != "stock" else [])):
                    tasks.append(cc + ["-w", "-pthread", "-I" + os.path.join(HERE, "drivers")]
                                 + w["flags"] + ["-c", s, "-o", o])
            links.append(cc + ["-pthread"] + objs + w["libs"] +
                         ["-o", os.path.join(d, name)])
    log("bench: compiling %d files" % len(tasks))

    def run(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("command failed: %s\n%s" % (" ".join(cmd), r.stderr))

    with futures.ThreadPoolExecutor(jobs) as ex:
        for f in futures.as_completed([ex.submit(run, t) for t in tasks]):
            f.result()
    for l in links:
        run(l)


def invoke(binary, iters, args):
    r = subprocess.run([binary, str(iters)] + args, capture_output=True,
                       text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("%s exited with %d: %s" % (binary, r.returncode, r.stderr))
    times = [float(m.group(1)) for m in re.finditer(r"^iter \d+ ([\d.]+)$", r.stdout, re.M)]
    check = re.search(r"^checksum (\w+)$", r.stdout, re.M).group(1)
    return times, check


def mean(xs):
    return sum(xs) / len(xs)


def ci95(xs):
    m = mean(xs)
    if len(xs) < 2:
        return [m, m]
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    h = t95(len(xs) - 1) * sd / math.sqrt(len(xs))
    return [m - h, m + h]


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ver = subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return {"cpu": cpu, "cores": os.cpu_count(), "clang": ver,
            "kernel": platform.release()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_const", const="quick", dest="mode")
    g.add_argument("--full", action="store_const", const="full", dest="mode")
    g.add_argument("--smoke", action="store_const", const="smoke", dest="mode",
                   help="build and compare outputs only, no timing")
    ap.add_argument("--workloads", default="sqlite,zlib,lz4,zstd")
    ap.add_argument("--invocations", type=int)
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "results"),
                    help="builds go to OUT/build, reports to OUT/<mode>")
    a = ap.parse_args()
    mode = a.mode or "quick"
    inv = a.invocations or {"smoke": 1, "quick": 3, "full": 10}[mode]
    its = a.iterations or {"smoke": 1, "quick": 3, "full": 5}[mode]
    if mode != "smoke" and its <= a.warmup:
        sys.exit("bench: --iterations must exceed --warmup (%d)" % a.warmup)

    src = fetch()
    wl = workloads(src)
    names = [n.strip() for n in a.workloads.split(",") if n.strip()]
    for n in names:
        if n not in wl:
            sys.exit("bench: unknown workload '%s' (known: %s)" % (n, ", ".join(wl)))
    # Smoke runs use small inputs; timing runs the drivers' defaults.
    small = {"sqlite": ["5000"], "zlib": ["1000000"], "lz4": ["4000000"],
             "zstd": ["2000000"]}
    build(names, wl, os.path.join(a.out, "build"), a.jobs)

    per = {n: {c: [] for c in CONFIGS} for n in names}
    sums = {n: {} for n in names}
    cfgs = list(CONFIGS)
    for r in range(inv):
        for n in names:
            # Rotate the order so no configuration always runs first.
            for c in cfgs[r % len(cfgs):] + cfgs[:r % len(cfgs)]:
                binary = os.path.join(a.out, "build", c, n, n)
                t, chk = invoke(binary, its, small[n] if mode == "smoke" else [])
                sums[n].setdefault(c, set()).add(chk)
                if mode != "smoke":
                    per[n][c].append(mean(t[a.warmup:]))
                    log("bench: round %d %-7s %-9s %9.1f ms" % (r + 1, n, c, per[n][c][-1]))

    bad = [n for n in names if len(set().union(*sums[n].values())) != 1]
    for n in names:
        log("bench: %-7s checksums %s" % (n, {c: sorted(s) for c, s in sums[n].items()}))
    if bad:
        print("bench: outputs differ between builds for: %s" % ", ".join(bad))
        return 1
    if mode == "smoke":
        print("bench: smoke: %s: identical output from %s" % (", ".join(names), ", ".join(cfgs)))
        return 0

    info = machine()
    info.update({"invocations": inv, "iterations": its, "warmup": a.warmup})
    report = os.path.join(a.out, mode)
    os.makedirs(report, exist_ok=True)
    rows = []
    for c in cfgs[1:]:
        wls = []
        for n in names:
            ratios = [s / b for s, b in zip(per[n][c], per[n]["stock"])]
            wls.append({"name": n, "ratio": round(mean(ratios), 4),
                        "ci95": [round(x, 4) for x in ci95(ratios)],
                        "stock_ms": round(mean(per[n]["stock"]), 2),
                        "sc_ms": round(mean(per[n][c]), 2)})
        geo = math.exp(mean([math.log(w["ratio"]) for w in wls]))
        doc = {"store_style": c[3:], "geomean": round(geo, 4),
               "max": max(w["ratio"] for w in wls), "workloads": wls,
               "machine": info}
        with open(os.path.join(report, "%s.json" % c), "w") as f:
            json.dump(doc, f, indent=2)
        rows.append((c, doc))
    md = ["| workload | stock ms | " + " | ".join(
        "%s ms | %s ratio (95%% CI)" % (c, c) for c, _ in rows) + " |",
          "|---|---:|" + "---:|---:|" * len(rows)]
    for i, n in enumerate(names):
        cells = ["%.1f" % rows[0][1]["workloads"][i]["stock_ms"]]
        for c, d in rows:
            w = d["workloads"][i]
            cells += ["%.1f" % w["sc_ms"], "%.2f (%.2f-%.2f)" % (w["ratio"], w["ci95"][0], w["ci95"][1])]
        md.append("| %s | %s |" % (n, " | ".join(cells)))
    md.append("| **geomean** | | " + " | ".join(" | **%.2f**" % d["geomean"] for _, d in rows) + " |")
    md.append("| **max** | | " + " | ".join(" | %.2f" % d["max"] for _, d in rows) + " |")
    md.append("")
    md.append("%s, %d cores, %s; %d invocations x %d iterations (first %d discarded) per configuration." % (
        info["cpu"], info["cores"], info["clang"], inv, its, a.warmup))
    text = "\n".join(md) + "\n"
    with open(os.path.join(report, "overhead.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
