# fast_math (docs/fast_math.md): a float sum carried around a loop adds into 16
# (f32) or 8 (f64) rotating partial sums, combined in a fixed order after the
# loop; every engine prints the same bits, which differ from fast_math=False's
# program order in the last places. A prefix sum (the running value is read)
# keeps program order under both settings.
import taichi as ti
N = 1003


def run(fast):
    ti.init(arch=ti.cpu, fast_math=fast, cpu_max_num_threads=1)
    x = ti.field(ti.f32, N)
    y = ti.field(ti.f64, N)

    @ti.kernel
    def bits32(v: ti.f32) -> ti.i32:
        return ti.bit_cast(v, ti.i32)

    @ti.kernel
    def bits64(v: ti.f64) -> ti.i64:
        return ti.bit_cast(v, ti.i64)

    @ti.kernel
    def fill():
        for i in range(N):
            h = (i * 1103515245 + 12345) & 0x7FFFFFFF
            x[i] = ti.cast(h & 0xFFFF, ti.f32) / 3.0 - 10000.0
            y[i] = ti.cast(h >> 8, ti.f64) / 7.0 - 1e6

    @ti.kernel
    def serial32() -> ti.f32:
        s = 1.0
        ti.loop_config(serialize=True)
        for i in range(N):
            s += x[i]
        return s

    @ti.kernel
    def serial64() -> ti.f64:
        s = ti.f64(0.0)
        ti.loop_config(serialize=True)
        for i in range(N):
            s -= y[i] * 1.5
        return s

    @ti.kernel
    def parallel32() -> ti.f32:
        s = 0.0
        ti.loop_config(parallelize=1)
        for i in range(N):
            s += x[i]
        return s

    @ti.kernel
    def while_break() -> ti.f32:
        s = 0.0
        i = 0
        while True:
            if x[i] > 11800.0:
                break
            s += x[i]
            i += 1
        return s

    @ti.kernel
    def prefix() -> ti.f32:  # the running value is read: not split
        s = 0.0
        t = 0.0
        ti.loop_config(serialize=True)
        for i in range(N):
            s += x[i]
            t = ti.max(t, s)
        return t

    @ti.kernel
    def nested() -> ti.f32:
        s = 0.0
        ti.loop_config(serialize=True)
        for i in range(10):
            for j in range(i * 37, i * 37 + 29):
                if x[j] > 0.0:
                    s += x[j]
            s = s * 0.5
        return s

    fill()
    print("fast_math =", fast)
    for f in (serial32, serial64, while_break, prefix, nested):
        v = f()
        print(" ", f.__name__, v, hex(bits32(v)) if f is not serial64 else hex(bits64(v)))
    # Chunk sums reach the global in the order chunks finish, and GPUs chunk
    # otherwise: only the value to the nearest integer is the same everywhere.
    print("  parallel32 ~", round(parallel32()))


run(True)
run(False)
