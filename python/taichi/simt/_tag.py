def kernel_only(module, name):
    """A ti.simt function: only kernels call it (the frontend compiles it by
    its tag); in Python scope it raises."""
    full = f"ti.simt.{module}.{name}"

    def f(*args, **kwargs):
        raise RuntimeError(f"{full}() is only available inside kernels")

    f.__name__ = name
    f.__qualname__ = name
    f._kiln_builtin = full
    return f
