import taichi as ti
ti.init(arch=ti.cpu, dtype_cast_mode="cast")
print("cast mode accepted")
ti.init(arch=ti.cpu, dtype_cast_mode="sideways")
