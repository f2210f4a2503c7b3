#!/usr/bin/env python3
"""Where the CPU went right after each SIGKILL of `rdmarepl bench failover`.

Reads a scheduler trace taken during the bench (perf, root) and the bench's --json output, and prints for each
trial, in the window after its kill: CPU time by who used it (PostgreSQL's processes, the JVM's JIT compilers,
the JVM's other threads, idle), and how long rdmarepl's own threads waited runnable for a CPU (scheduling delay).

  perf sched record -a -k CLOCK_MONOTONIC -o perf.data -- sleep 70 &
  ./rdmarepl bench failover --trials 10 --no-reference --json > bench.json
  wait; python3 benchmarks/tools/kill-window-cpu.py perf.data bench.json [window_ms [shift_ms]]

window_ms (default 60) is the window's length; shift_ms (default 0) moves it: -500 shows the same split half a
second before each kill, for comparison.

The bench reports each kill's wall-clock time (`killed_at`); perf stamps events with CLOCK_MONOTONIC (this
kernel refuses CLOCK_REALTIME), so the two are matched through the clocks' offset now: run it on the same boot.
"""
import datetime
import json
import re
import subprocess
import sys
import time

# perf sched timehist: time cpu task[tid/pid] wait_time sch_delay run_time (ms)
LINE = re.compile(r"^\s*(\d+\.\d+)\s+\[\d+\]\s+(.+?)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$")


def category(task):
    name = task.split("[")[0]
    if name.startswith("postgres"):
        return "postgres"
    if name in ("C1 CompilerThre", "C2 CompilerThre"):
        return "jvm_jit"
    if name == "<idle>":
        return "idle"
    return "jvm_other" if "/" in task else "other"  # a JVM thread is shown as name[tid/pid]


def main():
    trace, bench = sys.argv[1], sys.argv[2]
    window_s = (int(sys.argv[3]) if len(sys.argv) > 3 else 60) / 1000.0
    shift_s = (int(sys.argv[4]) if len(sys.argv) > 4 else 0) / 1000.0
    with open(bench) as f:
        report = json.loads(f.read().strip().splitlines()[-1])
    offset = time.time() - time.clock_gettime(time.CLOCK_MONOTONIC)
    kills = []
    for trial in report["per_trial"]:
        if "killed_at" in trial:
            wall = datetime.datetime.fromisoformat(trial["killed_at"].replace("Z", "+00:00")).timestamp()
            kills.append((wall - offset + shift_s, trial.get("rto_ms")))
    events = subprocess.run(["perf", "sched", "timehist", "-i", trace, "-w"], capture_output=True, text=True).stdout
    rows = []
    for line in events.splitlines():
        m = LINE.match(line)
        if m:
            rows.append((float(m.group(1)), m.group(2), float(m.group(4)), float(m.group(5))))
    where = "after each kill" if shift_s == 0 else f"from {int(shift_s * 1000)} ms after each kill"
    print(f"ms of CPU in the {int(window_s * 1000)} ms {where} (2 CPUs: {int(window_s * 2000)} ms in all); "
          "rdmarepl threads' longest and total wait for a CPU")
    for index, (kill, rto) in enumerate(kills, 1):
        used, delays = {}, []
        for at, task, delay, run in rows:
            # a slice is reported at its end: count the part of it inside the window
            start = at - run / 1000.0
            inside = min(at, kill + window_s) - max(start, kill)
            if inside > 0:
                used[category(task)] = used.get(category(task), 0.0) + inside * 1000.0
            if kill <= at <= kill + window_s and task.startswith("rdmarepl-") and delay > 0:
                delays.append(delay)
        split = "  ".join(f"{k} {v:5.1f}" for k, v in sorted(used.items(), key=lambda kv: -kv[1]))
        print(f"trial {index:2} (RTO {rto} ms): {split}  | rdmarepl wait max {max(delays, default=0):5.1f} "
              f"total {sum(delays):6.1f}")


if __name__ == "__main__":
    main()
