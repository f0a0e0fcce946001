#!/bin/bash
# Where the window programs stand against PyTorch's convolution (cuDNN) and
# its compiled slicing, before halo tiles: the programs in $DIR (default
# experiments/windows/programs/: a 25-point f32 star, depthwise 1-D convolutions of 7 and 31 taps,
# and the blur, conv2d and 7-point benchmarks as corpus programs with
# twins), timed by `tiler corpus --peer` with block-shape and points
# variants for the 25-point star. On a GPU host after `source .gpu/bootstrap`.
set -u
out=${OUT:-halo}
dir=${DIR:-experiments/windows/programs}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
timeout ${S25_S:-240} python3 -m tiler corpus $dir --only s25_f32 --sizes medium,large --peer \
  --variant p4=--window-points\ 4 --variant p16=--window-points\ 16 \
  --variant t16=--tile\ 1,16,32 --variant t4=--tile\ 1,4,64 --variant t16p16=--tile\ 1,16,32\ --window-points\ 16 \
  --json "$out/s25.json" > "$out/s25.log" 2>&1
grep -v "^  (" "$out/s25.log" | tail -30
timeout ${REST_S:-300} python3 -m tiler corpus $dir --only c1d7_f32 --only c1d31_f32 --only bl --only s7 --only cv \
  --sizes medium,large --peer --variant p16=--window-points\ 16 --json "$out/rest.json" > "$out/rest.log" 2>&1
grep -v "^  (" "$out/rest.log" | tail -40
