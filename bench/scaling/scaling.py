"""bench/scaling/run.sh: wall time of the bench stencil on one thread, two
threads and two MPI ranks, the speed-ups, and a check that all three print
the same run."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# mpirun refuses root without these, and containers forbid its ptrace copies.
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")


def main(build):
    results = benchlib.Results("scaling")
    runs = benchlib.runs_setting(3)
    sizes = [128] if os.environ.get("QUICK") else [128, 256]
    cslc = os.path.join(build, "bin", "cslc")
    run_tool = os.path.join(build, "bin", "tessera-run")
    mpi_tool = os.path.join(build, "bin", "tessera-run-mpi")
    with tempfile.TemporaryDirectory() as work:
        for side in sizes:
            size = f"{side}x{side}"
            out = os.path.join(work, size)
            params = f"w:{side},h:{side},n:8,iters:2"
            compile_args = [cslc, os.path.join(ROOT, "bench", "stencil",
                                               "layout.csl"), "--arch=wse3",
                            f"--params={params}", "-o", out]
            _, _, rc, _, err = benchlib.timed(compile_args)
            if rc != 0:
                sys.exit(f"cslc failed on {size}:\n{err}")
            ways = {
                "1 thread": ([run_tool, out], None),
                "2 threads": ([run_tool, out, "--threads=2"], None),
                "2 ranks": (["mpirun", "--quiet", "--oversubscribe",
                             "--bind-to", "none", "-np", "2", mpi_tool, out],
                            MPI_ENV),
            }
            walls, texts = {}, {}
            for _ in range(runs):
                for way, (args, env) in ways.items():
                    wall, _, rc, text, err = benchlib.timed(args, env=env)
                    if rc != 0:
                        sys.exit(f"{way} failed on {size}:\n{err}")
                    walls.setdefault(way, []).append(wall)
                    texts[way] = text
            same = all(text == texts["1 thread"] for text in texts.values())
            cycles = benchlib.counters(texts["1 thread"]).get("cycles", 0)
            tiles = side * side * cycles
            # How to repeat a run by hand (OUT: the compiled stencil).
            compiled = (f"cslc bench/stencil/layout.csl --arch=wse3 "
                        f"--params={params} -o OUT; ")
            shown = {"1 thread": "tessera-run OUT",
                     "2 threads": "tessera-run OUT --threads=2",
                     "2 ranks": "mpirun -np 2 tessera-run-mpi OUT"}
            for way in ways:
                median = benchlib.median(walls[way])
                print(f"stencil {size}, {way}: {median:.2f} s "
                      f"({tiles / median:.3g} tile-cycles/s)")
                results.add(f"{size}.{way.replace(' ', '_')}.wall",
                            f"stencil {size} ({cycles:,} cycles), {way}",
                            "s", walls[way], better="lower",
                            command=compiled + shown[way], summary=True)
            base = benchlib.median(walls["1 thread"])
            for way in ("2 threads", "2 ranks"):
                results.add(f"{size}.{way.replace(' ', '_')}.speedup",
                            f"stencil {size}: speed-up of {way} over 1",
                            "x", [base / w for w in walls[way]],
                            command="bench/scaling/run.sh", summary=True)
            results.add(f"{size}.same_output",
                        f"stencil {size}: 2 threads and 2 ranks print what "
                        f"1 thread prints", "bool", [int(same)], target=1,
                        command="bench/scaling/run.sh")
            if not same:
                print(f"stencil {size}: the runs differ")
    results.write()


if __name__ == "__main__":
    main(sys.argv[1])
