// The host `numpy` module's n-dimensional array (Kiln has no CPython, so the
// host evaluator carries its own numpy, real enough for the way Taichi
// programs use it; seed 003).
//
// Storage is numpy's: a refcounted byte buffer shared by every view of it,
// plus dtype, shape, byte strides and a byte offset. Views (slices, .T,
// reshape of a contiguous array) share the buffer, so writes through a view
// are seen by the base, and a kernel taking the array as a
// ti.types.ndarray() argument writes straight into the same bytes.
//
// dtypes are Kiln's primitives plus numpy's bool, spelled Prim::none (the
// convention of ti_compound.h's numpy rules).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vm/host/ti_compound.h"

namespace kiln::host {

struct NpBuffer {
  uint8_t* data = nullptr;
  int64_t size = 0;
  // 64-byte aligned; zero-filled unless the caller overwrites every byte at once
  bool owned = true;
  bool large = false;  // from map_large (vm/runtime/large_buffers.h): kept for the next array of its size
  explicit NpBuffer(int64_t bytes, bool zero = true);
  // Memory the embedding application owns (the C API's zero-copy arrays):
  // never freed here; the caller keeps it alive while the array is used.
  NpBuffer(uint8_t* external, int64_t bytes) : data(external), size(bytes), owned(false) {}
  ~NpBuffer();
  NpBuffer(const NpBuffer&) = delete;
  NpBuffer& operator=(const NpBuffer&) = delete;
};

struct NpArrayObj : HostObj {
  std::shared_ptr<NpBuffer> buf;
  Prim dtype = Prim::f64;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in bytes
  int64_t offset = 0;            // byte offset of element (0, ..., 0)
  // A numpy scalar (np.float32(1.5), an element read from a float32 array):
  // a 0-d array that prints, converts and indexes as numpy's scalar types.
  bool scalar = false;

  std::string type_name() const override;
  std::string repr(Evaluator& ev) const override;
  std::string str(Evaluator& ev) override;
  bool equals(const HostObj& o) const override { return this == &o; }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
  bool as_iterable(Evaluator& ev, SourceLoc loc, Value& out) override;

  int ndim() const { return (int)shape.size(); }
  int64_t size() const;
  int64_t itemsize() const;
  bool contiguous() const;  // C-contiguous
  uint8_t* data() const { return buf->data + offset; }
  // Byte offset (from data()) of the k-th element in row-major order.
  int64_t flat_offset(int64_t k) const;
  Value get_flat(int64_t k) const { return load(dtype, data() + flat_offset(k)); }

  static Value load(Prim dt, const uint8_t* p);
  static void store(Evaluator& ev, Prim dt, uint8_t* p, const Value& v, SourceLoc loc);
};

// ---- construction (np_array.cpp) -------------------------------------------------
int64_t np_itemsize(Prim dt);
// numpy's name of a dtype: "float32", "int64", "bool".
std::string np_dtype_name(Prim dt);
std::vector<int64_t> c_strides(const std::vector<int64_t>& shape, Prim dt);
// A new zero-filled C-contiguous array.
std::shared_ptr<NpArrayObj> np_new(Prim dt, std::vector<int64_t> shape, bool zero = true);
// A C-contiguous copy with dtype `dt` (values cast as numpy's astype does).
std::shared_ptr<NpArrayObj> np_copy(Evaluator& ev, const NpArrayObj& a, Prim dt, SourceLoc loc);
// A view sharing a's buffer.
std::shared_ptr<NpArrayObj> np_view(const NpArrayObj& a, std::vector<int64_t> shape, std::vector<int64_t> strides,
                                    int64_t offset);
// np.asarray: arrays as they are; nested lists/tuples/numbers/host matrices
// with dtype inference (python ints -> int64, floats -> float64, bools -> bool)
// unless `dt` is given (Prim::none with has_dt false = infer).
std::shared_ptr<NpArrayObj> np_from_value(Evaluator& ev, const Value& v, bool has_dt, Prim dt, SourceLoc loc);
NpArrayObj* np_as(const Value& v);
// An element value as numpy gives it from indexing: Python int/float/bool for
// int64/float64/bool, a numpy scalar for the other dtypes.
Value np_scalar_value(Prim dt, const Value& v);
// "(2, 3)", "(4,)"
std::string np_shape_str(const std::vector<int64_t>& s);
// A dtype argument: np.float32, 'float32', ti.f32, int, float, bool.
Prim np_dtype_arg(Evaluator& ev, const Value& v, SourceLoc loc);
// numpy dtype objects: np.float32 (is_type) and arr.dtype.
Value np_dtype_value(Prim dt, bool is_type);

// ---- printing (ti_print.cpp) ----------------------------------------------------------
std::string np_array_str(Evaluator& ev, const NpArrayObj& a);
std::string np_array_repr(Evaluator& ev, const NpArrayObj& a);
std::string np_scalar_str(Evaluator& ev, Prim dt, const Value& v);

// ---- indexing (np_index.cpp) -----------------------------------------------------------
// a[key]: a view (slices, ints on some axes) or an element; false if key is not an index.
Value np_get_item(Evaluator& ev, const std::shared_ptr<NpArrayObj>& a, const Value& key, SourceLoc loc);
void np_set_item(Evaluator& ev, NpArrayObj& a, const Value& key, const Value& v, SourceLoc loc);
// Copies `src` (broadcast to dst's shape) into dst, casting.
void np_assign(Evaluator& ev, NpArrayObj& dst, const NpArrayObj& src, SourceLoc loc);

// ---- arithmetic (np_ops.cpp) -------------------------------------------------------------
std::vector<int64_t> np_broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b, SourceLoc loc);
bool np_binop(Evaluator& ev, ast::BinOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out);
bool np_compare(Evaluator& ev, ast::CmpOpKind op, const Value& a, const Value& b, SourceLoc loc, Value& out);
Value np_unop(Evaluator& ev, const NpArrayObj& a, char op, SourceLoc loc);
// Reductions: "sum", "min", "max", "mean", "prod", "any", "all", "argmin", "argmax";
// axis None (has_axis false) or an int (negative from the end).
Value np_reduce(Evaluator& ev, const std::string& what, const NpArrayObj& a, bool has_axis, int64_t axis, SourceLoc loc);
// A one-argument ufunc ("sqrt", "abs", "exp", ...) applied elementwise.
Value np_ufunc1(Evaluator& ev, const std::string& name, const Value& x, SourceLoc loc);

// ---- methods (np_methods.cpp) -----------------------------------------------------------
bool np_method(Evaluator& ev, const std::shared_ptr<NpArrayObj>& a, const std::string& name, SourceLoc loc, Value& out);

// ---- fields <-> arrays (ti_numpy.cpp): the to_numpy / from_numpy methods ------------------
bool scalar_field_numpy(Evaluator& ev, const std::shared_ptr<FieldObj>& me, const std::string& name, Value& out);
bool matrix_field_numpy(Evaluator& ev, const std::shared_ptr<MatrixFieldObj>& me, const std::string& name, Value& out);
bool struct_field_numpy(Evaluator& ev, const std::shared_ptr<StructFieldObj>& me, const std::string& name, Value& out);
// Copies between a field's components and `data`, a C-order buffer of shape
// field.shape + comp_shape in the field's dtype (not bf16) that the caller
// owns: the C API's bulk copies, with to_numpy's memcpy fast path.
void copy_field_buffer(Evaluator& ev, Program& prog, const std::vector<FieldInfo*>& comps,
                       const std::vector<int64_t>& comp_shape, void* data, bool to_buffer, SourceLoc loc);

// ---- ndarrays (ti_ndarray.cpp) ----------------------------------------------------------
bool is_ndarray_type(const Value& ann);
// Checks `v` against an ndarray annotation and fills the argument's spec, its
// cache-key part (dtype, ndim, element shape: never the shape) and its slots
// (data pointer, then the shape).
bool ndarray_arg(Evaluator& ev, const Value& ann, const Value& v, const std::string& pname, SourceLoc loc,
                 frontend::ArgSpec& spec, std::string& key, std::vector<uint64_t>& slots);
Value matrix_class_ndarray(Evaluator& ev, CallArgs& a, bool vector);
// A new ti.ndarray (zeros) of dtype dt and shape `shape`, elements n x m (0: scalars).
Value ndarray_new(Evaluator& ev, Prim dt, const Value& shape, int n, int m, SourceLoc loc);
// The numpy storage of a ti.ndarray (shape + element dims), its number of
// indices and of components per element (0: scalars); null for other values.
std::shared_ptr<NpArrayObj> ndarray_storage(const Value& v, int* ndim, int* elem_n);
void install_ti_ndarray(Evaluator& ev, ModuleObj& ti, ModuleObj& types);

// ---- ti.linalg (ti_linalg.cpp) ------------------------------------------------------------
// ti.types.sparse_matrix_builder() annotations, a builder argument's six slots
// (its index, value and counter arrays: pointer and length each), and the
// ti.linalg module with ti.types.sparse_matrix_builder.
bool is_builder_type(const Value& ann);
void builder_arg(Evaluator& ev, const Value& v, const std::string& pname, SourceLoc loc, std::vector<uint64_t>& slots);
void install_ti_linalg(Evaluator& ev, ModuleObj& ti, ModuleObj& types);

// ---- np.random (np_random.cpp): numpy's legacy RandomState ---------------------------------
Value make_np_random(Evaluator& ev);

// ---- .npy files (np_io.cpp) -------------------------------------------------------------
void np_save(Evaluator& ev, const std::string& path, const NpArrayObj& a, SourceLoc loc);
Value np_load(Evaluator& ev, const std::string& path, SourceLoc loc);

}  // namespace kiln::host
