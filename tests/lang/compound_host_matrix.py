# Host-side ti.Matrix values: construction, @, transpose, inverse, printing.
import taichi as ti
ti.init(arch=ti.cpu)

m = ti.Matrix([[1, 2], [3, 4]])
print(m)
print(m[1, 0], m.n, m.m)
print(m @ m)
print(m @ ti.Vector([1, 1]))
print(ti.Vector([1, 1]) @ m)
print(m.transpose())
print(m.trace())
print(m.inverse())
print(m * 2 + m)
f = ti.Matrix([[1.0, 2.0], [3.0, 4.0]])
print(f / 2)
print(f - 0.25)
m[0, 1] = 5
print(m)
r = ti.Matrix.rows([ti.Vector([1, 2]), ti.Vector([3, 4])])
print(r)
print(ti.Matrix.cols([ti.Vector([1, 2]), ti.Vector([3, 4])]))
t = ti.Matrix([[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [1.0, 0.0, 1.0]])
print(t.inverse())
print(t @ t.inverse())
for row in ti.Matrix([[1, 2], [3, 4]]):
    print(len(row))
