import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=1)
n = 100000
x = ti.field(ti.i64, shape=n)
s = ti.field(ti.i64, shape=())

@ti.kernel
def run():
    for i in x:
        x[i] = (i * 7919) % 1000
    for i in x:
        s[None] += x[i]

run()
serial = s[None]
ti.init(arch=ti.cpu, cpu_max_num_threads=8)
x = ti.field(ti.i64, shape=n)
s = ti.field(ti.i64, shape=())

@ti.kernel
def run2():
    for i in x:
        x[i] = (i * 7919) % 1000
    for i in x:
        s[None] += x[i]

run2()
print(serial, s[None], serial == s[None])
