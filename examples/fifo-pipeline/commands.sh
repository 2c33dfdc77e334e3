#!/usr/bin/env bash
# Compile and run fifo-pipeline, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=8,3 --fabric-offsets=4,1 \
  --params=count:40,h2d:2,d2h:3 -o out --memcpy --channels=1
cs_python run.py --name out
