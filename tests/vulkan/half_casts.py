# Conversions into f16/bf16 round once on Vulkan, as on the interpreter:
# from f64 through a round-to-odd f32, from 32- and 64-bit ints with a sticky
# bit (i32 -> f32 -> bf16 would round twice: 2^30 + 2^22 + 1 is just above a
# bf16 tie once the 1 is dropped). Bit casts between bf16/f16 and 16-bit ints,
# and f16/bf16 kernel arguments (their 16-bit pattern in the slot).
import taichi as ti

ti.init(arch=ti.vulkan)

out = ti.field(ti.f32, shape=12)
pat = ti.field(ti.i32, shape=4)


@ti.kernel
def conv(a: ti.i32, b: ti.u32, c: ti.i64, d: ti.f64, e: ti.f64, hf: ti.f16, bf: ti.bf16):
    out[0] = ti.cast(ti.cast(a, ti.bf16), ti.f32)
    out[1] = ti.cast(ti.cast(-a, ti.bf16), ti.f32)
    out[2] = ti.cast(ti.cast(b, ti.bf16), ti.f32)
    out[3] = ti.cast(ti.cast(c, ti.bf16), ti.f32)
    out[4] = ti.cast(ti.cast(c, ti.f16), ti.f32)
    out[5] = ti.cast(ti.cast(d, ti.f16), ti.f32)
    out[6] = ti.cast(ti.cast(-d, ti.f16), ti.f32)
    out[7] = ti.cast(ti.cast(e, ti.bf16), ti.f32)
    out[8] = ti.cast(ti.cast(-2147483648, ti.bf16), ti.f32)
    out[9] = ti.cast(ti.cast(ti.i64(-9223372036854775807 - 1), ti.f16), ti.f32)
    out[10] = ti.cast(hf, ti.f32)
    out[11] = ti.cast(bf, ti.f32)
    pat[0] = ti.cast(ti.bit_cast(hf, ti.u16), ti.i32)
    pat[1] = ti.cast(ti.bit_cast(bf, ti.i16), ti.i32)
    pat[2] = ti.cast(ti.bit_cast(ti.cast(ti.bit_cast(ti.u16(0x3f81), ti.bf16) * 3.0, ti.bf16), ti.u16), ti.i32)
    pat[3] = ti.cast(ti.bit_cast(ti.bit_cast(ti.i16(-16512), ti.f16), ti.i16), ti.i32)


conv(2 ** 30 + 2 ** 22 + 1, 2 ** 31 + 2 ** 23 + 1, 40000 + 2 ** 0, 1.0 + 2.0 ** -11 + 2.0 ** -40,
     1.0 + 2.0 ** -8 + 2.0 ** -40, 0.3, -2.5)
print([float(v) for v in out.to_numpy()])
print(list(pat.to_numpy()))
