"""pip install --no-build-isolation ./python

Builds Kiln's native module taichi._core with the project's CMake (Ninja) and
installs the `taichi` package (and `kiln`, its other name). The build tree is
../build-pip, or $KILN_BUILD_DIR when set (e.g. the build/ that scripts/test
made, so that installing does not compile the VM a second time)."""
import os
import shutil
import subprocess
import sys

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildWithCMake(build_py):
    def run(self):
        build = os.path.abspath(os.environ.get("KILN_BUILD_DIR") or os.path.join(ROOT, "build-pip"))
        if not os.path.exists(os.path.join(build, "build.ninja")):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                                   "-DPython3_EXECUTABLE=" + sys.executable])
        subprocess.check_call(["ninja", "-C", build, "taichi_core", "taichi_gui_core"])
        super().run()
        for pkg in ("taichi", "kiln"):  # the Python files and the built _core, as the build tree holds them
            shutil.copytree(os.path.join(build, "python", pkg), os.path.join(self.build_lib, pkg), dirs_exist_ok=True)


setup(
    name="taichi",
    version="1.7.0+kiln",
    description="Kiln: Taichi programs on a small, fast, debuggable VM",
    packages=find_packages(HERE, include=["taichi", "taichi.*", "kiln"]),
    package_dir={"": HERE},
    cmdclass={"build_py": BuildWithCMake},
    python_requires=">=3.9",
    zip_safe=False,
)
