#!/usr/bin/env bash
# Compile and run memcpy-params.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=11,3 --fabric-offsets=4,1 \
  --memcpy --channels=1 -o out
cs_python run.py --name out
