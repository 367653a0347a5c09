"""Host-scope struct values (ti.Struct, instances of ti.types.struct and
@ti.dataclass types)."""


class Struct:
    _kiln_builtin_class = True
    _kiln_builtin = "ti.Struct"  # in a kernel: a struct value (vm/frontend/lower_struct.cpp)

    def __init__(self, *args, **kw):
        if len(args) == 2 and isinstance(args[0], dict) and not kw:
            entries, stype = args
        else:
            entries = dict(args[0]) if args else {}
            entries.update(kw)
            stype = None
        object.__setattr__(self, "_entries", dict(entries))
        object.__setattr__(self, "_type", stype)

    def _kiln_struct(self):
        return True

    def _kiln_static(self):
        return ("struct_value", list(self._entries), list(self._entries.values()), self._type)

    def __getattr__(self, k):
        e = self.__dict__.get("_entries", {})
        if k in e:
            return e[k]
        t = self.__dict__.get("_type")
        if t is not None and k in t.methods:
            m = t.methods[k]
            return lambda *a, **kw: m(self, *a, **kw)
        raise AttributeError(f"Struct has no member '{k}'")

    def __setattr__(self, k, v):
        if k in self._entries:
            t = self._type.members.get(k) if self._type is not None else None
            from ._types import DataType, cast_scalar
            if isinstance(t, DataType):
                v = cast_scalar(v, t)
            self._entries[k] = v
        else:
            object.__setattr__(self, k, v)

    def __getitem__(self, k):
        return self._entries[k]

    def __setitem__(self, k, v):
        self.__setattr__(k, v)

    @property
    def keys(self):  # a property, as Taichi's (Struct.keys is a list of member names)
        return list(self._entries.keys())

    @property
    def entries(self):
        return self._entries

    def items(self):
        return self._entries.items()

    def to_dict(self, include_methods=False, include_ndim=False):
        out = {}
        for k, v in self._entries.items():
            if isinstance(v, Struct):
                v = v.to_dict()
            elif hasattr(v, "to_list") and hasattr(v, "entries"):
                v = v.to_list()
            out[k] = v
        return out

    def __repr__(self):
        return str(self.to_dict())

    __str__ = __repr__

    def __eq__(self, o):
        return isinstance(o, Struct) and self.to_dict() == o.to_dict()

    @staticmethod
    def field(members, shape=None, **kw):
        from ._field import Struct_field
        return Struct_field(members, shape=shape, **kw)


def _make_from_kernel(stype, names, vals):
    return Struct(dict(zip(names, vals)), stype)


def dataclass(cls):
    """@ti.dataclass: the class's annotations become a struct type; its
    @ti.func methods are callable on instances in kernels."""
    from ._types import StructType
    members = dict(getattr(cls, "__annotations__", {}))
    for k in members:
        if k in cls.__dict__:  # as Taichi (the built-in host says the same)
            from ._errors import TaichiSyntaxError
            raise TaichiSyntaxError("Default value in @dataclass is not supported.")
    methods = {}
    for k, v in cls.__dict__.items():
        if callable(v) and not k.startswith("__"):
            methods[k] = v
    return StructType(members, name=cls.__name__, methods=methods)
