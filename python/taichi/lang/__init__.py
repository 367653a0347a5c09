"""taichi.lang: the names Taichi's own code reaches through ti.lang (ops)."""
from . import impl, ops, util  # noqa: F401
