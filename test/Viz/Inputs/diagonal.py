"""Writes a run record of a wafer-sized fabric (750 x 994 PEs, wse3) in which
only the PEs on the diagonal ran: PE (i, i) was busy for i cycles and sent
i wavelets east on color 1.
"""
import json
import sys

width, height = 750, 994
pes = [{"x": i, "y": i, "program": "pe.csl", "counters": {"busyCycles": i}}
       for i in range(width)]
links = [{"x": i, "y": i, "direction": "east", "color": 1, "wavelets": i}
         for i in range(width - 1)]
record = {"version": 1, "arch": "wse3", "width": width, "height": height,
          "cycles": 1000, "pes": pes, "links": links}
with open(sys.argv[1], "w") as output:
    json.dump(record, output)
