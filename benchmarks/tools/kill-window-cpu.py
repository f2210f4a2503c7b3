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
second before each kill, for comparison. Kills are placed by each trial's `killed_at_monotonic_ns` (the clock
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
LINE = re.compile(r"^\s*(\d+\.\d+)\s+\[\d+\]\s+(.+?)(?:\[(\d+)(?:/(\d+))?\])?\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$")
JIT = ("C1 CompilerThre", "C2 CompilerThre")


def slices(trace):
    result = subprocess.run(["perf", "sched", "timehist", "-i", trace], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"perf sched timehist -i {trace} failed ({result.returncode}): {result.stderr.strip()}")
    rows = []
    for line in result.stdout.splitlines():
        m = LINE.match(line)
        if m:
            end, name, tid = float(m.group(1)), m.group(2).strip(), int(m.group(3) or 0)  # <idle> has no pid
            pid = int(m.group(4)) if m.group(4) else tid
            delay_s, run_s = float(m.group(6)) / 1000.0, float(m.group(7)) / 1000.0
            rows.append((end - run_s, end, name, pid, delay_s, tid))
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


def main():
    trace, bench = sys.argv[1], sys.argv[2]
    window_s = (int(sys.argv[3]) if len(sys.argv) > 3 else 60) / 1000.0
    shift_s = (int(sys.argv[4]) if len(sys.argv) > 4 else 0) / 1000.0
    with open(bench) as f:
        report = json.loads(f.read().strip().splitlines()[-1])
    rows = slices(trace)
    first, last = min(r[0] for r in rows), max(r[1] for r in rows)
    # the bench JVM: the process with the most rdmarepl-* threads (a process it forks carries the forking
    # thread's name until it execs, and is one thread)
    threads = {}
    for _, _, name, pid, _, tid in rows:
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
        for run_start, run_end, name, pid, delay, _ in rows:
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
