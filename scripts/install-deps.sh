#!/usr/bin/env bash
# Installs exactly what Tessera needs from Debian packages. Idempotent: packages
# already present are skipped, and nothing is done when all are present.
set -euo pipefail

# One package per line; later issues append here.
packages=(
  cmake
  ninja-build
  ccache
  g++
  make
  llvm-22-dev
  llvm-22  # llvm-profdata-22: the emulator's profile (cmake/TesseraEmulatorOptimization.cmake)
  llvm-22-tools
  libmlir-22-dev
  mlir-22-tools
  clang-22
  lld-22
  libclang-rt-22-dev
  libboost-dev
  nlohmann-json3-dev
  catch2
  pybind11-dev
  python3-dev
  python3-numpy
  # Host scripts of the public CSL examples import these (docs/Conformance.md).
  python3-scipy
  python3-matplotlib
  python3-pandas
  # The weight-streaming example trains on scikit-learn's digits (issue 10).
  python3-sklearn
  zlib1g-dev chromium  # tessera-viz: PNG output; its HTML report test (issue 12)
  # tessera-run-mpi: the fabric split among MPI ranks (issue 11).
  libopenmpi-dev
  openmpi-bin
  # SwarmX systems as MPI ranks (tessera.swarmx_ranks).
  python3-mpi4py
  # cslc's and tessera-run's heap on huge pages (cmake/TesseraHeap.cmake).
  libjemalloc-dev
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || {
    echo "install-deps: error: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  }
  sudo="sudo"
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# libmlir-19 and libmlir-22 conflict; apt removes 19 when 22 comes in.
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
