"""taichi.types: type constructors for kernels, fields and ndarrays."""
from .._types import (vector, matrix, struct, ndarray, template, sparse_matrix_builder, rw_texture, texture,
                      i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, u1, DataType, VectorType, MatrixType,
                      StructType, NdarrayType, is_signed, is_integral, is_unsigned, is_float as is_real)
from .._argpack import argpack  # noqa: F401
from . import primitive_types  # noqa: F401
from . import quant  # noqa: F401
