# random_seed makes a program repeatable: the same seed gives the same
# draws, another seed gives others. (A serialized loop, so that this holds
# in Taichi too, whose streams are per thread.)
import taichi as ti

def draws(seed):
    ti.init(arch=ti.cpu, random_seed=seed)
    x = ti.field(ti.f32, shape=8)

    @ti.kernel
    def fill():
        ti.loop_config(serialize=True)
        for i in range(8):
            x[i] = ti.random()

    fill()
    return [x[i] for i in range(8)]

a = draws(42)
b = draws(42)
c = draws(43)
print(a == b)
print(a != c)
print(all([0.0 <= v < 1.0 for v in a]))
