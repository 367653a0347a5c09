# Differentiable physics: aim eight cannons so that their shots land on eight
# targets, by gradient descent through the simulation itself.
#
# Each shot flies under gravity and quadratic air drag for T steps of
# semi-implicit Euler; every step is one kernel launch writing the state of
# time t from the state of time t - 1 (fields indexed by time, as in
# Taichi's DiffTaichi examples), so ti.ad.Tape can replay the launches'
# adjoints backwards and leave d(loss)/d(v0) in v0.grad. The miss distance is
# the loss; the optimizer is plain gradient descent with momentum.
#
#   python3 examples/diff_ballistics.py      (or: kiln run examples/diff_ballistics.py)
import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)

N = 8            # cannons
T = 240          # steps of flight
dt = 1.0 / 120   # two seconds of flight
drag = 0.05      # quadratic drag coefficient (per unit mass)
gravity = ti.Vector([0.0, -9.8])

x = ti.Vector.field(2, float, shape=(T + 1, N), needs_grad=True)
v = ti.Vector.field(2, float, shape=(T + 1, N), needs_grad=True)
v0 = ti.Vector.field(2, float, shape=N, needs_grad=True)   # what we optimize
target = ti.Vector.field(2, float, shape=N)
loss = ti.field(float, shape=(), needs_grad=True)


@ti.kernel
def place_targets():
    for i in target:
        target[i] = [4.0 + 1.5 * i, 1.0 + 0.5 * (i % 3)]
        v0[i] = [5.0, 5.0]


@ti.kernel
def launch():
    for i in range(N):
        x[0, i] = [0.0, 0.0]
        v[0, i] = v0[i]


@ti.kernel
def step(t: ti.i32):
    for i in range(N):
        vel = v[t - 1, i]
        acc = gravity - drag * vel.norm() * vel
        vel += dt * acc
        v[t, i] = vel
        x[t, i] = x[t - 1, i] + dt * vel


@ti.kernel
def miss():
    for i in range(N):
        loss[None] += (x[T, i] - target[i]).norm_sqr() / N


def simulate():
    launch()
    for t in range(1, T + 1):
        step(t)
    miss()


place_targets()
learning_rate, momentum = 0.2, 0.8
velocity = [[0.0, 0.0] for _ in range(N)]
for it in range(1000):
    with ti.ad.Tape(loss=loss):
        simulate()
    if it % 20 == 0 or loss[None] < 1e-8:
        print(f"iteration {it:3d}: mean squared miss {loss[None]:.3e}")
    if loss[None] < 1e-8:
        break
    g = v0.grad.to_numpy()
    for i in range(N):
        for c in range(2):
            velocity[i][c] = momentum * velocity[i][c] - learning_rate * g[i, c]
            v0[i][c] += velocity[i][c]

print(f"converged in {it} iterations")
worst = max((x[T, i] - target[i]).norm() for i in range(N))
print(f"largest miss {worst:.1e} m")
for i in range(N):
    print(f"cannon {i}: v0 = ({v0[i][0]:.4f}, {v0[i][1]:.4f}) m/s")
