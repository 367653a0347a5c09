import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i32, 6)


@ti.kernel
def fill():
    for i in ti.static(range(6)):
        if ti.static(i == 1):
            continue           # this copy of the body ends here
        x[i] = i + 10
        if ti.static(i == 3):
            break              # no copies after this one


@ti.kernel
def pick(a: ti.template()) -> ti.i32:
    if ti.static(a == 1):
        return 100
    elif ti.static(a == 2):
        return 200
    return 300                 # only lowered when neither static branch returned


fill()
print(x.to_numpy().tolist())
print(pick(1), pick(2), pick(7))
