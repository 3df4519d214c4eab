#!/usr/bin/env python3
"""A roofline of the CPU kernels: each kernel's measured speed against what its inner loops allow.

    scripts/roofline.py [N] [ROUNDS]            defaults: 17 3
    scripts/roofline.py --no-build [N] [ROUNDS]  with the binaries already built

For every CPU kernel this machine runs it prints, on the symmetric plan of N:

* measured: the CPU time (user + system) of `nqueens count N -t 1 --kernel K` (the whole
  process, which on n = 16 and up spends all but a fraction of a percent in its tasks), best
  of ROUNDS, the kernels alternated within each round; CPU time, not wall time, so that other
  processes on a busy machine do not count, search nodes per second (the depth-first search's nodes, the same
  work for every kernel) and cycles per node at the clock measured here;
* with hardware counters (`perf stat`, where the machine exposes them): instructions per node
  and IPC of the whole process;
* the bound: the driver's two inner loops (drain: four or more free rows; close: three) taken
  from the release binary's machine code as their steady-state path (the shortest cycle through
  the loop's stores or multiplies), run through `llvm-mca` for this CPU and the modelled ones,
  times the loops' iteration counts (a release test build counts them,
  `lanes::loops::roofline_loop_counts`), at the measured clock (here) or a stated nominal clock
  (the modelled CPUs); and measured / bound. The bound leaves out everything outside the two
  loops (level switches, parking, the plan): a ratio near 1 means the loops run at the
  modelled throughput.

Needs cargo; llvm-mca and llvm-objdump of LLVM 17 or later (Debian: `apt-get install llvm-19`)
for the bound, `perf` for the counters, and for the NEON rows the aarch64 target with its
cross linker (`rustup target add aarch64-unknown-linux-gnu`, `apt-get install
gcc-aarch64-linux-gnu`). Whatever is missing is skipped with a message; nothing is installed.
"""

import csv
import heapq
import io
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target/release/nqueens")
ARM_TARGET = "aarch64-unknown-linux-gnu"
ARM_BINARY = os.path.join(ROOT, "target", ARM_TARGET, "release/nqueens")
KERNELS = ["avx512", "avx2", "neon", "portable-lanes", "depth-first"]
# Modelled CPUs: (llvm-mca CPU, the kernels it runs, nominal clock in GHz, what the clock is).
MODELS = [
    ("znver4", ["avx512", "avx2"], 3.7, "EPYC 9004 all-core boost"),
    ("sapphirerapids", ["avx512", "avx2"], 2.0, "the 2.0 GHz cloud vCPUs measured in docs/PERFORMANCE.md"),
    ("znver2", ["avx2"], 3.3, "EPYC 7002 boost"),
    ("neoverse-n1", ["neon"], 2.5, "AWS Graviton2"),
]
# The symbol each lane kernel's loops are compiled into.
SYMBOLS = {
    "avx512": "nqueens::engine::kernel::lanes::x86_64::avx512::run",
    "avx2": "nqueens::engine::kernel::lanes::x86_64::avx2::run",
    "neon": "nqueens::engine::kernel::lanes::aarch64::neon::run",
    "portable-lanes": "nqueens::engine::kernel::lanes::portable::run",
}


def note(msg):
    print(f"roofline: {msg}", file=sys.stderr, flush=True)


def run(cmd, env=None, check=True):
    e = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, cwd=ROOT, env=e, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"roofline: {' '.join(cmd)} failed:\n{p.stderr[-3000:]}")
    return p


def tool(*names):
    for n in names:
        if shutil.which(n):
            return n
    return None


# ---------------------------------------------------------------- measurements


def measure(kernels, n, rounds):
    """Best core_time (s) of each kernel, alternated within each round; and the plan's tasks."""
    best, tasks = {}, None
    for r in range(1, rounds + 1):
        for k in kernels:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = run([BINARY, "count", str(n), "-t", "1", "--kernel", k, "--format", "csv"])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            row = next(csv.DictReader(io.StringIO(p.stdout)))
            tasks = int(row["tasks"])
            note(f"round {r}: {k:15} {cpu:.3f} s CPU, {float(row['core_time']):.3f} s in tasks "
                 f"(wall), {float(row['wall_time']):.3f} s wall")
            best[k] = min(best.get(k, cpu), cpu)
    return best, tasks


def perf_counts(kernel, n):
    """(instructions, cycles, branches, branch-misses) of one whole-process run, or None."""
    p = run(["perf", "stat", "-x,", "-e", "instructions,cycles,branches,branch-misses",
             BINARY, "count", str(n), "-t", "1", "--kernel", kernel, "-q"], check=False)
    values = {}
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[0].strip().isdigit():
            values[f[2].split(":")[0]] = int(f[0])
    want = ["instructions", "cycles", "branches", "branch-misses"]
    return tuple(values[w] for w in want) if all(w in values for w in want) else None


def perf_works():
    if not tool("perf"):
        note("perf not found: no hardware counters (Debian: apt-get install linux-perf)")
        return False
    p = run(["perf", "stat", "-x,", "-e", "instructions", "true"], check=False)
    if not re.search(r"^\d+,", p.stderr, re.M):
        note("perf stat: this machine exposes no hardware counters (instructions, cycles); "
             "skipped")
        return False
    return True


def loop_counts(n):
    """The clock (GHz), the depth-first nodes and each lane kernel's loop counts, from the
    release test build."""
    note(f"counting the lanes' loop iterations on n = {n} (a release test build; minutes)")
    p = run(["cargo", "test", "--quiet", "--release", "-p", "nqueens-count", "--lib",
             "roofline_loop_counts", "--", "--ignored", "--nocapture", "--test-threads", "1"],
            env={"NQUEENS_ROOFLINE_N": str(n)})
    counts, nodes, tasks, ghz = {}, None, None, None
    for line in p.stdout.splitlines():
        f = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
        if line.startswith("roofline n="):
            nodes, tasks = int(f["nodes"]), int(f["tasks"])
        elif line.startswith("roofline clock"):
            ghz = float(f["ghz"])
        elif line.startswith("roofline kernel="):
            counts[f["kernel"]] = {k: int(v) for k, v in f.items() if k != "kernel"}
    if nodes is None:
        sys.exit("roofline: the loop-count test printed nothing\n" + p.stdout + p.stderr)
    return ghz, nodes, tasks, counts


# ---------------------------------------------------------------- the loops' machine code

X86_BRANCH = re.compile(r"^j[a-z]+$")
ARM_COND = re.compile(r"^(b\.[a-z]+|cbn?z|tbn?z)$")
VECTOR_STORE = {
    # To a level's buffer, at a word index (spills and parked lanes have fixed offsets).
    "x86": re.compile(r"^v?mov(dq[au](8|16|32|64)?|up[sd]|ap[sd])\s+%[xyz]mm\d+,\s*\S*\(%\w+,\s*%\w+,\s*4\)"),
    "arm": re.compile(r"^str\s+q\d+,\s*\[x\d+(,\s*x\d+)?\]"),
}
VECTOR_MUL = {
    # vpmulld, or vpmaddwd where the compiler sees the factors fit in 16 bits (popcounts).
    "x86": re.compile(r"^v?(pmulld|pmaddwd)\s"),
    "arm": re.compile(r"^(mul|mla)\s+v\d+\.4s"),
}


def disassemble(binary, symbol, arch):
    """The instructions of `symbol` in `binary`: [(address, text)], or None."""
    nm = run([NM, "-C", "-S", binary], check=False).stdout
    for line in nm.splitlines():
        f = line.split(None, 3)
        # llvm-nm keeps the legacy mangling's hash (`::h0123456789abcdef`); GNU nm drops it.
        if len(f) == 4 and re.sub(r"::h[0-9a-f]{16}$", "", f[3]) == symbol:
            start, size = int(f[0], 16), int(f[1], 16)
            break
    else:
        return None
    out = run([OBJDUMP, "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
               f"--stop-address={start + size:#x}", binary]).stdout
    code = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S.*)$", line)
        if m:
            code.append((int(m.group(1), 16), m.group(2).split("//")[0].strip()))
    return code


def branch(text, arch):
    """(kind, target): kind 'jump' (unconditional), 'cond', 'end' (no successor) or None."""
    mnem = text.split()[0]
    target = re.search(r"0x([0-9a-f]+)\s*<", text) or re.search(r"\b([0-9a-f]{4,})\s*<", text)
    target = int(target.group(1), 16) if target else None
    if arch == "x86":
        if mnem in ("ret", "retq", "ud2", "int3", "hlt"):
            return "end", None
        if mnem in ("call", "callq") and re.search(r"panic|abort|fail|unwrap", text):
            return "end", None
        if mnem in ("jmp", "jmpq"):
            return ("jump", target) if target else ("end", None)
        if X86_BRANCH.match(mnem):
            return "cond", target
    else:
        if mnem in ("ret", "br", "brk", "udf"):
            return "end", None
        if mnem == "bl" and re.search(r"panic|abort|fail|unwrap", text):
            return "end", None
        if mnem == "b":
            return "jump", target
        if ARM_COND.match(mnem):
            return "cond", target
    return None, None


def hot_loop(code, arch, anchor, least):
    """The steady-state path of the innermost loop with at least `least` `anchor` instructions
    per iteration: of the shortest cycles through each block holding one, the shortest holding
    that many (an outer loop's cycle holds the inner one's and more). Returns (instructions,
    anchors) or None."""
    addrs = [a for a, _ in code]
    index = {a: i for i, a in enumerate(addrs)}
    leaders = {0}
    for i, (_, t) in enumerate(code):
        kind, target = branch(t, arch)
        if kind:
            leaders.add(i + 1)
            if target in index:
                leaders.add(index[target])
    starts = sorted(l for l in leaders if l < len(code))
    blocks = {}
    for j, s in enumerate(starts):
        e = starts[j + 1] if j + 1 < len(starts) else len(code)
        blocks[s] = list(range(s, e))
    succ = {}
    for s, ins in blocks.items():
        kind, target = branch(code[ins[-1]][1], arch)
        nxt = ins[-1] + 1
        out = []
        if kind in (None, "cond") and nxt in blocks:
            out.append(nxt)
        if kind in ("jump", "cond") and target in index and index[target] in blocks:
            out.append(index[target])
        succ[s] = out

    def useful(i):
        return not code[i][1].startswith("nop")

    def size(b):
        return sum(1 for i in blocks[b] if useful(i))

    def cycle(a):
        dist, prev, heap = {}, {}, []
        for s in succ[a]:
            if s == a:
                return [a]
            if s not in dist or size(s) < dist[s]:
                dist[s], prev[s] = size(s), a
                heapq.heappush(heap, (size(s), s))
        while heap:
            d, b = heapq.heappop(heap)
            if d > dist.get(b, 1 << 60):
                continue
            for s in succ[b]:
                if s == a:
                    path = [b]
                    while path[-1] != a:
                        path.append(prev[path[-1]])
                    return path[::-1]
                nd = d + size(s)
                if nd < dist.get(s, 1 << 60):
                    dist[s], prev[s] = nd, b
                    heapq.heappush(heap, (nd, s))
        return None

    best = None
    for b, ins in blocks.items():
        if not any(anchor.match(code[i][1]) for i in ins):
            continue
        path = cycle(b)
        if not path:
            continue
        # Rotate so the cycle starts at its lowest address (the loop's head, as laid out).
        k = path.index(min(path))
        path = path[k:] + path[:k]
        ins = [i for blk in path for i in blocks[blk] if useful(i)]
        count = sum(1 for i in ins if anchor.match(code[i][1]))
        key = len(ins)
        if count >= least and (best is None or key < best[0]):
            best = (key, [code[i][1] for i in ins], count)
    return (best[1], best[2]) if best else None


def mca_input(ins, arch):
    """Assembly llvm-mca reads: branch targets replaced by one local label."""
    lines = []
    for t in ins:
        if branch(t, arch)[0] in ("jump", "cond"):
            t = re.sub(r"(0x)?[0-9a-f]+\s*<[^>]*>", "head", t)
        lines.append("\t" + t)
    return "head:\n" + "\n".join(lines) + "\n"


def mca(asm, arch, cpu):
    """llvm-mca's cycles per iteration and IPC for `asm` on `cpu`, or None."""
    triple = "x86_64-unknown-linux-gnu" if arch == "x86" else "aarch64-unknown-linux-gnu"
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(asm)
    try:
        p = run([MCA, f"-mtriple={triple}", f"-mcpu={cpu}", "-iterations=1000", f.name],
                check=False)
    finally:
        os.unlink(f.name)
    cycles = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    ipc = re.search(r"IPC:\s+([\d.]+)", p.stdout)
    if p.returncode != 0 or not cycles:
        note(f"llvm-mca -mcpu={cpu} failed: {p.stderr.strip()[:300]}")
        return None
    return int(cycles.group(1)) / 1000, float(ipc.group(1))


def loops_of(kernel):
    """(arch, drain instructions, close instructions, store and multiply anchors) or None."""
    arch = "arm" if kernel == "neon" else "x86"
    binary = ARM_BINARY if arch == "arm" else BINARY
    if not os.path.exists(binary):
        return None
    code = disassemble(binary, SYMBOLS[kernel], arch)
    if not code:
        note(f"no symbol {SYMBOLS[kernel]} in {binary}")
        return None
    # A drain step stores three masks per stream; a closing step multiplies once per stream.
    drain = hot_loop(code, arch, VECTOR_STORE[arch], 3)
    close = hot_loop(code, arch, VECTOR_MUL[arch], 1)
    if not drain or not close:
        note(f"the {kernel} kernel's loops were not found in its machine code (no vector store "
             "to a level's buffer or no vector multiply: the portable lanes compress word by "
             "word through the stack); no bound")
        return None
    return arch, drain, close


# ---------------------------------------------------------------- the table


def main():
    args = sys.argv[1:]
    build = True
    if args[:1] == ["--no-build"]:
        build, args = False, args[1:]
    if len(args) > 2 or not all(a.isdigit() for a in args):
        sys.exit("usage: scripts/roofline.py [--no-build] [N] [ROUNDS]   (for example: 17 3)")
    n = int(args[0]) if args else 17
    rounds = int(args[1]) if len(args) > 1 else 3
    if n < 16:
        note(f"n = {n}: the process's start and the plan weigh on the times below n = 16")

    global MCA, OBJDUMP, NM
    MCA = tool("llvm-mca-19", "llvm-mca-20", "llvm-mca-18", "llvm-mca-17", "llvm-mca")
    OBJDUMP = tool("llvm-objdump-19", "llvm-objdump-20", "llvm-objdump-18", "llvm-objdump-17",
                   "llvm-objdump")
    if MCA:
        probe = run([MCA, "-mtriple=x86_64-unknown-linux-gnu", "-mcpu=znver4"],
                    check=False)
        if "not a recognized processor" in probe.stderr or "not recognized" in probe.stderr:
            note(f"{MCA} does not know znver4 (LLVM 17 or later needed); no bound")
            MCA = None
    else:
        note("llvm-mca not found: no bound (Debian: apt-get install llvm-19)")
    NM = tool("llvm-nm-19", "llvm-nm-20", "llvm-nm-18", "llvm-nm-17", "llvm-nm", "nm")
    if MCA and not (OBJDUMP and NM):
        note("llvm-objdump or nm not found: no bound (Debian: apt-get install llvm-19)")
        MCA = None

    if build:
        note("cargo build --release")
        run(["cargo", "build", "--quiet", "--release", "-p", "nqueens-count-cli"])
        if MCA:
            arm_ok = tool("rustup") and ARM_TARGET in run(
                ["rustup", "target", "list", "--installed"], check=False).stdout
            linker = tool("aarch64-linux-gnu-gcc")
            if arm_ok and linker:
                note(f"cargo build --release --target {ARM_TARGET} (the NEON kernel's code)")
                run(["cargo", "build", "--quiet", "--release", "--target", ARM_TARGET, "-p",
                     "nqueens-count-cli"],
                    env={"CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER": linker})
            else:
                note(f"no {ARM_TARGET} target or aarch64-linux-gnu-gcc: no NEON rows")

    here = [k for k in KERNELS
            if run([BINARY, "count", "4", "--kernel", k, "-q"], check=False).returncode == 0]
    for k in KERNELS:
        if k not in here:
            note(f"the {k} kernel does not run on this CPU: not measured")
    ghz, nodes, tasks, counts = loop_counts(n)
    best, cli_tasks = measure(here, n, rounds)
    if cli_tasks != tasks:
        note(f"the command searched {cli_tasks} tasks, the count test {tasks}: the nodes "
             "do not match the timed work")
    counters = {k: perf_counts(k, n) for k in here} if perf_works() else {}

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = re.search(r"model name\s*:\s*(.*)", f.read()).group(1)
    except (OSError, AttributeError):
        pass
    print(f"\nCPU: {cpu}; clock {ghz:.2f} GHz (measured: a chain of dependent adds)"
          if ghz else f"\nCPU: {cpu}; clock not measured")
    print(f"n = {n}, symmetric plan, {tasks} tasks, {nodes:,} nodes; 1 thread, best of "
          f"{rounds} (CPU time of the whole process)\n")
    print("| kernel | time | M nodes/s | cycles/node | instr/node, IPC (perf) |")
    print("|---|---|---|---|---|")
    for k in here:
        t = best[k]
        cyc = f"{t * ghz * 1e9 / nodes:.2f}" if ghz else "—"
        c = counters.get(k)
        pc = f"{c[0] / nodes:.1f}, {c[0] / c[1]:.2f}" if c else "—"
        print(f"| {k} | {t:.3f} s | {nodes / t / 1e6:.0f} | {cyc} | {pc} |")

    if not MCA:
        return
    print("\nBound by llvm-mca: drain and close loops' cycles per iteration × the iterations "
          "(`lanes::loops`), at the clock\n")
    print("| kernel | CPU model | lanes × streams | drain: instr, cycles/iter | close: instr, "
          "cycles/iter | loop instr/node | bound | M nodes/s bound | measured / bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    host = re.search(r"Host CPU:\s*(\S+)", run([MCA, "--version"], check=False).stdout)
    host = host.group(1) if host else "native"
    for k in ["avx512", "avx2", "neon", "portable-lanes"]:
        found = loops_of(k)
        if not found:
            continue
        arch, (drain, _), (close, _) = found
        c = counts[k]
        rows = [(host, clock, True) for clock in [ghz] if k in here and arch == "x86" and ghz]
        rows += [(m, clock, False) for m, kernels, clock, _ in MODELS if k in kernels]
        for mcpu, clock, native in rows:
            d = mca(mca_input(drain, arch), arch, mcpu)
            cl = mca(mca_input(close, arch), arch, mcpu)
            if not d or not cl:
                continue
            cycles = c["drain_iterations"] * d[0] + c["close_iterations"] * cl[0]
            instr = c["drain_iterations"] * len(drain) + c["close_iterations"] * len(close)
            bound = cycles / (clock * 1e9)
            ratio = f"{best[k] / bound:.2f}" if native else "—"
            label = f"{mcpu} (this CPU), {clock:.2f} GHz" if native else f"{mcpu}, {clock} GHz"
            print(f"| {k} | {label} | {c['width']} × {c['streams']} | {len(drain)}, {d[0]:.1f} "
                  f"| {len(close)}, {cl[0]:.1f} | {instr / nodes:.1f} | {bound:.3f} s | "
                  f"{nodes / bound / 1e6:.0f} | {ratio} |")
    print("\nClocks of the modelled CPUs: " + "; ".join(
        f"{m} {c} GHz ({why})" for m, _, c, why in MODELS))


if __name__ == "__main__":
    main()
