# What this process has mapped of the libraries Kiln loads only when used:
# Kiln's LLVM module (and libLLVM with it) and SDL2 (tests/llvm/module.sh).
import taichi as ti
ti.init()
x = ti.field(ti.i32, shape=8)

@ti.kernel
def fill():
    for i in x:
        x[i] = i * i

fill()
print(x[7])
maps = open('/proc/self/maps').read()
for lib in ('libkiln_llvm.so', 'libLLVM', 'libSDL2'):
    print(lib, 'mapped' if lib in maps else 'not mapped')
