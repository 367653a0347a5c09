"""Taichi's exception classes. Kiln raises them with its diagnostic as the
message: kind, file:line:col of the kernel source and a caret."""


class TaichiCompilationError(Exception):
    pass


class TaichiSyntaxError(TaichiCompilationError, SyntaxError):
    pass


class TaichiNameError(TaichiCompilationError, NameError):
    pass


class TaichiTypeError(TaichiCompilationError, TypeError):
    pass


class TaichiIndexError(TaichiCompilationError, IndexError):
    pass


class TaichiAttributeError(TaichiCompilationError, AttributeError):
    pass


class TaichiKeyError(TaichiCompilationError, KeyError):
    pass


class TaichiValueError(TaichiCompilationError, ValueError):
    pass


class TaichiRuntimeError(RuntimeError):
    pass


class TaichiAssertionError(TaichiRuntimeError, AssertionError):
    pass


class TaichiRuntimeTypeError(TaichiRuntimeError, TypeError):
    pass


class InvalidOperationError(Exception):
    pass
