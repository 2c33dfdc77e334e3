"""Compile-time measurements for bench/compile/run.sh: the generated
750x994 row-pipeline layout (gen_layout.py) compiled to an output directory
RUNS times, and, when CSL_EXAMPLES names a checkout of the public CSL
examples, every cslc command line of its tutorials, each compiled RUNS
times where its commands script runs it. Wall time and the peak RSS of each
cslc process.

usage: measure.py BUILD_DIR WIDTH HEIGHT
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import benchlib  # noqa: E402

# Issue 5: a 750x994 layout whose programs repeat in at most 60 s and 4 GB;
# every tutorial in under a second.
LAYOUT_SECONDS, LAYOUT_MB, TUTORIAL_SECONDS = 60, 4096, 1.0


def output_size(out):
    return sum(os.path.getsize(os.path.join(root, f))
               for root, _, files in os.walk(out) for f in files)


def layout(results, build, width, height):
    cslc = os.path.join(build, "bin", "cslc")
    runs = benchlib.runs_setting(3)
    command = (f"bash bench/compile/run.sh {os.path.relpath(build, ROOT)}"
               + ("" if (width, height) == (750, 994) else f" {width} {height}"))
    walls, peaks, details = [], [], {}
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_layout.py"),
                        work, str(width), str(height)], check=True)
        args = [cslc, "layout.csl", "--arch=wse3",
                f"--fabric-dims={width + 7},{height + 2}",
                "--fabric-offsets=4,1", "--memcpy", "--channels=1", "-o", "out"]
        for _ in range(runs):
            wall, peak, rc, _, err = benchlib.timed(args, cwd=work)
            if rc != 0:
                print(f"row pipelines {width}x{height}: cslc failed (exit {rc})"
                      f"\n{err[-2000:]}")
                break
            walls.append(wall)
            peaks.append(peak)
            out = os.path.join(work, "out")
            programs = json.load(open(os.path.join(out, "out.json")))["programs"]
            details = {
                "instances": sum(len(p["instances"]) for p in programs),
                "binaries": len(programs),
                "output_mb": round(output_size(out) / 1e6, 1),
            }
            print(f"row pipelines {width}x{height}: {wall:.2f} s, peak RSS "
                  f"{peak:.0f} MB, {details['instances']} program instances "
                  f"in {details['binaries']} binaries, output "
                  f"{details['output_mb']} MB")
    name = f"compile {width}x{height} row-pipeline layout (cslc -o)"
    results.add(f"layout_{width}x{height}.wall", f"{name}: wall time", "s",
                walls, target=LAYOUT_SECONDS, better="lower", command=command,
                details=details)
    results.add(f"layout_{width}x{height}.peak_rss", f"{name}: peak RSS", "MB",
                peaks, target=LAYOUT_MB, better="lower", command=command)


def load_examples_script():
    # The parsing of commands scripts lives in scripts/examples-cslc.py.
    path = os.path.join(ROOT, "scripts", "examples-cslc.py")
    spec = importlib.util.spec_from_file_location("examples_cslc", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tutorials(results, build, checkout):
    command = (f"CSL_EXAMPLES={checkout} bash bench/compile/run.sh "
               f"{os.path.relpath(build, ROOT)}")
    if not checkout or not os.path.isdir(os.path.join(checkout, "tutorials")):
        reason = ("CSL_EXAMPLES is not set" if not checkout else
                  f"{checkout} has no tutorials/")
        results.skip("tutorials", "compile each public tutorial", reason,
                     command="CSL_EXAMPLES=/path/to/csl-examples bash "
                     "bench/compile/run.sh build")
        return
    examples = load_examples_script()
    cslc = os.path.join(build, "bin", "cslc")
    runs = benchlib.runs_setting(3)
    root = os.path.join(checkout, "tutorials")
    slowest, largest, failed, count = (0, ""), (0, ""), [], 0
    with tempfile.TemporaryDirectory() as work:
        for name in sorted(os.listdir(root)):
            example = os.path.join(root, name)
            script = examples.command_script(example, "wse3")
            if not script:
                continue
            for i, args in enumerate(examples.cslc_lines(script)):
                label = name if i == 0 else f"{name}#{i + 1}"
                out = os.path.join(work, label.replace("#", "_"))
                full = [cslc] + examples.without_output(args) + ["-o", out]
                walls, peaks = [], []
                for _ in range(runs):
                    wall, peak, rc, _, err = benchlib.timed(full, cwd=example)
                    if rc != 0:
                        failed.append(label)
                        print(f"FAIL {label}: {err.strip()[-300:]}")
                        break
                    walls.append(wall)
                    peaks.append(peak)
                if not walls:
                    continue
                count += 1
                wall, peak = benchlib.median(walls), max(peaks)
                slowest = max(slowest, (wall, label))
                largest = max(largest, (peak, label))
                print(f"{label}: {wall:.2f} s, peak RSS {peak:.0f} MB")
                results.add(f"tutorial.{label}.wall",
                            f"compile tutorial {label}: wall time", "s",
                            walls, target=TUTORIAL_SECONDS, better="lower",
                            command=command, summary=False)
                results.add(f"tutorial.{label}.peak_rss",
                            f"compile tutorial {label}: peak RSS", "MB",
                            [max(peaks)], command=command, summary=False)
    results.add("tutorials.slowest", "compile the slowest public tutorial "
                f"({slowest[1]}; {count} command lines)", "s", [slowest[0]],
                target=TUTORIAL_SECONDS, better="lower", command=command)
    results.add("tutorials.largest", "largest peak RSS compiling a public "
                f"tutorial ({largest[1]})", "MB", [largest[0]],
                command=command, summary=True)
    results.add("tutorials.failed", "public tutorial command lines that fail "
                "to compile", "", [len(failed)], target=None, command=command,
                summary=True, details={"failed": failed})


def main():
    build, width, height = os.path.abspath(sys.argv[1]), int(sys.argv[2]), \
        int(sys.argv[3])
    results = benchlib.Results("compile")
    layout(results, build, width, height)
    tutorials(results, build, os.environ.get("CSL_EXAMPLES", ""))
    results.write()


if __name__ == "__main__":
    main()
