# Vector and matrix types on the host: ti.math.vec3 and friends are f32 /
# i32 types; calling one broadcasts a scalar or flattens its arguments.
import taichi as ti
ti.init(arch=ti.cpu)

vec2 = ti.math.vec2
vec3 = ti.math.vec3
print(vec3(0))
print(vec3(1, 2, 3))
print(ti.math.vec4(vec3(1, 2, 3), 1.0))
print(ti.math.vec4(vec2(1, 2), vec2(3, 4)))
print(ti.math.ivec2(3.7, -1.2))
print(ti.math.mat2(1, 2, 3, 4))
print(ti.math.mat2([[1, 2], [3, 4]]))
print(vec3([4, 5, 6]))
v3i = ti.types.vector(3, ti.i32)
print(v3i(1, 2, 3))
m23 = ti.types.matrix(2, 3, float)
print(m23(1))
p = vec3(1, 2, 3) * 0.5
print(p, p.x, p.z)
q = vec3(1, 2, 3)
q.z = 10
print(q, q.xy)
print(vec3(1, 2, 3) + ti.Vector([1, 1, 1]))
