#!/usr/bin/env bash
# Installs, from Debian 12 packages, whatever the build and the tests need and is missing.
# Non-interactive; uses sudo when not run as root.
set -euo pipefail

packages=(
  cmake g++ make pkg-config            # toolchain
  libeigen3-dev nlohmann-json3-dev     # core: linear algebra, project files
  libcli11-dev                         # articula-cli option parsing
  libceres-dev libsuitesparse-dev      # core/factor_graph: Ceres solve, COLAMD/AMD orders
  catch2                               # tests
  libbenchmark-dev                     # articula-bench
  libmujoco-dev libsimbody-dev         # articula-bench: peer engines, side by side
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl1-mesa-dev   # the desktop application
  libqt6svg6                           # its toolbar icons (SVG)
  libopenscenegraph-dev                # its 3D view
  xvfb xauth imagemagick               # GUI tests and screenshots without a display
  clang-format                         # scripts/check-format (layout checked in CI)
  pybind11-dev python3-dev python3-numpy           # the articula Python module (python/)
  python3-pytest                                   # its tests (tests/python, run by ctest)
  python3-dask python3-distributed python3-pandas  # articula.study on a Dask cluster
  python3-scipy python3-matplotlib                 # examples/: optimisation, plots
  python3-siconos                                  # tests/peers: a second contact reference
  liburdfdom-dev libtinyxml-dev libsdformat-dev    # interchange/: URDF and SDFormat import
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev  # video export (H.264 MP4, WebM, GIF)
  ffmpeg                                           # ffprobe, to check exported videos in tests
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
