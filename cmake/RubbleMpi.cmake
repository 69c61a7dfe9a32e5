# RUBBLE_MPI=AUTO builds the MPI executable (build/.../mpi/rubble, src/mpi) beside the serial
# `rubble` when CMake's FindMPI finds an MPI library (Debian: libopenmpi-dev); ON requires it;
# OFF never looks. The serial executable and every layer below the command line are the same
# either way: only src/mpi includes <mpi.h> (docs/mpi.md).
set(RUBBLE_HAVE_MPI OFF)
if(NOT RUBBLE_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(RUBBLE_HAVE_MPI ON)
  elseif(RUBBLE_MPI STREQUAL "ON")
    message(FATAL_ERROR "RUBBLE_MPI=ON but no MPI library was found (Debian: libopenmpi-dev)")
  endif()
endif()
message(STATUS "rubble: MPI executable ${RUBBLE_HAVE_MPI}")
