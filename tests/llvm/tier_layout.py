# A kernel tiers up to LLVM with the program's SNode layout: the reads of a
# dynamic list by an index that is not the loop's (every pixel reads every
# segment, as Taichi's marching_squares example renders) walk the list
# inline, not through the runtime. Fields laid out between launches (a new
# tree while a tier-up is under way) change nothing of what it prints.
import taichi as ti

ti.init()

Seg = ti.types.struct(a=ti.f32, b=ti.f32)
segs = Seg.field()
ti.root.dynamic(ti.i, 1024, chunk_size=32).place(segs)
img = ti.field(ti.f32, shape=(64, 48))


@ti.kernel
def build(n: ti.i32) -> ti.i32:
    segs.deactivate()
    for i in range(n):
        segs.append(Seg(a=ti.cast(i, ti.f32) * 0.5, b=ti.cast(i * i % 7, ti.f32)))
    return segs.length()


@ti.kernel
def render():
    for i, j in img:
        best = 1e9
        for k in range(segs.length()):
            d = ti.abs(segs[k].a - ti.cast(i, ti.f32)) + ti.abs(segs[k].b - ti.cast(j % 7, ti.f32))
            best = ti.min(best, d)
        img[i, j] = best


extra = []
for frame in range(6):
    print("segments", build(40 + 13 * frame))
    render()
    print(frame, img.to_numpy().sum())
    # a field laid out after each launch: a new tree each time
    f = ti.field(ti.i32, shape=8 + frame)
    f.fill(frame)
    extra.append(f)
print("extra", sum(int(f.to_numpy().sum()) for f in extra))
