"""What every bench/<name>/run.sh shares: timing a child process (wall time
and its own peak RSS), medians, and writing the benchmark's measurements as
JSON for bench/report.py. Python standard library only.

A measurement ("metric") is a dict:

  id        stable key, "<benchmark>.<what>", e.g. "stencil.64x64.tile_cycles"
  metric    what it is, in words, for the tables
  unit      "s", "MB", "MB/s", "hops/s", "tile-cycles/s", "x", "bool", ...
  runs      every measured value; median is their median
  target    the issue's reference value, or None
  better    "higher" (target is a minimum) or "lower" (a maximum)
  ratio     median / target ("higher") or target / median ("lower"):
            >= 1 meets the target
  command   the command line that reproduces it
  summary   whether docs/Performance.md's summary table shows it
  details   anything else worth keeping (counters, sizes)

A skipped measurement has "skipped": the reason, and no runs.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def median(values):
    return statistics.median(values) if values else None


def ratio(value, target, better):
    if value is None or not target:
        return None
    if better == "lower":
        return target / value if value else None
    return value / target


def timed(args, cwd=None, env=None, usage=None):
    """Runs `args` and returns (wall seconds, peak RSS in MB of that child
    alone, exit status, stdout, stderr); a dict given as `usage` gets the
    child's CPU seconds as "cpu". os.wait4 gives the child's own
    rusage, which RUSAGE_CHILDREN would mix with earlier children; the
    output goes to files so that the child never waits on a full pipe."""
    with tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out,
                                stderr=err, stdin=subprocess.DEVNULL)
        _, status, rusage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if usage is not None:
            usage["cpu"] = rusage.ru_utime + rusage.ru_stime
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return wall, rusage.ru_maxrss / 1024, proc.returncode, out.read(), \
            err.read()


def counters(text):
    """tessera-run's counters ("cycles: 1,171", "link hops: 768") as ints."""
    found = {}
    for line in text.splitlines():
        for part in line.split(", "):
            name, sep, value = part.partition(": ")
            value = value.replace(",", "").strip()
            if sep and value.isdigit() and not name.startswith("["):
                found[name.strip()] = int(value)
    return found


def speed_probe():
    """Milliseconds one core takes for a fixed pure-Python loop, the middle
    of three tries. A shared or throttled guest runs everything slower at
    times (ours at speeds up to 2.5 times apart, minute to minute): a
    timed run next to a probe says which speed it met."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        x = 0
        for i in range(300000):
            x += i * i & 7
        times.append(time.perf_counter() - start)
    return round(sorted(times)[1] * 1000, 1)


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


class Results:
    """The measurements of one benchmark, written to
    $BENCH_RESULTS_DIR/<name>.json when that is set (by bench/run-all.sh)."""

    def __init__(self, name):
        self.name = name
        self.metrics = []
        self.load_before = load_average()
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S%z")

    def add(self, ident, metric, unit, runs, *, target=None, better="higher",
            command="", summary=None, details=None):
        runs = [r for r in runs if r is not None]
        value = median(runs)
        entry = {
            "id": f"{self.name}.{ident}",
            "metric": metric,
            "unit": unit,
            "runs": runs,
            "median": value,
            "target": target,
            "better": better,
            "ratio": ratio(value, target, better),
            "command": command,
            "summary": target is not None if summary is None else summary,
        }
        if details:
            entry["details"] = details
        self.metrics.append(entry)
        return entry

    def skip(self, ident, metric, reason, *, command="", summary=True):
        self.metrics.append({
            "id": f"{self.name}.{ident}", "metric": metric,
            "skipped": reason, "command": command, "summary": summary,
        })
        print(f"skipped: {metric}: {reason}")

    def write(self):
        directory = os.environ.get("BENCH_RESULTS_DIR")
        if not directory:
            return None
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{self.name}.json")
        # Several scripts of one benchmark may add to one file.
        document = {"benchmark": self.name, "metrics": []}
        if os.path.exists(path):
            with open(path) as f:
                document = json.load(f)
        document["metrics"].extend(self.metrics)
        document.setdefault("started", self.started)
        document["load_average_before"] = document.get(
            "load_average_before", self.load_before)
        document["load_average_after"] = load_average()
        with open(path, "w") as f:
            json.dump(document, f, indent=1)
            f.write("\n")
        return path


def threads():
    """THREADS from the environment (None when unset or empty)."""
    value = os.environ.get("THREADS", "").strip()
    return int(value) if value else None


def runs_setting(default):
    value = os.environ.get("RUNS", "").strip()
    return max(1, int(value)) if value else default


if __name__ == "__main__":
    sys.exit("benchlib is a module for the bench/*/run.sh scripts")
