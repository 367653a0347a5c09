# struct fields: a dict of member arrays; nested structs give nested dicts
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)
vec3 = ti.types.vector(3, ti.f32)
inner = ti.types.struct(mass=ti.f32, tag=ti.i32)
particle = ti.types.struct(pos=vec3, info=inner)
s = ti.Struct.field({"a": ti.i32, "b": vec3}, shape=(2,))
s.a.fill(3)
d = s.to_numpy()
print(d.keys(), d["a"], d["b"].shape, d["b"].dtype)
d["b"][1, 2] = 9
s.from_numpy(d)
print(s[1].b, s.b.to_numpy()[1])
p = particle.field(shape=3)
arr = p.to_numpy()
print(sorted(arr.keys()), sorted(arr["info"].keys()), arr["pos"].shape, arr["info"]["tag"].dtype)
arr["info"]["mass"] = np.array([1.0, 2.0, 4.0], dtype=np.float32)
p.from_numpy(arr)


@ti.kernel
def total_mass() -> ti.f32:
    t = 0.0
    for i in p:
        t += p[i].info.mass
    return t


print(total_mass())
