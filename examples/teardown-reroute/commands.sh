#!/usr/bin/env bash
# Compile and run teardown-reroute, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=12,3 --fabric-offsets=4,1 \
  --params=arm:2,size:6 -o out --memcpy --channels=1
cs_python run.py --name out
