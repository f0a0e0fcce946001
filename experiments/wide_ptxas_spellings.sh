#!/bin/bash
# ptxas experiment: each variant of seeds 640373/304335's 64-bit version, built -O3, run, and under memcheck
cd "${1:?the folder of the variants}"
o=${OUT:-/tmp}/ptx.log
nvcc --version | tail -2 >> $o
for f in w640_*.cu w304_*.cu; do
  n=${f%.cu}
  nvcc -arch=sm_90 -o $n $f -lcuda 2>>$o.err || { echo "$n: nvcc failed" >> $o; continue; }
  ./$n > $n.out 2>&1; rc=$?
  echo "$n: rc=$rc $(head -2 $n.out | tr '\n' ' ')" >> $o
  ms=$(compute-sanitizer --tool memcheck ./$n 2>&1 | grep -c "Invalid")
  echo "   memcheck invalid: $ms" >> $o
done
for t in w640 w304; do
  nvcc -arch=sm_90 -Xptxas -O0 -o ${t}_O0 ${t}_orig.cu -lcuda && ./${t}_O0 > ${t}_O0.out 2>&1; echo "${t}_O0: rc=$? $(head -2 ${t}_O0.out|tr '\n' ' ')" >> $o
  nvcc -arch=sm_90 -cubin -o $t.cubin ${t}_orig.cu
  cuobjdump -sass $t.cubin | awk "/Function : tiler_s[0-9]*_tiled_wide/,/Function : tiler_s[0-9]*_[a-z]*$/" > ${OUT:-/tmp}/$t.sass
  nvcc -arch=sm_90 -ptx -o ${OUT:-/tmp}/$t.ptx ${t}_orig.cu
done
cat $o
