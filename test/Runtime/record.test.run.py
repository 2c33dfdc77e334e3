"""Records hello's launch through SdkRuntime(record=...), then draws it
with tessera.viz, then tries bad arguments, one line each."""
import sys

from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime
from tessera import viz

runner = SdkRuntime(sys.argv[1], record="rec", sim_log="")
runner.load()
runner.run()
runner.launch("compute", nonblock=False)
runner.stop()
print("busy:", viz.pe_values("rec", "busy"))
viz.heat_map("rec", "busy.png", metric="busy")
viz.heat_map("rec/run.json", "links.svg", links=True)
viz.trace("rec", "trace.json", region=(1, 0, 2, 0), cycles=(0, 100))
viz.report("rec", "report.html")
# Only PEs 1..2 and cycles 0..99 are recorded.
part = SdkRuntime(sys.argv[1], record="part", record_region=(1, 0, 2, 0),
                  record_cycles=(0, 100), record_colors=[0, 3], sim_log="")
part.load()
part.run()
part.launch("compute", nonblock=False)
part.stop()
for call in (lambda: viz.heat_map("rec", "x.gif"),
             lambda: viz.pe_values("rec", "heat"),
             lambda: viz.trace("rec", "t.json", region=(3, 0, 1, 0)),
             lambda: viz.pe_values("missing", "busy"),
             lambda: viz.heat_map("rec", "l.svg", links=True, color=30),
             lambda: viz.trace("rec", "t.json", cycles=(5, 5)),
             lambda: viz.report(3, "r.html"),
             lambda: SdkRuntime(sys.argv[1], record=3),
             lambda: SdkRuntime(sys.argv[1], record="r",
                                record_region=(2, 0, 1, 0)),
             lambda: SdkRuntime(sys.argv[1], record="r",
                                record_cycles=(5, 5)),
             lambda: SdkRuntime(sys.argv[1], record="r",
                                record_colors=[24]),
             lambda: SdkRuntime(sys.argv[1], record_region=(0, 0, 1, 0))):
    try:
        call()
        print("no error")
    except (ValueError, TypeError) as error:
        print(f"{type(error).__name__}: {error}")
