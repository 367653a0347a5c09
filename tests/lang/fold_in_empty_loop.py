# A min fold carried around an inner loop that never runs (its range starts
# past its end), inside a serialized loop: the LLVM tier's lane blocks took
# the fold for a sum of partials declared outside the loop and looked up
# partials it had never lowered (kiln-fuzz seed 33238: "unordered_map::at").
# Every engine prints the loop's untouched values.
import taichi as ti

ti.init(arch=ti.cpu)
N = 16
out = ti.field(ti.f32, shape=N)


@ti.kernel
def fold(start: ti.i32) -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(N):
        v = 0.5 * i
        for j in range(start, 5):
            v = -26.875 if ti.f64(-85.125) >= ti.f64(0.0) else ti.min(v, 58.125)
        out[i] = v
        s += i
    return s


@ti.kernel
def fold_const() -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(N):
        v = 0.0
        for j in range(ti.i32(2126345703), 5):
            v = -26.875 if ti.f64(-85.125) >= ti.f64(0.0) else ti.min(v, 58.125)
        out[i] += v
    return s


print(fold(2126345703), out.to_numpy().sum())
print(fold(2), out.to_numpy().sum(), out[3])
print(fold_const(), out.to_numpy().sum())
