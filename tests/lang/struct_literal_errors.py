# ti.Struct(...) in a kernel: members named by keywords or a dict literal of
# strings, each once; anything else is an error naming what to write.
import taichi as ti
ti.init(arch=ti.cpu)
d = {'a': 1}


@ti.kernel
def positional() -> ti.i32:
    return ti.Struct(1, 2).a


@ti.kernel
def dict_unpack() -> ti.i32:
    return ti.Struct({**d}).a


@ti.kernel
def kw_unpack() -> ti.i32:
    return ti.Struct(**d).a


@ti.kernel
def int_key() -> ti.i32:
    return ti.Struct({1: 2}).a


@ti.kernel
def twice() -> ti.i32:
    return ti.Struct({'a': 1, 'a': 2}).a


for k in (positional, dict_unpack, kw_unpack, int_key, twice):
    try:
        k()
        print("no error")
    except Exception as e:
        print(str(e).splitlines()[0])
