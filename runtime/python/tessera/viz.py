"""Pictures of a run from Python (docs/Debugging.md, "From Python").

    from tessera import viz

    runner = SdkRuntime(out, record="rec")   # stop() writes rec/run.json
    ...
    busy = viz.pe_values("rec", "busy")       # rows of ints, None: no program
    viz.heat_map("rec", "busy.png", metric="busy")
    viz.heat_map("rec", "links.svg", links=True, color=3)
    viz.trace("rec", "trace.json", region=(0, 0, 3, 3), cycles=(0, 5000))
    viz.report("rec", "report.html")

A record is a run.json file or a directory holding one (docs/RunRecord.md).
Metrics: busy, stall, memory, instructions, dsd-elements, tasks, sent,
received. Errors are ValueError (TypeError for a wrong kind of argument)
with the message tessera-viz would print.
"""

import numbers
import os

from tessera import _viz

__all__ = ["METRICS", "pe_values", "heat_map", "trace", "report"]

METRICS = ("busy", "stall", "memory", "instructions", "dsd-elements",
           "tasks", "sent", "received")


def _path(value, what):
    try:
        return os.fsdecode(os.fspath(value))
    except TypeError:
        raise TypeError(f"{what} must be a path (str or os.PathLike), not "
                        f"{type(value).__name__}") from None


def _metric(metric):
    if metric not in METRICS:
        raise ValueError(f"no metric named {metric!r} (one of "
                         f"{', '.join(METRICS)})")
    return metric


def _whole(value, what, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to "
                         f"{high}, not {value!r}")
    return int(value)


def pe_values(record, metric="busy"):
    """The metric of every PE as rows (y) of values (x); None where no PE
    runs a program."""
    return _viz.pe_values(_path(record, "record"), _metric(metric))


def heat_map(record, out, metric="busy", links=False, color=None):
    """Writes a heat map of a PE metric, or with `links` of the wavelets per
    link (all colors, or `color`), as PNG or SVG as `out` ends."""
    out = _path(out, "out")
    extension = os.path.splitext(out)[1].lower()
    if extension not in (".png", ".svg"):
        raise ValueError(f"heat_map: {out!r} must end in .png or .svg")
    if color is not None:
        color = _whole(color, "color", 0, 23)
    _viz.heat_map(_path(record, "record"), out, _metric(metric), bool(links),
                  color, extension == ".svg")


def trace(record, out, region=None, colors=None, cycles=None):
    """Writes a Chrome trace-event file (Perfetto, chrome://tracing) of the
    PEs in `region` (x0, y0, x1, y1), wavelets of `colors`, and the cycles
    `cycles` (first, end) only, where given."""
    if region is not None:
        region = [_whole(v, "region", 0, 65535) for v in region]
        if len(region) != 4 or region[0] > region[2] or region[1] > region[3]:
            raise ValueError("region must be (x0, y0, x1, y1) with x0 <= x1 "
                             "and y0 <= y1")
    if colors is not None:
        colors = [_whole(c, "color", 0, 23) for c in colors]
    first, end = 0, None
    if cycles is not None:
        first, end = (_whole(c, "cycles", 0, 2**63) for c in cycles)
        if first >= end:
            raise ValueError("cycles must be (first, end) with first < end")
    _viz.trace(_path(record, "record"), _path(out, "out"), region, colors,
               first, end)


def report(record, out, metric="busy"):
    """Writes the self-contained HTML report of the run."""
    _viz.report(_path(record, "record"), _path(out, "out"), _metric(metric))
