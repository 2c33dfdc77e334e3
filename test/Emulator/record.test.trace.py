"""Prints the complete ("X") events of a Chrome trace-event file, one line
each, as "PROCESS NAME START-END", after their count."""
import json
import sys

with open(sys.argv[1]) as f:
    trace = json.load(f)
events = trace["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "process_name"}
spans = [e for e in events if e["ph"] == "X"]
print("complete events:", len(spans))
for e in sorted(spans, key=lambda e: (e["pid"], e["ts"], e["name"])):
    print(names[e["pid"]], e["name"], f"{e['ts']}-{e['ts'] + e['dur']}")
