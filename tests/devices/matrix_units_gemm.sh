#!/bin/sh
# The project's coopmat2 GEMM (64x64 of C, K 32, 128 invocations) created through the layer on a GPU
# proxy at matrix_units=auto: its lowered module must multiply on the driver's units
# (OpCooperativeMatrixMulAddKHR) and, where the compiler reports shared memory (ACO), take no more of it
# than the plain lowering (matrix_units=plain) of the same kernel: a kept sum wider than A and B goes
# to the plain layout through their area, in bands.
#   matrix_units_gemm.sh PROXY COMPILE_KERNELS SPIRV DUMP_DIR GPU compare|no-compare
set -eu
proxy=$1 compile=$2 spirv=$3 dumps=$4 gpu=$5 compare=$6
create() {
  VK_POLYFILL_EXTENSIONS_MATRIX_UNITS=$1 VK_POLYFILL_EXTENSIONS_DUMP_DIR=$dumps/$1 "$proxy" "$gpu" "$compile" --spirv "$spirv" \
    --route layer --spec 0=128 --spec 2=128 --spec 3=64 --spec 4=64 --spec 5=32 --name gemm --expect created |
    sed -n 's/^\[ COMPILER \] .*"shared": \([0-9]*\).*/\1/p'
}
rm -rf "$dumps" && mkdir -p "$dumps/auto" "$dumps/plain"
auto_shared=$(create auto)
units=$(spirv-dis "$dumps"/auto/*.lowered.spv | grep -c OpCooperativeMatrixMulAddKHR || true)
echo "multiply-adds on the units: $units"
[ "$units" -gt 0 ]
[ "$compare" = compare ] || exit 0
plain_shared=$(create plain)
echo "shared memory: $auto_shared bytes on the units, $plain_shared plain"
[ -n "$auto_shared" ] && [ -n "$plain_shared" ] && [ "$auto_shared" -le "$plain_shared" ]
