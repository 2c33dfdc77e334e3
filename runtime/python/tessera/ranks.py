"""One fabric split among MPI ranks, driven by an unchanged host script.

    mpirun -np N cs_python -m tessera.ranks run.py [ARGS...]

Rank 0 runs run.py as `cs_python run.py ARGS...` would, with every
SdkRuntime it makes splitting its fabric's rows among the N ranks; ranks
1..N-1 run no script but serve their rows of each fabric until rank 0 ends
(docs/Scaling.md "Host programs on ranks"). The script prints and computes
exactly what it does in one process, with the same cycle counts. With one
rank (or without mpirun) it is just `cs_python run.py`.

Plain `mpirun -np N cs_python run.py` runs the script on every rank, as
SwarmX systems as ranks want (tessera.swarmx_ranks); this module is how a
script asks for one fabric over all of them instead.

The job ends as a script run would: rank 0's exit status is the script's
(1 with the traceback of an uncaught exception), and the other ranks stop
with it. A rank that cannot go on ends the whole job (MPI_Abort), so that
none waits forever.
"""

import os
import runpy
import sys
import traceback

USAGE = "usage: mpirun -np N cs_python -m tessera.ranks SCRIPT [ARGS...]"


def _exit_status(code):
    """The status SystemExit(code) gives, as the interpreter would."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback(error, script):
    """The traceback from the script's frames on, as `python SCRIPT` shows
    it (without this module's and runpy's frames)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != script:
        tb = tb.tb_next
    traceback.print_exception(type(error), error,
                              tb or error.__traceback__)


def _run_script(argv):
    """Rank 0: runs argv[0] as the main module with argv as sys.argv."""
    script = os.path.abspath(argv[0])
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(script)
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as error:
        return _exit_status(error.code)
    except BaseException as error:  # pylint: disable=broad-except
        _print_traceback(error, script)
        return 1
    return 0


def _first_rank(argv):
    """Rank 0: the script, or what is wrong with the command line."""
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if not os.path.isfile(argv[0]):
        print(f"tessera.ranks: error: cannot open '{argv[0]}': no such file",
              file=sys.stderr)
        return 2
    return _run_script(argv)


def main(argv):
    from tessera import _mpi, _runtime, runtime  # pylint: disable=import-outside-toplevel
    _mpi.init()
    if _mpi.rank() != 0:
        try:
            _runtime.serve(_mpi.link())
        except Exception as error:  # pylint: disable=broad-except
            print(f"tessera.ranks: error: {error}", file=sys.stderr,
                  flush=True)
            _mpi.abort(1)
        _mpi.finalize()
        return 0

    servers = _runtime.RankServers(_mpi.link()) if _mpi.size() > 1 else None
    runtime._use_ranks(servers)  # pylint: disable=protected-access
    try:
        status = _first_rank(argv)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        if servers is not None:
            servers.stop()
        _mpi.finalize()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
