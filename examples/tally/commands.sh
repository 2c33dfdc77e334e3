#!/usr/bin/env bash
# Compile and run tally, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=11,5 --fabric-offsets=4,1 \
  --params=width:4,height:3,first:6,second:4,top:20,h2d:2,d2h:3 \
  -o out --memcpy --channels=1
cs_python run.py --name out
