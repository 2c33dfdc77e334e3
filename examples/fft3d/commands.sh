#!/usr/bin/env bash
# Compile and run fft3d, as the SDK examples' commands scripts do: an
# 8x8x8 FFT on 2x2 PEs, once in f32 and once in f16. Run it from this
# directory (`bash commands.sh`); it also works from elsewhere, reading the
# sources next to it and writing out_f32/ and out_f16/ in the current one.
set -e
here=$(dirname "$0")
cslc "$here/layout.csl" --arch=wse3 --fabric-dims=9,4 --fabric-offsets=4,1 \
  --params=N:8,pencils:4,FP:1 -o out_f32 --memcpy --channels=1
cs_python "$here/run.py" --name out_f32
cslc "$here/layout.csl" --arch=wse3 --fabric-dims=9,4 --fabric-offsets=4,1 \
  --params=N:8,pencils:4,FP:0 -o out_f16 --memcpy --channels=1
cs_python "$here/run.py" --name out_f16
