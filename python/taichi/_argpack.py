"""ti.types.argpack(...): a group of kernel arguments passed as one parameter.

Members are scalars, vectors/matrices, structs, ndarrays (by reference) and
other argpacks. A kernel reads them as `pack.member`; python/core/kernel.cpp
passes each member in its own argument slots and vm/frontend binds the
parameter to a struct-like value whose members are those arguments. Unlike a
struct, an argpack is a parameter only: no fields, locals, returns or struct
members of argpack type."""
from ._types import DataType, NdarrayType, StructType, VectorType, cast_scalar, dtype_of


class ArgPackType:
    def __init__(self, **members):
        self.members = {}
        for k, t in members.items():
            if not isinstance(t, (VectorType, StructType, NdarrayType, ArgPackType)):
                try:
                    t = dtype_of(t)
                except TypeError:
                    raise TypeError(f"argpack member '{k}' has type {t!r}; members are scalar types, vectors, "
                                    "matrices, structs, ndarrays or argpacks") from None
            self.members[k] = t

    def _kiln_argpack(self):
        return list(self.members.items())

    def _kiln_static(self):
        return ("object", "ArgPackType")

    def __call__(self, *args, **kw):
        names = list(self.members)
        if len(args) > len(names):
            raise TypeError(f"this argpack has {len(names)} members, got {len(args)} values")
        vals = dict(zip(names, args))
        for k, v in kw.items():
            if k not in self.members:
                raise TypeError(f"this argpack has no member '{k}' (members: {', '.join(names)})")
            if k in vals:
                raise TypeError(f"argpack member '{k}' given twice")
            vals[k] = v
        out = {}
        for k, t in self.members.items():
            if k not in vals:
                raise TypeError(f"argpack member '{k}' has no value")
            v = vals[k]
            if isinstance(t, DataType):
                v = cast_scalar(v, t)
            elif isinstance(t, VectorType):
                from ._matrix import Matrix
                v = v.cast(t._dt()) if isinstance(v, Matrix) else t(v)
            elif isinstance(t, StructType):
                v = v if hasattr(v, "_kiln_struct") else t(**v) if isinstance(v, dict) else t(v)
            elif isinstance(t, ArgPackType) and getattr(v, "_type", None) is not t:
                raise TypeError(f"argpack member '{k}' takes a pack of its own argpack type")
            out[k] = v
        return ArgPack(out, self)

    def __repr__(self):
        return f"ArgPackType({self.members})"


class ArgPack:
    """A value of an ArgPackType: its members, read as attributes."""

    def __init__(self, entries, ptype):
        object.__setattr__(self, "_entries", entries)
        object.__setattr__(self, "_type", ptype)

    def _kiln_pack_values(self, ptype):
        if self._type is not ptype:
            raise TypeError(f"expected a pack of {ptype!r}, got one of {self._type!r}")
        return list(self._entries.values())

    def __getattr__(self, k):
        e = self.__dict__["_entries"]
        if k in e:
            return e[k]
        raise AttributeError(f"argpack has no member '{k}'")

    def __setattr__(self, k, v):
        raise AttributeError("argpack members are read-only: make a new pack")

    def __repr__(self):
        return "ArgPack(" + ", ".join(f"{k}={v!r}" for k, v in self._entries.items()) + ")"


def argpack(**members):
    return ArgPackType(**members)
