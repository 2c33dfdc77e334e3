"""Compiles one of our benchmark programs (bench/stencil, bench/gemv) for
several fabric sizes, runs each with tessera-run, checks the result against
the program's reference.py where the fabric is small enough to dump every
PE cheaply (in a run of its own, untimed), and records emulated tile-cycles
per host second per thread.

usage: program_bench.py PROGRAM BUILD_DIR [WxH ...]

Environment: RUNS (runs per size; default 5 up to 64x64, 3 above), THREADS
(passed as --threads=N to tessera-run when set), QUICK=1 (only 8x8 and
64x64 when no sizes are given).
"""
import importlib.util
import os
import sys
import tempfile

import benchlib

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The reference: the vendor simulator's best public per-thread
# figure (162k tile-cycles per second) times 100.
TILE_CYCLES_TARGET = 1.62e7
DEFAULT_SIZES = ["8x8", "64x64", "256x256", "750x994"]
QUICK_SIZES = ["8x8", "64x64"]
# Fabrics up to this many PEs have every result dumped and checked.
CHECK_LIMIT = 64 * 64


def stencil_params(w, h):
    # Iterations shrink with the fabric so that the whole wafer runs in a
    # few minutes; a step costs about 290 cycles at n = 8.
    pes = w * h
    iters = 100 if pes <= 64 else 10 if pes <= 4096 else 2 if pes <= 65536 \
        else 1
    return {"w": w, "h": h, "n": 8, "iters": iters}


def gemv_params(w, h):
    pes = w * h
    reps = 20 if pes <= 64 else 4 if pes <= 4096 else 1
    return {"w": w, "h": h, "mb": 16, "nb": 16, "reps": reps}


PROGRAMS = {
    "stencil": {
        "params": stencil_params,
        "what": "5-point stencil",
        "check": lambda ref, text, p: ref.mismatches(
            text, p["w"], p["h"], p["n"], p["iters"]),
    },
    "gemv": {
        "params": gemv_params,
        "what": "GEMV",
        "check": lambda ref, text, p: ref.mismatches(
            text, p["w"], p["h"], p["mb"], p["nb"]),
    },
}


def load_reference(program):
    path = os.path.join(BENCH, program, "reference.py")
    spec = importlib.util.spec_from_file_location(f"{program}_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report_failure(program, size, rc, err):
    print(f"{program} {size}: tessera-run failed (exit {rc}):\n{err[-2000:]}")


def main(argv):
    program, build = argv[1], os.path.abspath(argv[2])
    spec = PROGRAMS[program]
    sizes = argv[3:] or (QUICK_SIZES if os.environ.get("QUICK") == "1"
                         else DEFAULT_SIZES)
    threads = benchlib.threads()
    cslc = os.path.join(build, "bin", "cslc")
    run_tool = os.path.join(build, "bin", "tessera-run")
    layout = os.path.join(BENCH, program, "layout.csl")
    reference = load_reference(program)
    results = benchlib.Results(program)
    rel_build = os.path.relpath(build, os.path.dirname(BENCH))
    for size in sizes:
        w, h = map(int, size.lower().split("x"))
        pes = w * h
        params = spec["params"](w, h)
        param_text = ",".join(f"{k}:{v}" for k, v in params.items())
        # Medians of several runs everywhere: this guest's speed moves by
        # a third from one minute to the next.
        runs = benchlib.runs_setting(5 if pes <= 64 * 64 else 3)
        command = (f"bash bench/{program}/run.sh {rel_build} {w}x{h}"
                   + (f"  (THREADS={threads})" if threads else ""))
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "out")
            compile_args = [cslc, layout, "--arch=wse3",
                            f"--fabric-dims={w},{h}", "--fabric-offsets=0,0",
                            f"--params={param_text}", "-o", out]
            c_wall, c_rss, rc, _, err = benchlib.timed(compile_args)
            if rc != 0:
                print(f"{program} {size}: cslc failed (exit {rc}):\n{err}")
                results.add(f"{size}.runs", f"{spec['what']} {size} runs",
                            "bool", [0], target=1, command=command)
                continue
            args = [run_tool, out]
            if threads:
                args.append(f"--threads={threads}")
            check = pes <= CHECK_LIMIT
            walls, peaks, rates, counts, problems = [], [], [], {}, None
            probes = []
            checked_cycles = None
            if check:
                # The check dumps every PE's block: megabytes of text whose
                # formatting is no emulation, so it has a run of its own
                # and the timed runs must count the same cycles.
                _, _, rc, text, err = benchlib.timed(
                    args + reference.dump_args(w, h))
                checked_cycles = benchlib.counters(text).get("cycles")
                if rc != 0 or checked_cycles is None:
                    report_failure(program, size, rc, err)
                    runs = 0
                else:
                    problems = spec["check"](reference, text, params)
            for i in range(runs):
                probes.append(benchlib.speed_probe())
                wall, rss, rc, text, err = benchlib.timed(args)
                counts = benchlib.counters(text)
                if rc != 0 or "cycles" not in counts:
                    report_failure(program, size, rc, err)
                    break
                if checked_cycles is not None and \
                        counts["cycles"] != checked_cycles:
                    print(f"{program} {size}: the checked run took "
                          f"{checked_cycles:,} cycles, a timed one "
                          f"{counts['cycles']:,}")
                    problems = problems or ["cycle counts differ"]
                walls.append(wall)
                peaks.append(rss)
                rates.append(counts["cycles"] * pes / wall / (threads or 1))
            ok = len(walls) == runs and runs > 0
            cycles = counts.get("cycles", 0)
            busy = counts.get("main thread busy cycles", 0)
            details = {
                "params": params, "pes": pes, "threads": threads or 1,
                "compile_seconds": round(c_wall, 3),
                "compile_peak_mb": round(c_rss, 1),
                "cycles": cycles,
                "tile_cycles": cycles * pes,
                "instructions": counts.get("instructions"),
                "dsd_elements": counts.get("dsd elements"),
                "link_hops": counts.get("link hops"),
                "busy_fraction": round(busy / (cycles * pes), 3)
                if cycles else None,
                "wall_seconds": [round(x, 3) for x in walls],
                "peak_mb": [round(x, 1) for x in peaks],
                "speed_probe_ms": probes,
            }
            label = f"{spec['what']} {size}"
            # Idle PEs cost the emulator little, so say how busy they were.
            busy_text = (f" (PEs busy {details['busy_fraction']:.0%} of "
                         "cycles)" if cycles else "")
            results.add(f"{size}.tile_cycles_per_s",
                        f"{label}{busy_text}: emulated tile-cycles per host "
                        "second per thread", "tile-cycles/s", rates,
                        target=TILE_CYCLES_TARGET, command=command,
                        details=details)
            results.add(f"{size}.wall", f"{label}: tessera-run wall time",
                        "s", walls, better="lower", command=command)
            results.add(f"{size}.peak_rss", f"{label}: tessera-run peak RSS",
                        "MB", peaks, better="lower", command=command)
            if size == "750x994":
                results.add(f"{size}.runs", f"{label} runs to the end",
                            "bool", [1 if ok else 0], target=1,
                            command=command)
            if check and problems is not None:
                results.add(f"{size}.matches_reference",
                            f"{label} matches its reference exactly", "bool",
                            [0 if problems else 1], target=1,
                            command=command, summary=size == sizes[0])
            print(f"{program} {size} ({param_text}): compile {c_wall:.2f} s "
                  f"{c_rss:.0f} MB; run " +
                  ", ".join(f"{x:.2f}" for x in walls) + " s, "
                  f"{max(peaks, default=0):.0f} MB peak; {cycles:,} cycles x "
                  f"{pes:,} PEs; busy {details['busy_fraction']}; "
                  f"{benchlib.median(rates) or 0:,.0f} tile-cycles/s"
                  + (f" per thread ({threads} threads)" if threads else "")
                  + "; speed probe " + ", ".join(f"{x:.0f}" for x in probes)
                  + " ms"
                  + ("" if not check or problems is None else
                     "; result " + ("matches the reference" if not problems
                                    else f"WRONG: {problems[0][:200]}")))
    results.write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
