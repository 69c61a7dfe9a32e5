#!/usr/bin/env bash
# rubble's GJK against openGJK side by side (bench/peers/gjk_vs_opengjk.cpp; docs/polyhedra.md).
# Usage: bench/peers/gjk_vs_opengjk.sh OPENGJK_CHECKOUT   (git clone of MattiaMontanari/openGJK)
set -euo pipefail
peer=${1:?"usage: $0 OPENGJK_CHECKOUT"}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
gcc -O3 -march=native -DNDEBUG -c "$peer/scalar/openGJK.c" -I"$peer/scalar/include" -o "$out/openGJK.o"
g++ -std=c++20 -O3 -march=native -DNDEBUG -I"$root/include" -I"$peer/scalar/include" \
    "$root/bench/peers/gjk_vs_opengjk.cpp" "$out/openGJK.o" -lm -o "$out/gjk_vs_opengjk"
"$out/gjk_vs_opengjk"
