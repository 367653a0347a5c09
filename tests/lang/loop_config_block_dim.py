# ti.loop_config(block_dim=N): the next parallel loop's block size (the CPU
# engines' chunk, a GPU's workgroup: `kiln dis --spirv` shows LocalSize N on
# Vulkan). Results do not depend on it.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=1000)
hits = ti.field(ti.i32, shape=8)
s = ti.field(ti.i32)
ti.root.pointer(ti.i, 16).dense(ti.i, 8).place(s)


@ti.kernel
def fill(k: ti.i32) -> ti.i32:
    total = 0
    ti.loop_config(block_dim=32)
    for i in x:
        x[i] = i * k % 97
        total += x[i]
    ti.loop_config(block_dim=100)
    for i in range(1000):
        hits[x[i] % 8] += 1
    return total


@ti.kernel
def sparse_sum() -> ti.i32:
    for i in range(43):
        s[i * 3] = i * 3
    total = 0
    ti.loop_config(block_dim=16)
    for i in s:
        total += s[i]
    return total


print(fill(7), hits.to_numpy().tolist())
print(sparse_sum())
