// The C API's ndarrays: handles over host memory (no copy), over memory the VM
// allocates (through the config's allocator hook), and over DLPack tensors in
// both directions. Each handle holds a ready numpy array object (NpArrayObj),
// so passing it to a kernel is a reference, not a fresh check and wrap.
//
// Ownership is a shared_ptr<NpBuffer> whose deleter releases what the memory
// came from (the VM's allocator, an imported tensor's deleter): the handle and
// every exported DLPack tensor hold a reference, and the last one frees.
#include <dlpack/dlpack.h>

#include <cstring>
#include <functional>

#include "vm/capi/capi_state.h"
#include "vm/host/np_array.h"
#include "vm/runtime/sizes.h"

using namespace kiln;
using namespace kiln::capi;
using namespace kiln::host;

namespace kiln::capi {

namespace {

std::string dims_str(const int64_t* d, int n) { return np_shape_str(std::vector<int64_t>(d, d + n)); }

// An allocator hook's memory, freed through the hook (captured by value, so a
// buffer may outlive its VM when a DLPack consumer still holds it).
std::shared_ptr<NpBuffer> hooked_buffer(const kiln_config& cfg, int64_t bytes) {
  size_t n = (size_t)(bytes > 0 ? bytes : 1);
  void* p = cfg.alloc(cfg.allocator_data, n, 64);
  if (!p) throw Error("MemoryError", "the host allocator returned NULL for " + std::to_string(n) + " bytes");
  std::memset(p, 0, n);
  auto dealloc = cfg.dealloc;
  void* user = cfg.allocator_data;
  return std::shared_ptr<NpBuffer>(new NpBuffer(static_cast<uint8_t*>(p), bytes), [dealloc, user, p, n](NpBuffer* b) {
    delete b;
    dealloc(user, p, n);
  });
}

// Checks the parts every array description shares; the dtype as a Prim.
Prim check_dims(Prim p, const char* dtype_name, int ndim, const int64_t* shape, const std::string& what) {
  if (p == Prim::none || p == Prim::bf16)
    throw Error("TypeError", what + ": ndarray dtype " + dtype_name + " cannot be passed to kernels");
  if (ndim < 1 || ndim > 8) throw Error("ValueError", what + ": ndarray ndim must be 1..8, got " + std::to_string(ndim));
  if (!shape) invalid(what + ": ndarray shape is NULL");
  for (int d = 0; d < ndim; d++)
    if (shape[d] <= 0)
      throw Error("ValueError", what + ": ndarray dimensions must be positive, got shape " + dims_str(shape, ndim));
  return p;
}

// C-contiguity of `strides` (in bytes; NULL is C order). An axis of extent 1
// is never stepped along, so its stride does not matter (numpy and torch put
// anything there).
void check_contiguous(const NpArrayObj& a, const int64_t* strides, const std::string& what) {
  if (!strides) return;
  for (int d = 0; d < a.ndim(); d++)
    if (a.shape[(size_t)d] != 1 && strides[d] != a.strides[(size_t)d])
      throw Error("ValueError", what + ": the ndarray must be C-contiguous: shape " + np_shape_str(a.shape) + " has strides " +
                                    np_shape_str(a.strides) + " in C order, got " + dims_str(strides, a.ndim()));
}

std::shared_ptr<NpArrayObj> blank_array(Prim p, int ndim, const int64_t* shape) {
  auto a = std::make_shared<NpArrayObj>();
  a->dtype = p;
  a->shape.assign(shape, shape + ndim);
  a->strides = c_strides(a->shape, p);
  return a;
}

kiln_ndarray* make_handle(kiln_vm* vm, std::shared_ptr<NpArrayObj> a) {
  auto h = std::make_unique<kiln_ndarray>();
  h->vm = vm;
  h->obj = a.get();
  h->desc.data = a->data();
  h->desc.dtype = dtype_of(a->dtype);
  h->desc.ndim = a->ndim();
  h->desc.shape = a->shape.data();
  h->desc.strides = a->strides.data();
  h->array = Value::of(std::move(a));
  return h.release();
}

// ---- DLPack ----------------------------------------------------------------

Prim prim_of_dl(DLDataType t) {
  if (t.lanes != 1) return Prim::none;
  switch (t.code) {
    case kDLInt: return t.bits == 8 ? Prim::i8 : t.bits == 16 ? Prim::i16 : t.bits == 32 ? Prim::i32 : t.bits == 64 ? Prim::i64 : Prim::none;
    case kDLUInt: return t.bits == 8 ? Prim::u8 : t.bits == 16 ? Prim::u16 : t.bits == 32 ? Prim::u32 : t.bits == 64 ? Prim::u64 : Prim::none;
    case kDLFloat: return t.bits == 16 ? Prim::f16 : t.bits == 32 ? Prim::f32 : t.bits == 64 ? Prim::f64 : Prim::none;
    default: return Prim::none;
  }
}

std::string dl_dtype_name(DLDataType t) {
  const char* code = t.code == kDLInt ? "int" : t.code == kDLUInt ? "uint" : t.code == kDLFloat ? "float"
                     : t.code == kDLBfloat ? "bfloat" : "code";
  std::string s = code + std::to_string(t.bits);
  if (t.code > kDLBfloat) s = "type code " + std::to_string(t.code) + " of " + std::to_string(t.bits) + " bits";
  if (t.lanes != 1) s += " x" + std::to_string(t.lanes) + " lanes";
  return s;
}

DLDataType dl_of(Prim p) {
  DLDataType t;
  t.code = prim_is_float(p) ? kDLFloat : prim_is_signed(p) ? kDLInt : kDLUInt;
  t.bits = (uint8_t)prim_bits(p);
  t.lanes = 1;
  return t;
}

// What an exported tensor's manager_ctx points at: the tensor itself, the
// shape it points into, and a reference that keeps the memory alive.
struct Export {
  DLManagedTensor t{};
  std::vector<int64_t> shape;
  std::shared_ptr<NpBuffer> buf;
};

void export_deleter(DLManagedTensor* self) { delete static_cast<Export*>(self->manager_ctx); }

}  // namespace

Value wrap_array(const kiln_array* nd, const std::function<std::string()>& what_fn) {
  if (!nd || !nd->data || nd->ndim < 1 || nd->ndim > 8 || !nd->shape) {
    std::string what = what_fn();
    if (!nd) invalid(what + ": the kiln_array pointer is NULL");
    if (!nd->data) invalid(what + ": ndarray data is NULL");
    check_dims(prim_of(nd->dtype), kiln_dtype_name(nd->dtype), nd->ndim, nd->shape, what);
  }
  // messages are built only on failure: this runs on every call of a kernel
  Prim p = prim_of(nd->dtype);
  if (p == Prim::none || p == Prim::bf16) check_dims(p, kiln_dtype_name(nd->dtype), nd->ndim, nd->shape, what_fn());
  for (int d = 0; d < nd->ndim; d++)
    if (nd->shape[d] <= 0) check_dims(p, kiln_dtype_name(nd->dtype), nd->ndim, nd->shape, what_fn());
  auto a = blank_array(p, nd->ndim, nd->shape);
  if (nd->strides)
    for (int d = 0; d < nd->ndim; d++)
      if (a->shape[(size_t)d] != 1 && nd->strides[d] != a->strides[(size_t)d]) check_contiguous(*a, nd->strides, what_fn());
  a->buf = std::make_shared<NpBuffer>(static_cast<uint8_t*>(nd->data), a->size() * a->itemsize());
  return Value::of(a);
}

}  // namespace kiln::capi

extern "C" {

kiln_status kiln_ndarray_create(kiln_vm* vm, const kiln_array* desc, kiln_ndarray** out) {
  return guard(vm, [&] {
    need(vm, "vm");
    need(out, "out");
    Value v = wrap_array(desc, [] { return std::string("kiln_ndarray_create"); });
    *out = make_handle(vm, v.ptr<NpArrayObj>());
  });
}

kiln_status kiln_ndarray_alloc(kiln_vm* vm, kiln_dtype dtype, int ndim, const int64_t* shape, kiln_ndarray** out) {
  return guard(vm, [&] {
    need(vm, "vm");
    need(out, "out");
    Prim p = check_dims(prim_of(dtype), kiln_dtype_name(dtype), ndim, shape, "kiln_ndarray_alloc");
    try {  // the runtime's size rules (32-bit dimensions, the machine's memory)
      check_ndarray(std::vector<int64_t>(shape, shape + ndim), 1, std::max(1, prim_bits(p) / 8), {});
    } catch (const Error& e) {
      throw Error(e.kind, "kiln_ndarray_alloc: " + e.message);
    }
    auto a = blank_array(p, ndim, shape);
    int64_t bytes = a->size() * a->itemsize();
    a->buf = vm->cfg.alloc ? hooked_buffer(vm->cfg, bytes) : std::make_shared<NpBuffer>(bytes);
    *out = make_handle(vm, std::move(a));
  });
}

void kiln_ndarray_destroy(kiln_ndarray* a) { delete a; }

kiln_status kiln_ndarray_info(const kiln_ndarray* a, kiln_array* out) {
  return guard(a ? a->vm : nullptr, [&] {
    need(a, "ndarray");
    need(out, "out");
    *out = a->desc;
  });
}

kiln_status kiln_ndarray_from_dlpack(kiln_vm* vm, DLManagedTensor* tensor, kiln_ndarray** out) {
  return guard(vm, [&] {
    need(vm, "vm");
    need(tensor, "tensor");
    need(out, "out");
    const DLTensor& t = tensor->dl_tensor;
    const std::string what = "kiln_ndarray_from_dlpack";
    if (t.device.device_type != kDLCPU)
      throw Error("ValueError", what + ": the tensor is on device type " + std::to_string((int)t.device.device_type) +
                                    "; Kiln takes host memory (kDLCPU) only");
    if (!t.data) invalid(what + ": the tensor's data is NULL");
    Prim p = prim_of_dl(t.dtype);
    if (p == Prim::none) throw Error("TypeError", what + ": tensor dtype " + dl_dtype_name(t.dtype) + " cannot be passed to kernels");
    check_dims(p, prim_name(p).data(), t.ndim, t.shape, what);
    auto a = blank_array(p, t.ndim, t.shape);
    if (t.strides) {
      // DLPack strides count elements, not bytes
      std::vector<int64_t> bytes(t.strides, t.strides + t.ndim);
      for (auto& s : bytes) s *= a->itemsize();
      check_contiguous(*a, bytes.data(), what);
    }
    uint8_t* data = static_cast<uint8_t*>(t.data) + t.byte_offset;
    // The tensor is ours only now that nothing can fail any more.
    a->buf = std::shared_ptr<NpBuffer>(new NpBuffer(data, a->size() * a->itemsize()), [tensor](NpBuffer* b) {
      delete b;
      if (tensor->deleter) tensor->deleter(tensor);
    });
    *out = make_handle(vm, std::move(a));
  });
}

kiln_status kiln_ndarray_to_dlpack(kiln_ndarray* a, DLManagedTensor** out) {
  return guard(a ? a->vm : nullptr, [&] {
    need(a, "ndarray");
    need(out, "out");
    auto e = std::make_unique<Export>();
    const NpArrayObj& arr = *a->obj;
    e->shape = arr.shape;
    e->buf = arr.buf;
    DLTensor& t = e->t.dl_tensor;
    t.data = arr.data();
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = arr.ndim();
    t.dtype = dl_of(arr.dtype);
    t.shape = e->shape.data();
    t.strides = nullptr;
    t.byte_offset = 0;
    e->t.manager_ctx = e.get();
    e->t.deleter = export_deleter;
    *out = &e.release()->t;
  });
}

}  // extern "C"
