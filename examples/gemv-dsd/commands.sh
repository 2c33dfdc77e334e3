#!/usr/bin/env bash
# Compile and run gemv-dsd.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=8,3 --fabric-offsets=4,1 \
  --memcpy --channels=1 -o out
cs_python run.py --name out
