"""Reads what a terminal got from tessera-run's progress: reports that each
start with a carriage return and end by erasing the rest of the line, and
a final erase."""
import sys

text = open(sys.argv[1], newline="").read()
reports = [r for r in text.split("\r") if r]
body = [r[:-len("\033[K")] for r in reports if r.endswith("\033[K")]
print("reports rewritten in place:", len([b for b in body if b]))
print("first:", body[0] if body else "")
print("erased at the end:", "yes" if text.endswith("\r\033[K") else "no")
