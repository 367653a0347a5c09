import taichi as ti
ti.init(arch=ti.cpu)

def square(n):
    r = n * n
    return r

values = []
for k in range(4):
    values.append(square(k))
total = sum(values)
print(values, total)
