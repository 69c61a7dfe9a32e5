#!/bin/bash
# Packs what the lent GPU machine (no package registry, another distribution) needs to run
# this build: stripped binaries, the shared libraries they load (glibc and libstdc++ aside),
# and Open MPI with PMIx at their Debian paths (OPAL_PREFIX and PMIX_INSTALL_PREFIX relocate
# them). Into .devkit/ (git-ignored), carried by the device tool; then run
# bench/device/mpi_scaling.sh there. docs/benchmarks.md, "One run over MPI ranks".
set -euo pipefail
R=$(cd "$(dirname "$0")/../.." && pwd); K=$R/.devkit; B=$R/build/release
rm -rf $K; mkdir -p $K/bin $K/lib $K/root
grep -qx '/.devkit/' $R/.git/info/exclude || echo '/.devkit/' >> $R/.git/info/exclude
cp $B/rubble $K/bin/rubble; cp $B/mpi/rubble $K/bin/rubble_mpi
cp $B/tests/rubble_gpu_tests $B/bench/rubble_gpu_bench $B/bench/rubble_mpi_gather_bench $B/bench/rubble_mpi_drift_bench $B/tests/rubble_mpi_ranks_tests $K/bin/
cp $R/bench/device/mpi_scaling.sh $R/bench/device/same_h5.py $R/bench/device/cloud.toml $R/bench/mpi_model.py $K/
strip $K/bin/*
skip='^(linux-vdso|libc\.so|libm\.so|ld-linux|libstdc\+\+|libgcc_s|libresolv|libpthread|libdl\.so|librt\.so|libcuda)'
for f in $K/bin/* /usr/bin/orterun /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so; do
  ldd $f 2>/dev/null | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read n p; do
  [[ $n =~ $skip ]] && continue
  # components' optional deps (ucx, fabric, verbs, psm) are left out: those components just fail to load
  [[ $n =~ ^(libucp|libucs|libuct|libucm|libfabric|libibverbs|librdmacm|libpsm|libnl|libefa|libmlx|libhcoll|libjvm|libjava) ]] && continue
  cp -L $p $K/lib/$n
done
# Open MPI and PMIx at their own absolute paths (copied to / on the device only where missing)
mkdir -p $K/root/usr/lib/x86_64-linux-gnu $K/root/usr/share $K/root/usr/bin
cp -a /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 $K/root/usr/lib/x86_64-linux-gnu/
rm -rf $K/root/usr/lib/x86_64-linux-gnu/openmpi/include $K/root/usr/lib/x86_64-linux-gnu/pmix2/include
cp -a /usr/share/openmpi $K/root/usr/share/
cp -L /usr/bin/orterun $K/root/usr/bin/orterun; cp -L /usr/bin/orted $K/root/usr/bin/orted 2>/dev/null || true
du -sh $K; du -sh $K/*
