# ti.random() also works in host code.
import taichi as ti
ti.init(arch=ti.cpu, random_seed=5)
v = [ti.random() for _ in range(1000)]
print(all([0.0 <= x < 1.0 for x in v]))
print(0.45 < sum(v) / len(v) < 0.55)
print(type(ti.random(ti.i32)).__name__)
