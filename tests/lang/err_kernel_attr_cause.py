# An attribute a kernel reads from a host object is evaluated when the kernel
# compiles; when evaluating it raises an AttributeError of its own (here a
# property reading a setting that does not exist), the error names that real
# cause, not the attribute the kernel asked for.
import taichi as ti

ti.init(arch=ti.cpu)


class Config:
    @property
    def scale(self):
        return self.missing_setting * 2


cfg = Config()


@ti.kernel
def f() -> ti.f32:
    return cfg.scale


print(f())
