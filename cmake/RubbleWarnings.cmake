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
  # UndefinedBehaviorSanitizer without the checks AddressSanitizer already makes or that cost
  # compile time for no finding on x86-64: null (a null dereference is ASan's SEGV report),
  # object-size (ASan's redzones bound every object exactly), alignment (x86-64 loads any
  # alignment) and vptr (rubble's few virtual calls are on objects it made); a third less
  # compile time. Overflow, shifts, bounds, enums, bools, float casts and the rest stay.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize=null,object-size,alignment,vptr>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  # The sanitizers' instrumentation makes GCC's flow analysis report std::variant<..., string>
  # copies as maybe-uninitialized (false positives, GCC bug 105562 and its duplicates; the GCC
  # manual warns that -fsanitize may cause spurious warnings). The release build keeps the
  # warning as an error.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  # -O1 -g1 after the build type's flags: -O1 as the AddressSanitizer documentation recommends
  # for reasonable speed, and line tables only, which is all a sanitizer's stack trace reads.
  # GCC 12 took about four times a release compile's time for -O2 -g with both sanitizers,
  # about twice -O1 -g1's: the whole test script must fit on a 2-core CI machine.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-O1> $<$<COMPILE_LANGUAGE:CXX>:-g1>)
  add_link_options(-fsanitize=address,undefined)
endif()
