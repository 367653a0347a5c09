# Gradients through control flow, reverse mode under ti.ad.Tape and forward
# mode, each checked against a central finite difference in f64: branches on
# values, a loop-carried local with a runtime trip count (the adjoint replays
# the loop backwards from a stack), nested loops with an inner local, an
# inner loop accumulating in global memory, a ti.func with a return value,
# and a ti.static unrolled loop.
import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)

n = 6
x = ti.field(ti.f64, shape=n, needs_grad=True, needs_dual=True)
acc = ti.field(ti.f64, shape=n, needs_grad=True, needs_dual=True)
loss = ti.field(ti.f64, shape=(), needs_grad=True, needs_dual=True)
steps = ti.field(ti.i32, shape=())


@ti.func
def smooth(v):
    r = v * v
    if v > 0.5:
        r = ti.sqrt(v) + 0.25 - ti.sqrt(0.5)
    return r


@ti.kernel
def branches():
    for i in x:
        v = x[i]
        if v > 0.4:
            v = v * v * 3.0
        else:
            v = ti.sin(v) - 2.0 * v
        loss[None] += smooth(v) * (i + 1)


@ti.kernel
def carried():
    for i in x:
        v = x[i]
        for _ in range(steps[None]):
            v = ti.sin(v) * 1.1 + 0.1 * v
        loss[None] += v


@ti.kernel
def nested():
    for i in x:
        s = 0.0
        for j in range(i + 1):
            t = x[i] * (j + 1)
            for k in range(2):
                t = ti.exp(-t) + t * 0.5
            s += t
        loss[None] += s


@ti.kernel
def global_inner():
    for i in x:
        for j in range(3):
            acc[i] += x[i] * x[(i + j) % n]


@ti.kernel
def reduce_acc():
    for i in acc:
        loss[None] += ti.log(1.0 + acc[i] * acc[i])


@ti.kernel
def unrolled():
    for i in x:
        v = x[i]
        for k in ti.static(range(3)):
            v = v * (k + 1.5) - ti.tanh(v)
        loss[None] += v * v


def reset():
    for i in range(n):
        x[i] = 0.12 + 0.15 * i
    acc.fill(0.0)
    loss[None] = 0.0


def evaluate(kernels):
    reset()
    for k in kernels:
        k()
    return loss[None]


def check(name, kernels, h=1e-6):
    # reverse mode: the Tape records the kernels and replays their adjoints
    reset()
    with ti.ad.Tape(loss=loss):
        for k in kernels:
            k()
    rev = x.grad.to_numpy()
    fd, fwd = [], []
    for i in range(n):
        reset()
        x[i] += h
        for k in kernels:
            k()
        plus = loss[None]
        reset()
        x[i] -= h
        for k in kernels:
            k()
        fd.append((plus - loss[None]) / (2 * h))
        seed = [0.0] * n
        seed[i] = 1.0
        reset()
        with ti.ad.FwdMode(loss=loss, param=x, seed=seed):
            for k in kernels:
                k()
        fwd.append(loss.dual[None])
    bad = [i for i in range(n)
           if abs(rev[i] - fd[i]) > 1e-6 * (1 + abs(fd[i])) or abs(fwd[i] - fd[i]) > 1e-6 * (1 + abs(fd[i]))]
    value = evaluate(kernels)
    if bad:
        print(name, "MISMATCH at", bad, list(rev), fwd, fd)
    else:
        print(name, "ok", f"{value:.6f}", " ".join(f"{g:.5f}" for g in rev))


check("branches", [branches])
steps[None] = 4
check("carried(4)", [carried])
steps[None] = 0
check("carried(0)", [carried])
check("nested", [nested])
check("global_inner", [global_inner, reduce_acc])
check("unrolled", [unrolled])
