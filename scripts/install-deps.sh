#!/usr/bin/env bash
# Installs Kiln's build and test dependencies from Debian's packages.
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

PKGS=(
  cmake ninja-build g++ pkg-config
  libasmjit-dev llvm-19-dev libzstd-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-tools spirv-tools spirv-headers glslang-tools
  libmimalloc-dev doctest-dev libedit-dev libstb-dev nlohmann-json3-dev pybind11-dev python3-dev
  libdlpack-dev libeigen3-dev python3-numpy python3-pytest python3-pip python3-venv python3-setuptools python3-wheel
  python3-matplotlib openmpi-bin python3-mpi4py
  libsdl2-dev xvfb x11-apps x11-utils libxtst6 fonts-dejavu-core
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
# apt may be busy for a moment on a fresh machine (unattended upgrades): wait for the lock.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  if $SUDO apt-get -o DPkg::Lock::Timeout=120 update -qq &&
     $SUDO apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends "${missing[@]}"; then
    exit 0
  fi
  echo "install-deps: apt failed (attempt $attempt), retrying" >&2
  sleep 6
done
echo "install-deps: could not install ${missing[*]}" >&2
exit 1
