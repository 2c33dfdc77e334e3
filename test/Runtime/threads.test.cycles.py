"""Prints the cycles the stats files (one JSON line each, TESSERA_STATS)
agree on, or what differs."""
import json
import sys

cycles = []
for path in sys.argv[1:]:
    with open(path) as f:
        cycles.append([json.loads(line)["cycles"] for line in f])
if all(c == cycles[0] for c in cycles):
    print("same cycles:", sum(cycles[0]))
else:
    print("cycles differ:", cycles)
