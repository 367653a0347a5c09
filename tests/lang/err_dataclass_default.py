# As in Taichi: a @ti.dataclass member cannot have a default value.
import taichi as ti
ti.init(arch=ti.cpu)


@ti.dataclass
class Foo:
    a: int
    b: float = 3.14


print(Foo)
