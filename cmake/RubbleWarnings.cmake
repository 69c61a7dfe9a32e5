# Warnings as errors everywhere (STYLE.md); sanitizers as a configure switch.
add_library(rubble_warnings INTERFACE)
target_compile_options(rubble_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${RUBBLE_WERROR}>>:-Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wshadow>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${RUBBLE_WERROR}>>:-Werror=all-warnings>)

# Lets the compiler vectorise sqrt in the force loops; rubble never reads errno.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno>)
# The build targets plain x86-64. Measured and left out on the AMD EPYC development machine
# (docs/benchmarks.md): -march=native (no gain for the collisions or the gravity) and
# -ffp-contract=off (the tree and direct gravity 25 to 45 % slower, even without FMA).

if(RUBBLE_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  # The sanitizers' instrumentation makes GCC's flow analysis report std::variant<..., string>
  # copies as maybe-uninitialized (false positives, GCC bug 105562 and its duplicates; the GCC
  # manual warns that -fsanitize may cause spurious warnings). The release build keeps the
  # warning as an error.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  add_link_options(-fsanitize=address,undefined)
endif()
