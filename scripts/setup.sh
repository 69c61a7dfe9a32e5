#!/usr/bin/env bash
# Installs the Debian packages rubble needs (only those missing) and builds one CMake preset.
#   scripts/setup.sh [release|debug-sanitize|cuda] [TARGET...]   (default: release, all targets)
# RUBBLE_EXTRA_PACKAGES adds Debian packages (scripts/test.sh: ParaView for the XDMF test).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make pkg-config libeigen3-dev libboost-dev libhdf5-dev libcli11-dev
          libtomlplusplus-dev googletest libgtest-dev libbenchmark-dev hdf5-tools clang-format
          python3-h5py python3-numpy python3-scipy python3-matplotlib python3-pytest
          pybind11-dev python3-dev
          ${RUBBLE_EXTRA_PACKAGES:-})
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

preset="${1:-release}"
case "$preset" in
  release) dir=build/release ;;
  debug-sanitize) dir=build/sanitize ;;
  cuda) dir=build/cuda ;;
  *) echo "setup: unknown preset '$preset'" >&2; exit 2 ;;
esac
cmake --preset "$preset" >/dev/null
shift || true
targets=()
[ $# -eq 0 ] || targets=(--target "$@")
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
