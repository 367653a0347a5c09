"""ti.types.quant: quantized integer, fixed-point and floating-point types.

A quantized type only describes a field's bits; the field itself is placed
through ti.BitpackedFields or ti.root.quant_array (Kiln packs the fields into
one word and lowers their loads, stores and atomics to bit operations on it).
"""
import builtins as _b

from .. import _core
from .._types import dtype_of as _dtype_of, _DT


class QuantType:
    """A quantized type: `kind` int/fixed/float, `bits` (the digits; for a
    float the fraction bits, sign included), `signed`, the compute type, the
    fixed-point scale and a float's exponent bits."""

    __slots__ = ("kind", "bits", "signed", "compute", "scale", "exp")

    def __init__(self, kind, bits, signed, compute, scale=1.0, exp=0):
        self.kind, self.bits, self.signed = kind, _b.int(bits), bool(signed)
        self.compute = _DT[compute] if isinstance(compute, str) else _dtype_of(compute)
        self.scale, self.exp = _b.float(scale), _b.int(exp)
        _core.check_quant_type(self.kind, self.bits, self.signed, self.compute._kiln_prim, self.scale, self.exp)

    def _kiln_static(self):
        return ("dtype", self.compute)

    def __repr__(self):
        s = "True" if self.signed else "False"
        if self.kind == "float":
            return f"quant.float(exp={self.exp}, frac={self.bits}, signed={s})"
        return f"quant.{self.kind}({self.bits}, signed={s})"

    def __eq__(self, other):
        return isinstance(other, QuantType) and all(getattr(self, a) == getattr(other, a) for a in self.__slots__)

    def __hash__(self):
        return hash((self.kind, self.bits, self.signed, self.scale, self.exp))


def _default(kind):
    from .. import _state
    return _state.config["default_ip" if kind == "i" else "default_fp"]


def int(bits, signed=True, compute=None):  # noqa: A001 (Taichi's name)
    if compute is None:
        compute = _default("i") if signed else "u" + _default("i")[1:]
    return QuantType("int", bits, signed, compute)


def fixed(bits, signed=True, max_value=1.0, compute=None, scale=None):
    if compute is None:
        compute = _default("f")
    if scale is None:
        scale = max_value / 2 ** (bits - 1) if signed else max_value / 2 ** bits
    return QuantType("fixed", bits, signed, compute, scale=scale)


def float(exp, frac, signed=True, compute=None):  # noqa: A001 (Taichi's name)
    if compute is None:
        compute = _default("f")
    return QuantType("float", frac, signed, compute, exp=exp)


__all__ = ["int", "fixed", "float", "QuantType"]
