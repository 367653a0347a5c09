# Host-scope ti.random of the 64- and 32-bit integer dtypes: the full range of
# each, signed as kernels draw them. The built-in host's ints are i64, so it
# refuses u64 draws (random_host_u64.builtin.expected).
import taichi as ti
ti.init(arch=ti.cpu, random_seed=3)
i32 = [ti.random(ti.i32) for _ in range(200)]
print(all(-2**31 <= x < 2**31 for x in i32), any(x < 0 for x in i32))
u32 = [ti.random(ti.u32) for _ in range(200)]
print(all(0 <= x < 2**32 for x in u32), any(x >= 2**31 for x in u32))
i64 = [ti.random(ti.i64) for _ in range(200)]
print(all(isinstance(x, int) for x in i64), any(x < 0 for x in i64))
u64 = [ti.random(ti.u64) for _ in range(200)]
print(all(0 <= x < 2**64 for x in u64), any(x >= 2**63 for x in u64))
