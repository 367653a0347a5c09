// The C API's ndarray handles (host memory, VM memory, DLPack in and out),
// the host allocator hook, vector/matrix arguments and the capability query:
// valid and invalid input, status codes and messages.
#include <dlpack/dlpack.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "capi_helpers.h"
#include "kiln/kiln.h"

namespace {
using namespace capi_test;

const char* kSrc = R"(
import taichi as ti
ti.init()
acc = ti.field(ti.f64, shape=4)

@ti.kernel
def scale(a: ti.types.ndarray(dtype=ti.f32, ndim=2), k: ti.f32):
    for i, j in a:
        a[i, j] = a[i, j] * k + i * 10 + j

@ti.kernel
def total(a: ti.types.ndarray(dtype=ti.i64, ndim=1)) -> ti.i64:
    s = 0
    for i in a:
        s += a[i]
    return s

@ti.kernel
def dot3(u: ti.types.vector(3, ti.f32), v: ti.math.vec3) -> ti.f32:
    return u.dot(v)

@ti.kernel
def mat_sum(m: ti.types.matrix(2, 3, ti.i32)) -> ti.i32:
    return m[0, 0] + m[0, 1] + m[0, 2] + 10 * (m[1, 0] + m[1, 1] + m[1, 2])

@ti.kernel
def fill_acc():
    for i in acc:
        acc[i] = i * 1.5
)";

kiln_kernel* kernel(kiln_module* m, const char* name) {
  kiln_kernel* k = nullptr;
  REQUIRE(kiln_module_kernel(m, name, &k) == KILN_OK);
  return k;
}

// A DLPack producer that counts its deleter calls.
struct Producer {
  std::vector<int64_t> shape, strides;
  std::vector<uint8_t> bytes;
  DLManagedTensor t{};
  int deleted = 0;
  Producer(DLDataType dt, std::vector<int64_t> s, std::vector<int64_t> st = {}) : shape(std::move(s)), strides(std::move(st)) {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    bytes.assign((size_t)(n * dt.bits / 8), 0);
    t.dl_tensor.data = bytes.data();
    t.dl_tensor.device = DLDevice{kDLCPU, 0};
    t.dl_tensor.ndim = (int)shape.size();
    t.dl_tensor.dtype = dt;
    t.dl_tensor.shape = shape.data();
    t.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    t.manager_ctx = this;
    t.deleter = [](DLManagedTensor* self) { static_cast<Producer*>(self->manager_ctx)->deleted++; };
  }
};

DLDataType dl(uint8_t code, uint8_t bits, uint16_t lanes = 1) { return DLDataType{code, bits, lanes}; }

}  // namespace

TEST_CASE("ndarray handles over host memory and VM memory") {
  VM t;
  kiln_module* m = t.load(kSrc);
  kiln_kernel* scale = kernel(m, "scale");
  float host[2][3] = {{1, 2, 3}, {4, 5, 6}};
  int64_t shape[2] = {2, 3};
  kiln_array desc = {host, KILN_F32, 2, shape, nullptr};
  kiln_ndarray* a = nullptr;
  REQUIRE(kiln_ndarray_create(t.vm, &desc, &a) == KILN_OK);
  shape[0] = 99;  // copied by create: the handle keeps (2, 3)
  kiln_value args[2] = {kiln_nd(a), kiln_f32(2.0f)};
  REQUIRE(kiln_kernel_call(scale, args, 2, nullptr, 0, nullptr) == KILN_OK);
  CHECK(host[0][0] == 2.0f);
  CHECK(host[1][2] == 12.0f + 12.0f);
  kiln_array info;
  REQUIRE(kiln_ndarray_info(a, &info) == KILN_OK);
  CHECK(info.data == (void*)host);
  CHECK(info.dtype == KILN_F32);
  CHECK(info.ndim == 2);
  CHECK(info.shape[0] == 2);
  CHECK(info.shape[1] == 3);
  CHECK(info.strides[0] == 12);
  CHECK(info.strides[1] == 4);
  kiln_ndarray_destroy(a);

  // VM-allocated, zero-filled
  int64_t n1[1] = {100};
  kiln_ndarray* b = nullptr;
  REQUIRE(kiln_ndarray_alloc(t.vm, KILN_I64, 1, n1, &b) == KILN_OK);
  REQUIRE(kiln_ndarray_info(b, &info) == KILN_OK);
  auto* p = static_cast<int64_t*>(info.data);
  CHECK(p[0] == 0);
  CHECK(p[99] == 0);
  for (int i = 0; i < 100; i++) p[i] = i;
  kiln_kernel* total = kernel(m, "total");
  kiln_value targ = kiln_nd(b), ret;
  REQUIRE(kiln_kernel_call(total, &targ, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.v.i == 4950);
  // a handle of the wrong dtype for the parameter
  targ = kiln_nd(b);
  args[0] = targ;
  CHECK(kiln_kernel_call(scale, args, 2, nullptr, 0, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("expects elements of f32, got i64"));
  kiln_ndarray_destroy(b);
  kiln_ndarray_destroy(nullptr);

  kiln_kernel_destroy(total);
  kiln_kernel_destroy(scale);
  kiln_module_destroy(m);
}

TEST_CASE("ndarray handles refuse bad input") {
  VM t;
  float host[6] = {};
  int64_t shape[2] = {2, 3};
  kiln_array desc = {host, KILN_F32, 2, shape, nullptr};
  kiln_ndarray* a = nullptr;
  CHECK(kiln_ndarray_create(nullptr, &desc, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("vm is NULL"));
  CHECK(kiln_ndarray_create(t.vm, nullptr, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("kiln_array pointer is NULL"));
  CHECK(kiln_ndarray_create(t.vm, &desc, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("out is NULL"));
  desc.dtype = KILN_BF16;
  CHECK(kiln_ndarray_create(t.vm, &desc, &a) == KILN_ERROR_TYPE);
  CHECK(error_has("ndarray dtype bf16 cannot be passed to kernels"));
  desc.dtype = KILN_NDARRAY;
  CHECK(kiln_ndarray_create(t.vm, &desc, &a) == KILN_ERROR_TYPE);
  desc.dtype = KILN_F32;
  desc.ndim = 9;
  CHECK(kiln_ndarray_create(t.vm, &desc, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("ndim must be 1..8, got 9"));
  desc.ndim = 2;
  int64_t strides_bad[2] = {4, 8};  // Fortran order
  desc.strides = strides_bad;
  CHECK(kiln_ndarray_create(t.vm, &desc, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("must be C-contiguous: shape (2, 3) has strides (12, 4) in C order, got (4, 8)"));
  int64_t one_row[2] = {1, 3}, strides_any[2] = {777, 4};  // an axis of extent 1: its stride is never used
  desc.shape = one_row;
  desc.strides = strides_any;
  REQUIRE(kiln_ndarray_create(t.vm, &desc, &a) == KILN_OK);
  CHECK(a != nullptr);
  kiln_ndarray_destroy(a);
  a = nullptr;
  CHECK(kiln_ndarray_info(nullptr, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("ndarray is NULL"));

  int64_t neg[1] = {-1};
  CHECK(kiln_ndarray_alloc(t.vm, KILN_F32, 1, neg, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("dimensions must be positive, got shape (-1,)"));
  CHECK(kiln_ndarray_alloc(t.vm, KILN_F32, 1, nullptr, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("shape is NULL"));
  CHECK(kiln_ndarray_alloc(t.vm, KILN_DTYPE_NONE, 1, shape, &a) == KILN_ERROR_TYPE);
  CHECK(kiln_ndarray_alloc(nullptr, KILN_F32, 1, shape, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(a == nullptr);  // outputs untouched on failure
}

TEST_CASE("DLPack: import without a copy, the deleter runs once when Kiln lets go") {
  VM t;
  kiln_module* m = t.load(kSrc);
  kiln_kernel* total = kernel(m, "total");
  Producer p(dl(kDLInt, 64), {5});
  auto* data = reinterpret_cast<int64_t*>(p.bytes.data());
  for (int i = 0; i < 5; i++) data[i] = i + 1;
  kiln_ndarray* a = nullptr;
  REQUIRE(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_OK);
  kiln_value arg = kiln_nd(a), ret;
  REQUIRE(kiln_kernel_call(total, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.v.i == 15);
  data[0] = 100;  // shared memory, not a copy
  REQUIRE(kiln_kernel_call(total, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.v.i == 114);

  // Re-export: the exported tensor keeps the producer's memory alive.
  DLManagedTensor* out = nullptr;
  REQUIRE(kiln_ndarray_to_dlpack(a, &out) == KILN_OK);
  CHECK(out->dl_tensor.data == (void*)data);
  CHECK(out->dl_tensor.dtype.code == kDLInt);
  CHECK(out->dl_tensor.dtype.bits == 64);
  CHECK(out->dl_tensor.device.device_type == kDLCPU);
  CHECK(out->dl_tensor.shape[0] == 5);
  CHECK(out->dl_tensor.strides == nullptr);
  kiln_ndarray_destroy(a);
  CHECK(p.deleted == 0);
  out->deleter(out);
  CHECK(p.deleted == 1);

  // byte_offset is honoured; element strides that are C order are accepted
  Producer q(dl(kDLInt, 64), {4}, {1});
  for (int i = 0; i < 4; i++) reinterpret_cast<int64_t*>(q.bytes.data())[i] = 1 << i;
  q.shape[0] = 3;
  q.t.dl_tensor.byte_offset = 8;
  REQUIRE(kiln_ndarray_from_dlpack(t.vm, &q.t, &a) == KILN_OK);
  arg = kiln_nd(a);
  REQUIRE(kiln_kernel_call(total, &arg, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.v.i == 2 + 4 + 8);
  kiln_ndarray_destroy(a);
  CHECK(q.deleted == 1);

  kiln_kernel_destroy(total);
  kiln_module_destroy(m);
}

TEST_CASE("DLPack: export a VM-allocated array, import it back, free after the VM") {
  kiln_ndarray* a = nullptr;
  DLManagedTensor* out = nullptr;
  {
    VM t;
    int64_t shape[2] = {2, 3};
    REQUIRE(kiln_ndarray_alloc(t.vm, KILN_F32, 2, shape, &a) == KILN_OK);
    REQUIRE(kiln_ndarray_to_dlpack(a, &out) == KILN_OK);
    kiln_ndarray_destroy(a);
    CHECK(out->dl_tensor.ndim == 2);
    CHECK(out->dl_tensor.dtype.code == kDLFloat);
    CHECK(out->dl_tensor.dtype.bits == 32);
    CHECK(out->dl_tensor.dtype.lanes == 1);
    static_cast<float*>(out->dl_tensor.data)[5] = 7.5f;
    // round trip: the import owns `out` now
    kiln_ndarray* back = nullptr;
    REQUIRE(kiln_ndarray_from_dlpack(t.vm, out, &back) == KILN_OK);
    kiln_array info;
    REQUIRE(kiln_ndarray_info(back, &info) == KILN_OK);
    CHECK(info.dtype == KILN_F32);
    CHECK(info.shape[1] == 3);
    CHECK(static_cast<float*>(info.data)[5] == 7.5f);
    REQUIRE(kiln_ndarray_to_dlpack(back, &out) == KILN_OK);
    kiln_ndarray_destroy(back);
  }
  // The VM is gone; the exported tensor's memory is still valid (ASan checks it).
  CHECK(static_cast<float*>(out->dl_tensor.data)[5] == 7.5f);
  out->deleter(out);
}

TEST_CASE("DLPack: unsupported tensors are refused and stay the caller's") {
  VM t;
  kiln_ndarray* a = nullptr;
  Producer p(dl(kDLFloat, 32), {2, 3});
  p.t.dl_tensor.device = DLDevice{kDLCUDA, 0};
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("on device type 2; Kiln takes host memory (kDLCPU) only"));
  p.t.dl_tensor.device = DLDevice{kDLCPU, 0};
  p.t.dl_tensor.dtype = dl(kDLBfloat, 16);
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_TYPE);
  CHECK(error_has("tensor dtype bfloat16 cannot be passed to kernels"));
  p.t.dl_tensor.dtype = dl(kDLFloat, 32, 4);
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_TYPE);
  CHECK(error_has("float32 x4 lanes"));
  p.t.dl_tensor.dtype = dl(kDLInt, 24);
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_TYPE);
  CHECK(error_has("int24"));
  p.t.dl_tensor.dtype = dl(kDLFloat, 32);
  int64_t fortran[2] = {1, 2};  // elements
  p.t.dl_tensor.strides = fortran;
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("must be C-contiguous: shape (2, 3) has strides (12, 4) in C order, got (4, 8)"));
  p.t.dl_tensor.strides = nullptr;
  p.t.dl_tensor.ndim = 0;
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_VALUE);
  CHECK(error_has("ndim must be 1..8, got 0"));
  p.t.dl_tensor.ndim = 2;
  p.t.dl_tensor.data = nullptr;
  CHECK(kiln_ndarray_from_dlpack(t.vm, &p.t, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(kiln_ndarray_from_dlpack(t.vm, nullptr, &a) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("tensor is NULL"));
  CHECK(kiln_ndarray_to_dlpack(nullptr, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(a == nullptr);
  CHECK(p.deleted == 0);  // refused tensors are never deleted by Kiln
}

namespace {
struct Pool {
  int allocs = 0, frees = 0;
  size_t live = 0;
  bool refuse = false;
};
void* pool_alloc(void* u, size_t size, size_t align) {
  auto* p = static_cast<Pool*>(u);
  if (p->refuse) return nullptr;
  p->allocs++;
  p->live += size;
  CHECK(align >= 64);
  CHECK((align & (align - 1)) == 0);
  void* mem = std::aligned_alloc(align, (size + align - 1) / align * align);
  std::memset(mem, 0xAB, size);  // Kiln must zero it
  return mem;
}
void pool_free(void* u, void* ptr, size_t size) {
  auto* p = static_cast<Pool*>(u);
  p->frees++;
  p->live -= size;
  std::free(ptr);
}
}  // namespace

TEST_CASE("the host allocator hook serves field and ndarray memory, balanced") {
  Pool pool;
  kiln_config cfg;
  kiln_config_init(&cfg);
  cfg.alloc = pool_alloc;
  cfg.dealloc = pool_free;
  cfg.allocator_data = &pool;
  kiln_vm* vm = nullptr;
  REQUIRE(kiln_vm_create(&cfg, &vm) == KILN_OK);
  kiln_module* m = nullptr;
  REQUIRE(kiln_load_string(vm, "a.py", kSrc, &m) == KILN_OK);
  kiln_kernel* fill = kernel(m, "fill_acc");
  REQUIRE(kiln_kernel_call(fill, nullptr, 0, nullptr, 0, nullptr) == KILN_OK);
  CHECK(pool.allocs == 1);  // the field tree
  kiln_field* f = nullptr;
  REQUIRE(kiln_module_field(m, "acc", &f) == KILN_OK);
  int64_t i3 = 3;
  kiln_value v;
  REQUIRE(kiln_field_get(f, &i3, 1, &v) == KILN_OK);
  CHECK(v.v.f == 4.5);

  int64_t shape[1] = {1000};
  kiln_ndarray* a = nullptr;
  REQUIRE(kiln_ndarray_alloc(vm, KILN_F64, 1, shape, &a) == KILN_OK);
  CHECK(pool.allocs == 2);
  kiln_array info;
  REQUIRE(kiln_ndarray_info(a, &info) == KILN_OK);
  CHECK(static_cast<double*>(info.data)[999] == 0.0);  // zeroed over the 0xAB fill
  DLManagedTensor* out = nullptr;
  REQUIRE(kiln_ndarray_to_dlpack(a, &out) == KILN_OK);
  kiln_ndarray_destroy(a);
  CHECK(pool.frees == 0);  // the export still holds it

  pool.refuse = true;
  CHECK(kiln_ndarray_alloc(vm, KILN_F64, 1, shape, &a) == KILN_ERROR_OUT_OF_MEMORY);
  CHECK(error_has("the host allocator returned NULL for 8000 bytes"));
  pool.refuse = false;

  kiln_field_destroy(f);
  kiln_kernel_destroy(fill);
  kiln_module_destroy(m);
  kiln_vm_destroy(vm);
  CHECK(pool.frees == 1);  // the field tree, with the VM
  out->deleter(out);       // after the VM: the hook is still called
  CHECK(pool.allocs == 2);
  CHECK(pool.frees == 2);
  CHECK(pool.live == 0);

  cfg.dealloc = nullptr;
  CHECK(kiln_vm_create(&cfg, &vm) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("set both alloc and dealloc in the config, or neither"));
}

TEST_CASE("vector and matrix arguments are typed and shape-checked") {
  VM t;
  kiln_module* m = t.load(kSrc);
  kiln_kernel* dot = kernel(m, "dot3");
  float u[3] = {1, 2, 3}, w[3] = {4, 5, 6};
  kiln_vector vu = {KILN_F32, 3, 0, u}, vw = {KILN_F32, 3, 0, w};
  kiln_value args[2] = {kiln_vec(&vu), kiln_vec(&vw)}, ret;
  REQUIRE(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.dtype == KILN_F32);
  CHECK(ret.v.f == 32.0);

  double wd[3] = {4, 5, 6};
  kiln_vector vd = {KILN_F64, 3, 0, wd};
  args[1] = kiln_vec(&vd);
  CHECK(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("argument 2 ('v') of kernel 'dot3' is a VectorType[3, f32], got components of dtype f64"));
  kiln_vector v2 = {KILN_F32, 2, 0, w};
  args[1] = kiln_vec(&v2);
  CHECK(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_ERROR_VALUE);
  CHECK(error_has("has shape (3,), got a kiln_vector of shape (2,)"));
  args[1] = kiln_f32(1.0f);
  CHECK(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_ERROR_TYPE);
  CHECK(error_has("got a f32 value"));
  args[1] = kiln_vec(nullptr);
  CHECK(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("the kiln_vector pointer is NULL"));
  kiln_vector vnull = {KILN_F32, 3, 0, nullptr};
  args[1] = kiln_vec(&vnull);
  CHECK(kiln_kernel_call(dot, args, 2, &ret, 1, nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("vector data is NULL"));

  kiln_kernel* ms = kernel(m, "mat_sum");
  int32_t mat[6] = {1, 2, 3, 4, 5, 6};
  kiln_vector vm2 = {KILN_I32, 2, 3, mat};
  kiln_value marg = kiln_vec(&vm2);
  REQUIRE(kiln_kernel_call(ms, &marg, 1, &ret, 1, nullptr) == KILN_OK);
  CHECK(ret.v.i == 6 + 150);
  kiln_vector vm3 = {KILN_I32, 3, 2, mat};
  marg = kiln_vec(&vm3);
  CHECK(kiln_kernel_call(ms, &marg, 1, &ret, 1, nullptr) == KILN_ERROR_VALUE);
  CHECK(error_has("has shape (2, 3), got a kiln_vector of shape (3, 2)"));

  kiln_kernel_destroy(ms);
  kiln_kernel_destroy(dot);
  kiln_module_destroy(m);
}

TEST_CASE("the capability query reports engines, dtypes and devices found at run time") {
  kiln_capabilities c;
  REQUIRE(kiln_query_capabilities(&c) == KILN_OK);
  REQUIRE(c.num_engines == 2);
  CHECK(std::string(c.engines[0]) == "interp");
  CHECK(std::string(c.engines[1]) == "jit");
  for (int e = 0; e < c.num_engines; e++) {
    CHECK((c.engine_dtypes[e] & (1u << KILN_F32)) != 0);
    CHECK((c.engine_dtypes[e] & (1u << KILN_I64)) != 0);
    CHECK((c.engine_dtypes[e] & (1u << KILN_NDARRAY)) == 0);
  }
  CHECK(c.vulkan_devices >= c.vulkan_cpu_devices);
  CHECK(c.vulkan_cpu_devices >= 0);
  CHECK(c.cuda_devices >= 0);
  if (c.vulkan_devices) CHECK(std::strlen(c.vulkan_device_name) > 0);
  MESSAGE("vulkan devices: ", c.vulkan_devices, " (cpu: ", c.vulkan_cpu_devices, ", first: '", c.vulkan_device_name,
          "'), cuda devices: ", c.cuda_devices);
  kiln_capabilities again;
  REQUIRE(kiln_query_capabilities(&again) == KILN_OK);
  CHECK(again.vulkan_devices == c.vulkan_devices);
  CHECK(kiln_query_capabilities(nullptr) == KILN_ERROR_INVALID_ARGUMENT);
  CHECK(error_has("out is NULL"));
}

TEST_CASE("template parameters take fields and compile-time scalars") {
  VM t;
  kiln_module* m = t.load(R"(
import taichi as ti
ti.init()
a = ti.field(ti.f32, shape=4)
b = ti.field(ti.f32, shape=4)

@ti.kernel
def fill(f: ti.template(), k: ti.template(), v: ti.f32):
    for i in f:
        f[i] = v * k + i
)");
  kiln_kernel* fill = kernel(m, "fill");
  kiln_field *fa = nullptr, *fb = nullptr;
  REQUIRE(kiln_module_field(m, "a", &fa) == KILN_OK);
  REQUIRE(kiln_module_field(m, "b", &fb) == KILN_OK);
  kiln_value args[3] = {kiln_fld(fa), kiln_i32(10), kiln_f32(1.5f)};
  REQUIRE(kiln_kernel_call(fill, args, 3, nullptr, 0, nullptr) == KILN_OK);
  args[0] = kiln_fld(fb);
  args[1] = kiln_i32(2);
  REQUIRE(kiln_kernel_call(fill, args, 3, nullptr, 0, nullptr) == KILN_OK);
  float ha[4], hb[4];
  REQUIRE(kiln_field_copy_to_host(fa, ha, sizeof ha, KILN_F32) == KILN_OK);
  REQUIRE(kiln_field_copy_to_host(fb, hb, sizeof hb, KILN_F32) == KILN_OK);
  CHECK(ha[3] == 18.0f);
  CHECK(hb[3] == 6.0f);
  kiln_field_destroy(fb);
  kiln_field_destroy(fa);
  kiln_kernel_destroy(fill);
  kiln_module_destroy(m);
}
