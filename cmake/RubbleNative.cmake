# Code for the CPU of the machine that builds it (rubble is built where it runs, as HPC codes
# are): AVX2 and FMA-width vectors where there are any, and an instruction instead of a libm
# call for floor. Contraction into fused multiply-adds stays off everywhere: results must not
# depend on where the compiler inlines a formula (the collision engine and its brute-force
# check call the same contact formula and must agree bitwise).
option(RUBBLE_NATIVE "Compile for the building machine's CPU (-march=native)" ON)
if(RUBBLE_NATIVE AND NOT RUBBLE_SANITIZE)
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-march=native RUBBLE_HAS_MARCH_NATIVE)
  if(RUBBLE_HAS_MARCH_NATIVE)
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=native>)
  endif()
endif()
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)
