# RUBBLE_PYTHON=AUTO builds the Python module (build/.../python/rubble, python/) when Debian's
# pybind11-dev and python3-dev are found; ON requires them; OFF never looks. The module is a
# shared library that links the layers, so the layers' static libraries are then compiled as
# position-independent code (rubble_position_independent: -fPIC, with -fno-semantic-interposition
# so that calls within a layer are still inlined as in an executable); the executables and tests
# are compiled as before. Not with the sanitizers: an instrumented module cannot load into the system's
# uninstrumented interpreter.
set(RUBBLE_HAVE_PYTHON OFF)
if(NOT RUBBLE_PYTHON STREQUAL "OFF")
  if(RUBBLE_SANITIZE)
    if(RUBBLE_PYTHON STREQUAL "ON")
      message(FATAL_ERROR "RUBBLE_PYTHON=ON cannot be built with RUBBLE_SANITIZE")
    endif()
  else()
    # The interpreter the README runs (Debian's, with its python3-* packages).
    if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
      set(Python3_EXECUTABLE /usr/bin/python3)
    endif()
    find_package(Python3 COMPONENTS Interpreter Development.Module)
    if(Python3_FOUND)
      set(PYBIND11_FINDPYTHON ON)
      find_package(pybind11 CONFIG)
    endif()
    if(Python3_FOUND AND pybind11_FOUND)
      set(RUBBLE_HAVE_PYTHON ON)
    elseif(RUBBLE_PYTHON STREQUAL "ON")
      message(FATAL_ERROR "RUBBLE_PYTHON=ON but pybind11 or Python's headers were not found "
                          "(Debian: pybind11-dev python3-dev)")
    endif()
  endif()
endif()
message(STATUS "rubble: Python module ${RUBBLE_HAVE_PYTHON}")

# Makes a layer's static library fit to link into the Python module.
function(rubble_position_independent target)
  if(RUBBLE_HAVE_PYTHON)
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>)
  endif()
endfunction()
