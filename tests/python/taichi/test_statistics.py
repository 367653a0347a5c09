"""ti.statistics() (Kiln): the counters of ti.print_statistics() as a dict, with
the timers the printed table leaves out (they differ from run to run)."""
import taichi as ti


def test_counters_and_compile_timers():
    ti.init(arch=ti.cpu)
    x = ti.field(ti.f32, shape=8)

    @ti.kernel
    def fill():
        for i in x:
            x[i] = i * 0.5

    before = ti.statistics()
    fill()
    fill()
    after = ti.statistics()
    assert after["codegen_kernels"] - before.get("codegen_kernels", 0) == 1
    assert after["launched_kernels"] - before.get("launched_kernels", 0) == 2
    for phase in ("frontend", "passes", "codegen"):
        key = f"compile_{phase}_time_ms"
        assert after[key] > before.get(key, 0.0), key  # the compile took time in every phase
    assert "compile_frontend_time_ms" not in _printed()


def _printed():
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ti.print_statistics()
    return buf.getvalue()


def test_pool_bytes_are_the_programs():
    # snode_pool_bytes: the blocks the active cells hold (here one block of 8
    # i32s), the same on every engine; what the allocator reserved (the CPU
    # takes slabs of 16 blocks) is an engine's run counter: ti.statistics()
    # and `kiln run --stats` have it, ti.print_statistics() leaves it out.
    ti.init(arch=ti.cpu)
    x = ti.field(ti.i32)
    ti.root.pointer(ti.i, 4).dense(ti.i, 8).place(x)

    @ti.kernel
    def touch():
        x[3] = 1

    touch()
    st = ti.statistics()
    assert st["snode_pool_bytes"] == 32
    assert st["snode_pool_reserved_bytes"] >= 32
    printed = _printed()
    assert "snode_pool_bytes: 32\n" in printed
    assert "snode_pool_reserved_bytes" not in printed
