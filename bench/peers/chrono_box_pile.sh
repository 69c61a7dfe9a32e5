#!/usr/bin/env bash
# rubble's NSC stepper against Project Chrono's NSC (ChSystemNSC, PSOR, Bullet) side by side
# (issue 21; bench/peers/chrono_box_pile.cpp; docs/polyhedra.md, "Box pile benchmark"): builds
# the Chrono program with g++ against an installed Chrono core (not part of the CMake build: a
# peer is fetched and built by hand), then runs, one after the other on this machine:
#   1. Chrono: the incline and the bounce (PSOR 100), then the box pile (fill with PSOR 50, then
#      200 timed settled steps each with PSOR 50 and 100);
#   2. rubble's bench (build/release/bench/rubble_polyhedra_pile_bench, used as it is; built
#      only if missing): APGD 50 x 2 filling the box and saving the settled pile, then on that
#      pile APGD 100 x 2, PGS 50 x 2 and PGS 100 x 2;
# and prints the ratios Chrono ms/step / rubble ms/step.
#
# Usage: bench/peers/chrono_box_pile.sh
# Environment (defaults in brackets):
#   CHRONO_INSTALL  Chrono install prefix [/work/peers/chrono-install]
#   CHRONO_SRC      Chrono source tree, for its COMMIT file if any [/work/peers/chrono-src]
#   RUBBLE_BUILD    rubble's release build folder [<repo>/build/release]
#   CHRONO_ARGS     extra arguments of the Chrono program []
#   RUBBLE_ARGS     extra arguments of every rubble bench run []
#   SKIP_CHRONO=1 / SKIP_RUBBLE=1  run one side only
#   OUT             folder for the binaries and logs [a new temporary folder]
# Building Chrono's core (once; ENABLE_MODULE_* off, Release):
#   cmake -S chrono-src -B chrono-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
#     -DCMAKE_INSTALL_PREFIX=$CHRONO_INSTALL -DBUILD_DEMOS=OFF -DBUILD_TESTING=OFF \
#     -DBUILD_BENCHMARKING=OFF -DCH_ENABLE_YAML=OFF -DCH_ENABLE_MODULE_FEA=OFF \
#     -DCH_ENABLE_MODULE_ROBOT_MODELS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
#   ninja -C chrono-build install
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
chrono=${CHRONO_INSTALL:-/work/peers/chrono-install}
chrono_src=${CHRONO_SRC:-/work/peers/chrono-src}
build=${RUBBLE_BUILD:-$root/build/release}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

echo "machine: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "rubble: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src include || echo ' (+ uncommitted changes in src/include)')"
[ -f "$chrono_src/COMMIT" ] && echo "chrono commit: $(cat "$chrono_src/COMMIT")"

# Chrono's library directory (lib or lib64) and its include flags (Eigen from Debian's package
# unless EIGEN_INCLUDE is set).
libdir=$chrono/lib
[ -d "$chrono/lib64" ] && libdir=$chrono/lib64
eigen=${EIGEN_INCLUDE:-/usr/include/eigen3}

ms_of() { # the value of key $2 on the RESULT line of $1 matching $3
    grep '^RESULT' "$1" | grep -- "$3" | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}

if [ "${SKIP_CHRONO:-0}" != 1 ]; then
    # The flags of Chrono's exported target Chrono::Chrono_core (lib/cmake/Chrono).
    g++ -std=c++17 -O3 -march=native -DNDEBUG -DCH_IGNORE_DEPRECATED -fopenmp \
        -I"$chrono/include" -I"$chrono/include/chrono/collision/bullet" \
        -I"$chrono/include/chrono_thirdparty/HACDv2" -I"$chrono/include/chrono" -I"$eigen" \
        "$root/bench/peers/chrono_box_pile.cpp" -L"$libdir" -Wl,-rpath,"$libdir" -lChrono_core \
        -pthread -o "$out/chrono_box_pile"
    echo "== Chrono: $out/chrono_box_pile ${CHRONO_ARGS:-}"
    # shellcheck disable=SC2086
    "$out/chrono_box_pile" ${CHRONO_ARGS:-} | tee "$out/chrono.log"
fi

if [ "${SKIP_RUBBLE:-0}" != 1 ]; then
    bench=$build/bench/rubble_polyhedra_pile_bench
    [ -x "$bench" ] || cmake --build "$build" --target rubble_polyhedra_pile_bench
    pile=$out/rubble_pile.bin
    run_rubble() { # name, arguments
        local name=$1
        shift
        echo "== rubble ($name): $bench $* ${RUBBLE_ARGS:-}"
        # shellcheck disable=SC2086
        "$bench" "$@" ${RUBBLE_ARGS:-} | tee "$out/rubble_$name.log" | grep -v '^step '
    }
    run_rubble apgd50 --iterations 50 --ccps 2 --save-pile "$pile"
    run_rubble apgd100 --iterations 100 --ccps 2 --load-pile "$pile"
    run_rubble pgs50 --pgs --iterations 50 --ccps 2 --load-pile "$pile"
    run_rubble pgs100 --pgs --iterations 100 --ccps 2 --load-pile "$pile"
fi

if [ "${SKIP_CHRONO:-0}" != 1 ] && [ "${SKIP_RUBBLE:-0}" != 1 ]; then
    echo "== ratios (settled box pile, ms per step, one thread)"
    rubble_ms() { sed -n 's/^settled .*ms\/step *\([0-9.]*\).*/\1/p' "$out/rubble_$1.log"; }
    for it in 50 100; do
        c=$(ms_of "$out/chrono.log" ms_per_step "chrono_pile_settled psor_iterations=$it ")
        for v in apgd pgs; do
            r=$(rubble_ms "$v$it")
            [ -n "$c" ] && [ -n "$r" ] &&
                awk -v c="$c" -v r="$r" -v it="$it" -v v="$v" 'BEGIN {
                    printf "Chrono PSOR %d: %.2f ms / rubble %s %d x 2: %.2f ms = %.2f\n",
                           it, c, toupper(v), it, r, c / r }'
        done
    done
fi
echo "logs in $out"
