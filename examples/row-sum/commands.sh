#!/usr/bin/env bash
# Compile row-sum and run it on the emulator (no host program needed).
set -e
cslc ./layout.csl --arch=wse2 --fabric-dims=8,1 --fabric-offsets=0,0 -o out
tessera-run out --dump=7,0,total
