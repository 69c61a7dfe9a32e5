// SPDX-License-Identifier: MIT
#pragma once
// Whether a process was started as one of several ranks by an MPI launcher. The serial
// executable checks it, so that `mpirun -np 4 rubble run ...` with a rubble built without MPI
// is refused with a clear message instead of starting four copies of one run.
namespace rubble::cli {

/// The number of ranks the launcher started, from the environment it gives its processes
/// (Open MPI's OMPI_COMM_WORLD_SIZE; PMI_SIZE of MPICH's and Intel MPI's hydra and of Slurm's
/// srun --mpi=pmi2); 1 when there is none.
[[nodiscard]] int ranks_started_by_launcher();

} // namespace rubble::cli
