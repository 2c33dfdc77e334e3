#!/usr/bin/env bash
# Compile and run collectives-2d, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=11,5 --fabric-offsets=4,1 \
  --memcpy --channels=1 -o out
cs_python run.py --name out
