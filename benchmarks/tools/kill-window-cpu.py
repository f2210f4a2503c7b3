#!/usr/bin/env python3
"""Where the CPU went right after each SIGKILL of `rdmarepl bench failover`.

Reads a scheduler trace taken during the bench (perf, root) and the bench's --json output, and prints for each
trial, in the window after its kill: CPU time by who used it (PostgreSQL's processes, the bench JVM's JIT
compilers, the JVM's other threads, anything else, idle), and how long rdmarepl's own threads waited runnable for
a CPU inside the window (scheduling delay: the longest wait, and all waits added up).

  perf sched record -a -k CLOCK_MONOTONIC -o perf.data -- sleep 70 &
  ./rdmarepl bench failover --trials 10 --no-reference --json > bench.json
  wait; python3 benchmarks/tools/kill-window-cpu.py perf.data bench.json [window_ms [shift_ms]]

window_ms (default 60) is the window's length; shift_ms (default 0) moves it: -500 shows the same split half a
second before each kill, for comparison. A report of `--layout hosts` (every role a process, each host on its CPU)
is split by CPU and process instead: window_ms "rto" (the default there) is each trial's own SIGKILL -> first write,
and each JVM is named by its threads (coordinator, applier, shipper, lease guard, the bench's client) with the part
its JIT compilers took. Kills are placed by each trial's `killed_at_monotonic_ns` (the clock
perf stamps events with); a report without it falls back on `killed_at` (wall clock) and the clocks' offset now,
which is only right if the wall clock was not stepped since. A kill outside the trace is an error.
"""
import datetime
import json
import re
import subprocess
import sys
import time

# perf sched timehist: time cpu task wait_time sch_delay run_time (ms); task is name[pid], name[tid/pid] or <idle>
LINE = re.compile(r"^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.+?)(?:\[(\d+)(?:/(\d+))?\])?\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$")
JIT = ("C1 CompilerThre", "C2 CompilerThre")


def slices(trace):
    """Each slice a thread ran: (start, end, name, pid, scheduling delay before it, tid, cpu), times in s."""
    result = subprocess.run(["perf", "sched", "timehist", "-i", trace], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"perf sched timehist -i {trace} failed ({result.returncode}): {result.stderr.strip()}")
    rows = []
    for line in result.stdout.splitlines():
        m = LINE.match(line)
        if m:
            end, cpu, name, tid = float(m.group(1)), int(m.group(2)), m.group(3).strip(), int(m.group(4) or 0)  # <idle>: no pid
            pid = int(m.group(5)) if m.group(5) else tid
            delay_s, run_s = float(m.group(7)) / 1000.0, float(m.group(8)) / 1000.0
            rows.append((end - run_s, end, name, pid, delay_s, tid, cpu))
    if not rows:
        sys.exit(f"no scheduler events in {trace}: was it recorded with `perf sched record -a`?")
    return rows


def kills(report, shift_s):
    offset = time.time() - time.clock_gettime(time.CLOCK_MONOTONIC)
    found = []
    for trial in report["per_trial"]:
        if "killed_at_monotonic_ns" in trial:
            at = trial["killed_at_monotonic_ns"] / 1e9
        elif "killed_at" in trial:
            at = datetime.datetime.fromisoformat(trial["killed_at"].replace("Z", "+00:00")).timestamp() - offset
        else:
            continue
        found.append((at + shift_s, trial.get("rto_ms")))
    return found


def category(name, pid, jvm):
    if name.startswith("postgres"):
        return "postgres"
    if pid == jvm:
        return "jvm_jit" if name in JIT else "jvm_other"
    return "idle" if pid == 0 else "other"


def overlap(start, end, window_start, window_end):
    return max(0.0, min(end, window_end) - max(start, window_start))


# --layout hosts: a JVM is named by the first of these thread-name prefixes it has (perf keeps 15 characters)
ROLES = (("rdmarepl-failov", "bench client"), ("rdmarepl-probe", "coordinator"), ("rdmarepl-applie", "applier"),
         ("rdmarepl-primar", "shipper"), ("rdmarepl-lease-", "lease guard"))


def hosts_layout(rows, report, window, shift_s):
    names = {}
    for _, _, name, pid, _, _, _ in rows:
        names.setdefault(pid, set()).add(name)

    def who(name, pid):
        if pid == 0:
            return "idle"
        if name.startswith("postgres"):
            return "postgres"
        for prefix, role in ROLES:
            if any(n.startswith(prefix) for n in names[pid]):
                return f"{role}[{pid}]"
        return f"java[{pid}]" if "C1 CompilerThre" in names[pid] or "C2 CompilerThre" in names[pid] else "other"

    print("ms of CPU by CPU and process, from each kill (a JVM's JIT compilers' part in brackets)")
    for index, trial in enumerate(report["per_trial"], 1):
        if "killed_at_monotonic_ns" not in trial:
            continue
        start = trial["killed_at_monotonic_ns"] / 1e9 + shift_s
        length = trial.get("rto_ms", 60) / 1000.0 if window == "rto" else int(window) / 1000.0
        end = start + length
        used, jit = {}, {}
        for run_start, run_end, name, pid, _, _, cpu in rows:
            inside = overlap(run_start, run_end, start, end)
            if inside > 0:
                key = (cpu, who(name, pid))
                used[key] = used.get(key, 0.0) + inside * 1000.0
                if name in JIT:
                    jit[key] = jit.get(key, 0.0) + inside * 1000.0
        print(f"trial {index:2} (RTO {trial.get('rto_ms')} ms), {int(length * 1000)} ms:")
        for cpu in sorted({c for c, _ in used}):
            split = "  ".join(f"{w} {v:.0f}" + (f" [{jit[(c, w)]:.0f}]" if jit.get((c, w), 0) >= 1 else "")
                              for (c, w), v in sorted(used.items(), key=lambda kv: -kv[1]) if c == cpu and v >= 1)
            print(f"  CPU {cpu}: {split}")


def main():
    trace, bench = sys.argv[1], sys.argv[2]
    with open(bench) as f:
        report = json.loads(f.read().strip().splitlines()[-1])
    rows = slices(trace)
    if report.get("layout") == "hosts":
        hosts_layout(rows, report, sys.argv[3] if len(sys.argv) > 3 else "rto", (int(sys.argv[4]) if len(sys.argv) > 4 else 0) / 1000.0)
        return
    window_s = (int(sys.argv[3]) if len(sys.argv) > 3 else 60) / 1000.0
    shift_s = (int(sys.argv[4]) if len(sys.argv) > 4 else 0) / 1000.0
    first, last = min(r[0] for r in rows), max(r[1] for r in rows)
    # the bench JVM: the process with the most rdmarepl-* threads (a process it forks carries the forking
    # thread's name until it execs, and is one thread)
    threads = {}
    for _, _, name, pid, _, tid, _ in rows:
        if name.startswith("rdmarepl-"):
            threads.setdefault(pid, set()).add(tid)
    if not threads:
        sys.exit(f"no rdmarepl-* threads in {trace}: was the bench running while it was recorded?")
    jvm = max(threads, key=lambda pid: len(threads[pid]))
    where = "after each kill" if shift_s == 0 else f"from {int(shift_s * 1000)} ms after each kill"
    print(f"ms of CPU in the {int(window_s * 1000)} ms {where} (2 CPUs: {int(window_s * 2000)} ms in all); "
          f"rdmarepl threads' longest and total wait for a CPU in it (JVM pid {jvm})")
    for index, (start, rto) in enumerate(kills(report, shift_s), 1):
        end = start + window_s
        if start < first or end > last:
            sys.exit(f"trial {index}: its window {start:.3f}-{end:.3f} s is outside the trace ({first:.3f}-{last:.3f} s)")
        used, waits = {}, []
        for run_start, run_end, name, pid, delay, _, _ in rows:
            inside = overlap(run_start, run_end, start, end)
            if inside > 0:
                kind = category(name, pid, jvm)
                used[kind] = used.get(kind, 0.0) + inside * 1000.0
            if pid == jvm and name.startswith("rdmarepl-") and delay > 0:
                # the wait ended when the slice began
                waited = overlap(run_start - delay, run_start, start, end)
                if waited > 0:
                    waits.append(waited * 1000.0)
        split = "  ".join(f"{k} {v:5.1f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1]))
        print(f"trial {index:2} (RTO {rto} ms): {split}  | rdmarepl wait max {max(waits, default=0):5.1f} "
              f"total {sum(waits):6.1f}")


if __name__ == "__main__":
    main()
