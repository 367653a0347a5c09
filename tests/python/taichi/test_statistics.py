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
