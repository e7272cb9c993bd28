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

from scipy import stats

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
    "lua-src": '"=547.0.0"',
    "bzip2-sys": '"=0.1.13"',
}

# Stock clang and sc-cc in each store style, with every optimisation
# (sc-xchg, sc-mfence), with none (the paper's form: -paper), and, for the
# ablation, with the optimisations added one at a time in xchg style.
CONFIGS = {
    "stock": [CLANG, "-O2"],
    "sc-xchg": [SCCC, "--sc-store=xchg", "-O2"],
    "sc-mfence": [SCCC, "--sc-store=mfence", "-O2"],
    "sc-xchg-paper": [SCCC, "--sc-store=xchg", "--sc-optimise=none", "-O2"],
    "sc-mfence-paper": [SCCC, "--sc-store=mfence", "--sc-optimise=none", "-O2"],
    "sc-xchg+copies": [SCCC, "--sc-store=xchg", "--sc-optimise=whole-copies", "-O2"],
    "sc-xchg+copies+tso": [SCCC, "--sc-store=xchg",
                           "--sc-optimise=whole-copies,tso-barriers", "-O2"],
}
DEFAULT_CONFIGS = "stock,sc-xchg,sc-mfence"
# Workloads that run more than one thread.
MULTITHREADED = {"zstd"}

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
    lua = os.path.join(src["lua-src"], "lua-5.4.7")
    bz = os.path.join(src["bzip2-sys"], "bzip2-1.0.8")
    lua_files = sorted(f for f in glob.glob(os.path.join(lua, "*.c"))
                       if os.path.basename(f) not in ("lua.c", "luac.c"))
    bz_files = ["blocksort", "huffman", "crctable", "randtable", "compress",
                "decompress", "bzlib"]
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
        "lua": dict(srcs=lua_files, flags=["-I" + lua, "-DLUA_USE_POSIX"],
                    libs=["-lm"], driver="lua_bench.c"),
        "bzip2": dict(srcs=[os.path.join(bz, f + ".c") for f in bz_files],
                      flags=["-I" + bz, "-D_FILE_OFFSET_BITS=64"],
                      libs=[], driver="bzip2_bench.c"),
    }


PLUGIN = os.environ.get("SC_PLUGIN", os.path.join(REPO, "llvm", "build", "VolatileByDefault.so"))


def fresh(out, inputs):
    """True if `out` exists and is newer than every input that exists."""
    if not os.path.exists(out):
        return False
    t = os.path.getmtime(out)
    return all(not os.path.exists(i) or os.path.getmtime(i) < t for i in inputs)


def build(names, cfgs, wl, outdir, jobs):
    """Compile every (workload, config) with up to `jobs` compilers at once."""
    tasks, links = [], []
    for name in names:
        w = wl[name]
        for cfg in cfgs:
            cc = CONFIGS[cfg]
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
    """Student's t 95% confidence interval of the mean of xs."""
    m = mean(xs)
    sem = stats.sem(xs) if len(xs) > 1 else 0.0
    if sem == 0:
        return [m, m]
    lo, hi = stats.t.interval(0.95, len(xs) - 1, loc=m, scale=sem)
    return [float(lo), float(hi)]


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


def barriers(out, inv):
    """What each kind of full barrier costs here, in ns per store+load pair."""
    exe = os.path.join(out, "build", "barriers")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    subprocess.run([CLANG, "-O2", "-I" + os.path.join(HERE, "drivers"),
                    os.path.join(HERE, "drivers", "barriers.c"), "-o", exe], check=True)
    per = {}
    for r in range(inv):
        out_ = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
        for m in re.finditer(r"^([a-z-]+) ([\d.]+)$", out_, re.M):
            if m.group(1) != "checksum":
                per.setdefault(m.group(1), []).append(float(m.group(2)))
        log("bench: barriers round %d: %s" % (r + 1, ", ".join("%s %.2f" % (k, v[-1]) for k, v in per.items())))
    info = machine()
    rows = {k: {"ns": round(mean(v), 3), "ci95": [round(x, 3) for x in ci95(v)]} for k, v in per.items()}
    doc = {"kinds": rows, "invocations": inv, "machine": info}
    report = os.path.join(out, "barriers")
    os.makedirs(report, exist_ok=True)
    with open(os.path.join(report, "barriers.json"), "w") as f:
        json.dump(doc, f, indent=2)
    text = "| CPU | " + " | ".join(rows) + " |\n|---|" + "---:|" * len(rows) + "\n"
    text += "| %s | " % info["cpu"] + " | ".join(
        "%.2f (%.2f-%.2f)" % (v["ns"], v["ci95"][0], v["ci95"][1]) for v in rows.values()) + " |\n"
    text += "\nns per store+load pair, %d invocations of 2e7 pairs, 95%% CI.\n" % inv
    with open(os.path.join(report, "barriers.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


# Real projects' own test suites, built with each compiler: bzip2's `make test`
# (from the bzip2-sys crate) and the C extension bitarray's unit tests (from
# PyPI).  Each must pass under sc-cc exactly as under clang.
BITARRAY = "bitarray==3.0.0"


def run_suite(cmd, cwd, env=None):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), timeout=1800)
    return r.returncode, r.stdout + r.stderr


def suites(out, cfgs):
    src = fetch()
    work = os.path.join(out, "suites")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sdist = os.path.join(CACHE, "llvm-bench", "pypi")
    os.makedirs(sdist, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--no-binary", ":all:", BITARRAY, "-d", sdist], check=True)
    tarball = glob.glob(os.path.join(sdist, BITARRAY.replace("==", "-") + ".tar.gz"))[0]
    failed = []
    for cfg in cfgs:
        cc = " ".join(CONFIGS[cfg][:-1])  # the Makefile and setuptools add -O2
        d = os.path.join(work, cfg)
        shutil.copytree(os.path.join(src["bzip2-sys"], "bzip2-1.0.8"), os.path.join(d, "bzip2"))
        rc, text = run_suite(["make", "CC=" + cc, "test"], os.path.join(d, "bzip2"))
        ok = rc == 0 and "cmp" in text and "differ" not in text
        log("bench: suites: bzip2 make test with %-9s %s" % (cfg, "passed" if ok else "FAILED"))
        if not ok:
            failed.append("bzip2/" + cfg)
            log(text[-2000:])
        subprocess.run(["tar", "xzf", tarball, "-C", d], check=True)
        ba = os.path.join(d, BITARRAY.replace("==", "-"))
        rc, text = run_suite([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], ba,
                             {"CC": cc, "LDSHARED": cc + " -shared"})
        if rc == 0:
            rc, text = run_suite([sys.executable, "-c", "import sys, bitarray; "
                                  "sys.exit(not bitarray.test(verbosity=0).wasSuccessful())"], ba)
        m = re.search(r"^Ran (\d+) tests", text, re.M)
        ok = rc == 0 and m is not None
        log("bench: suites: bitarray tests with %-9s %s" % (
            cfg, ("passed, %s tests" % m.group(1)) if ok else "FAILED"))
        if not ok:
            failed.append("bitarray/" + cfg)
            log(text[-2000:])
    if failed:
        print("bench: suites failed: %s" % ", ".join(failed))
        return 1
    print("bench: suites: bzip2 make test and bitarray's tests pass with %s" % ", ".join(cfgs))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_const", const="quick", dest="mode")
    g.add_argument("--full", action="store_const", const="full", dest="mode")
    g.add_argument("--smoke", action="store_const", const="smoke", dest="mode",
                   help="build and compare outputs only, no timing")
    g.add_argument("--barriers", action="store_const", const="barriers", dest="mode",
                   help="only what each kind of full barrier costs on this CPU")
    g.add_argument("--suites", action="store_const", const="suites", dest="mode",
                   help="real projects' test suites built with each configuration, no timing")
    ap.add_argument("--workloads", default="sqlite,zlib,lz4,zstd,lua,bzip2")
    ap.add_argument("--configs", default=DEFAULT_CONFIGS,
                    help="stock first, then any of: " + ", ".join(list(CONFIGS)[1:]))
    ap.add_argument("--invocations", type=int)
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "results"),
                    help="builds go to OUT/build, reports to OUT/<mode>")
    a = ap.parse_args()
    mode = a.mode or "quick"
    cfgs = [c.strip() for c in a.configs.split(",") if c.strip()]
    for c in cfgs:
        if c not in CONFIGS:
            sys.exit("bench: unknown configuration '%s' (known: %s)" % (c, ", ".join(CONFIGS)))
    if mode == "barriers":
        return barriers(a.out, a.invocations or 10)
    if mode == "suites":
        return suites(a.out, cfgs)
    if not cfgs or cfgs[0] != "stock" or len(set(cfgs)) != len(cfgs):
        sys.exit("bench: --configs must start with stock and name each configuration once")
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
             "zstd": ["2000000"], "lua": [], "bzip2": ["500000"]}
    build(names, cfgs, wl, os.path.join(a.out, "build"), a.jobs)

    per = {n: {c: [] for c in cfgs} for n in names}
    sums = {n: {} for n in names}
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
        mt = [w for w in wls if w["name"] in MULTITHREADED]
        doc = {"config": c, "options": CONFIGS[c][1:], "geomean": round(geo, 4),
               "geomean_multithreaded": round(math.exp(mean([math.log(w["ratio"]) for w in mt])), 4) if mt else None,
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
    if any(d["geomean_multithreaded"] for _, d in rows):
        md.append("| geomean, multithreaded (%s) | | " % ", ".join(sorted(MULTITHREADED & set(names))) +
                  " | ".join(" | %.2f" % d["geomean_multithreaded"] for _, d in rows) + " |")
    md.append("")
    md.append("Configurations: " + "; ".join("`%s` = `%s`" % (c, " ".join(
        ["sc-cc" if x == SCCC else x for x in CONFIGS[c]])) for c in cfgs) + ".")
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
