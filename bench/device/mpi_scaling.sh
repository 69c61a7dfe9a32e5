#!/bin/bash
# One gravity-only run over 1 to 16 MPI ranks (and OpenMP threads) on the lent GPU machine's
# 16-core host, and whether every file is the serial one bit for bit; the tree's time per step
# split by --rank-timings (bench/mpi_model.py); the spread drift at 1e5 and 1e6 spheres (issue
# 34; numbers in docs/benchmarks.md, "One run over MPI ranks", and docs/mpi.md). Made ready by
# bench/device/make_kit.sh; run there as: bash .devkit/mpi_scaling.sh (from the repository
# root, .devkit carried).
set -u
R=$PWD; K=$R/.devkit; O=${OUT:-/tmp/out}; mkdir -p $O
export LD_LIBRARY_PATH=$K/lib
export OPAL_PREFIX=$K/root/usr PMIX_INSTALL_PREFIX=$K/root/usr/lib/x86_64-linux-gnu/pmix2 PMIX_MCA_pcompress_base_silence_warning=1 PMIX_MCA_pcompress=^zlib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mtl=^ofi OMPI_MCA_osc=^ucx
MPIRUN="$K/root/usr/bin/orterun --bind-to none"
{
for d in openmpi pmix2; do [ -d /usr/lib/x86_64-linux-gnu/$d ] || cp -a $K/root/usr/lib/x86_64-linux-gnu/$d /usr/lib/x86_64-linux-gnu/; done
[ -d /usr/share/openmpi ] || cp -a $K/root/usr/share/openmpi /usr/share/
mkdir -p /tmp/g && cd /tmp/g && cp $K/cloud.toml .
for ns in 20000:20 60000:6; do
  n=${ns%:*}; steps=${ns#*:}
  echo "=== $(date +%T) N = $n, $steps steps of direct summation"
  OMP_NUM_THREADS=1 timeout 100 $K/bin/rubble run cloud.toml --ic.cloud.n $n --integrator.n_steps $steps --output.file s1_$n.h5 --quiet | grep "steps/s"
  echo "serial, 1 thread ^"
  OMP_NUM_THREADS=16 timeout 60 $K/bin/rubble run cloud.toml --ic.cloud.n $n --integrator.n_steps $steps --output.file s16_$n.h5 --quiet | grep "steps/s"
  echo "serial, 16 threads ^"
  for p in 2 4 8 16; do
    OMP_NUM_THREADS=1 timeout 60 $MPIRUN -np $p $K/bin/rubble_mpi run cloud.toml --ic.cloud.n $n --integrator.n_steps $steps --output.file p${p}_$n.h5 --quiet 2>&1 | grep -E "steps/s|error"
    echo "np $p, 1 thread each ^"
  done
  OMP_NUM_THREADS=4 timeout 60 $MPIRUN -np 4 $K/bin/rubble_mpi run cloud.toml --ic.cloud.n $n --integrator.n_steps $steps --output.file p4t4_$n.h5 --quiet 2>&1 | grep -E "steps/s|error"
  echo "np 4, 4 threads each ^"
  for f in s16_$n.h5 p2_$n.h5 p4_$n.h5 p8_$n.h5 p16_$n.h5 p4t4_$n.h5; do python3 $K/same_h5.py s1_$n.h5 $f; done
done
echo "=== $(date +%T) the tree over 1 to 16 ranks: computation, communication, waiting, bytes per step (docs/mpi.md, A performance model)"
cd $R && timeout 240 python3 $K/mpi_model.py --n 100000,400000 --ranks 2,4,8,16 --steps 4 --serial $K/bin/rubble --mpi $K/bin/rubble_mpi --mpirun "$MPIRUN"
cd /tmp/g
echo "=== $(date +%T) the drift of free spheres spread over 1 to 16 ranks (bench/mpi_drift_bench.cpp)"
for args in "46 8 0.1" "100 4 0.05"; do
  for p in 1 2 4 8 16; do
    OMP_NUM_THREADS=1 timeout 60 $MPIRUN -np $p $K/bin/rubble_mpi_drift_bench $args 2>&1 | grep -E "spheres|error"
  done
done
echo "=== $(date +%T) mpi ranks tests at 16 ranks"
OMP_NUM_THREADS=1 timeout 60 $MPIRUN -np 16 $K/bin/rubble_mpi_ranks_tests --gtest_color=no 2>&1 | tail -2
echo "=== $(date +%T) done"
} 2>&1 | grep -v "pmix_mca_base_component_repository_open\|dlopen error\|Perhaps a missing symbol" | tee $O/mpi_scaling.log
