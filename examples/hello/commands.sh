#!/usr/bin/env bash
# Compile and run hello, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --fabric-dims=11,3 --fabric-offsets=4,1 \
  --params=width:4,size:8 -o out --memcpy --channels=1
cs_python run.py --name out
