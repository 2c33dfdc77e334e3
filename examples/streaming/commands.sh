#!/usr/bin/env bash
# Compile and run streaming, as the SDK examples' commands scripts do.
set -e
cslc ./layout.csl --arch=wse3 --fabric-dims=10,5 --fabric-offsets=4,1 \
  --params=width:3,height:3,count:8,h2d:2,d2h:3 -o out --memcpy --channels=1
cs_python run.py --name out
