"""Autodiff on Vulkan (issue 18 on issue 21's backend): the same gradient
kernels as on the CPU engines (tapes for carried loops included) run as
compute shaders and give the interpreter's results. On lavapipe here and in CI."""
import math

import pytest

import taichi as ti


def _vulkan_or_skip():
    try:
        ti.init(arch=ti.vulkan, enable_fallback=False)
    except RuntimeError as e:  # a build without Vulkan, or no device at all
        pytest.skip(f"no Vulkan device: {e}")


def carried_power_and_sine(arch):
    """A tape over two kernels; the first carries a local through a loop."""
    ti.init(arch=arch)
    n = 16
    x = ti.field(ti.f32, shape=n, needs_grad=True)
    y = ti.field(ti.f32, shape=n, needs_grad=True)
    loss = ti.field(ti.f32, shape=(), needs_grad=True)

    @ti.kernel
    def power(k: ti.i32):
        for i in x:
            p = 1.0
            for _ in range(k):  # trip count known only at run time: a tape of ad_stack_size
                p = p * x[i]
            y[i] = p

    @ti.kernel
    def total():
        for i in y:
            loss[None] += ti.sin(y[i])

    for i in range(n):
        x[i] = 0.05 * (i + 1)
    with ti.ad.Tape(loss=loss):
        power(3)
        total()
    return loss[None], [x.grad[i] for i in range(n)]


def while_break_and_func_return(arch):
    ti.init(arch=arch)
    x = ti.field(ti.f32, shape=4, needs_grad=True)
    y = ti.field(ti.f32, shape=4, needs_grad=True)

    @ti.func
    def clamp_sq(v) -> ti.f32:
        if v > 2.0:
            return 4.0
        return v * v

    @ti.kernel
    def f():
        for i in x:
            s = x[i]
            j = 0
            while True:
                if s > 1.0 or j >= 5:
                    break
                s = s * 2.0
                j += 1
            y[i] = clamp_sq(s)

    for i, v in enumerate([0.3, 0.6, 1.5, 0.01]):
        x[i] = v
        y.grad[i] = 1.0
    f()
    f.grad()
    return [y[i] for i in range(4)], [x.grad[i] for i in range(4)]


def inner_loop_runs_backwards(arch):
    ti.init(arch=arch)
    x = ti.field(ti.f32)
    ti.root.dense(ti.ij, (4, 6)).place(x)
    ti.root.lazy_grad()

    @ti.kernel
    def chain():
        for k in range(4):
            for i in range(5):
                x[k, i + 1] = x[k, i] * 2 + ti.exp(x[k, i] * 0.1)

    for k in range(4):
        x[k, 0] = 0.1 * k
    chain()
    for k in range(4):
        x.grad[k, 5] = 1
    chain.grad()
    return [x.grad[k, 0] for k in range(4)]


def forward_mode(arch):
    ti.init(arch=arch)
    x = ti.field(ti.f32, shape=8, needs_dual=True)
    loss = ti.field(ti.f32, shape=(), needs_dual=True)

    @ti.kernel
    def f():
        for i in x:
            loss[None] += ti.tanh(x[i]) * x[i]

    for i in range(8):
        x[i] = 0.1 * i
    seed = [0.0] * 8
    seed[3] = 1.0
    with ti.ad.FwdMode(loss=loss, param=x, seed=seed):
        f()
    return loss.dual[None]


PROGRAMS = [carried_power_and_sine, while_break_and_func_return, inner_loop_runs_backwards, forward_mode]


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [a for e in v for a in _flat(e)]
    return [v]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_vulkan_gradients_match_the_interpreter(program):
    _vulkan_or_skip()
    got = _flat(program(ti.vulkan))
    ti.init(arch=ti.cpu, engine="interp")
    want = _flat(program(ti.cpu))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # the same operations in the same order; the device's sin/exp/tanh may
        # differ from the CPU's by an ulp or two
        assert g == pytest.approx(w, rel=1e-5, abs=1e-6)
    assert any(w != 0 for w in want)


def _sine_chain(ad_stack_size):
    """y = sin(sin(...(x))) n times, n read at run time: tapes of ad_stack_size."""
    ti.init(arch=ti.vulkan, ad_stack_size=ad_stack_size)
    x = ti.field(ti.f32, shape=2, needs_grad=True)
    n = ti.field(ti.i32, shape=())
    y = ti.field(ti.f32, shape=2, needs_grad=True)

    @ti.kernel
    def f():
        for i in x:
            p = x[i]
            for _ in range(n[None]):
                p = ti.sin(p)
            y[i] = p

    return x, n, y, f


def test_vulkan_tape_overflow_is_the_cpu_engines_error():
    _vulkan_or_skip()
    x, n, y, f = _sine_chain(4)
    n[None] = 3
    x[0] = 0.5
    y.grad[0] = 1
    f()
    f.grad()
    want = math.cos(0.5) * math.cos(math.sin(0.5)) * math.cos(math.sin(math.sin(0.5)))
    assert x.grad[0] == pytest.approx(want, rel=1e-5)
    n[None] = 10
    with pytest.raises(RuntimeError, match="autodiff stack overflow: a loop carried more than 4 values"):
        f.grad()


def test_vulkan_refuses_tapes_too_large_for_an_invocation():
    _vulkan_or_skip()
    x, n, y, f = _sine_chain(1 << 20)
    with pytest.raises(ti.TaichiCompilationError, match="does not support autodiff tapes of 1048576 values"):
        f.grad()
