#!/usr/bin/env bash
# Compile and run switch-broadcast, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=11,3 --fabric-offsets=4,1 \
  --params=width:4,size:5 -o out --memcpy --channels=1
cs_python run.py --name out
