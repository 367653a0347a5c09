// Kiln's C++ API: a thin RAII layer over the C API (kiln.h), header only.
//
//   kiln::VM vm;                                  // kiln::VMConfig for engine/threads/debug
//   kiln::Module m = vm.load(source, "sim.py");
//   std::vector<float> pos(2 * n);
//   m.kernel("step")(0.01f, std::span<float>(pos));   // a span is a 1-D ndarray, no copy
//   float e = m.kernel("energy")().as<float>();
//   m.field("x").copy_to(std::span<float>(pos));
//
// Every failure throws kiln::Failure, which carries the diagnostic (status,
// kind, file, line, column, message; what() is the text `kiln run` prints).
// Handles are move-only and destroy their C handle; a Module, Kernel or Field
// must not outlive its VM.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kiln/kiln.h"

namespace kiln {

// Named Failure, not Error: kiln::Error is the VM's own internal class.
struct Failure : std::runtime_error {
  kiln_status status;
  std::string kind, file, message;
  int line = 0, column = 0;
  explicit Failure(const kiln_diagnostic& d)
      : std::runtime_error(d.formatted), status(d.status), kind(d.kind), file(d.file), message(d.message),
        line(d.line), column(d.column) {}
};

inline void check(kiln_status s) {
  if (s != KILN_OK) throw Failure(*kiln_last_diagnostic());
}

template <class T> constexpr kiln_dtype dtype_of() {
  if constexpr (std::is_same_v<T, int8_t>) return KILN_I8;
  else if constexpr (std::is_same_v<T, int16_t>) return KILN_I16;
  else if constexpr (std::is_same_v<T, int32_t>) return KILN_I32;
  else if constexpr (std::is_same_v<T, int64_t>) return KILN_I64;
  else if constexpr (std::is_same_v<T, uint8_t>) return KILN_U8;
  else if constexpr (std::is_same_v<T, uint16_t>) return KILN_U16;
  else if constexpr (std::is_same_v<T, uint32_t>) return KILN_U32;
  else if constexpr (std::is_same_v<T, uint64_t>) return KILN_U64;
  else if constexpr (std::is_same_v<T, float>) return KILN_F32;
  else if constexpr (std::is_same_v<T, double>) return KILN_F64;
  else static_assert(sizeof(T) == 0, "no Kiln dtype for this C++ type");
}

// A C++ scalar as a kiln_value of its own dtype.
template <class T> kiln_value value_of(T x) {
  kiln_value v;
  v.dtype = dtype_of<T>();
  if constexpr (std::is_floating_point_v<T>) v.v.f = (double)x;
  else if constexpr (std::is_signed_v<T>) v.v.i = (int64_t)x;
  else v.v.u = (uint64_t)x;
  return v;
}

// A kernel's returns: flattened scalars (see kiln_kernel_call).
struct Returns {
  std::vector<kiln_value> values;
  size_t size() const { return values.size(); }
  // The k-th value converted to T (the kernel's own dtype decides how it was stored).
  template <class T> T as(size_t k = 0) const {
    const kiln_value& v = values.at(k);
    switch (v.dtype) {
      case KILN_F16: case KILN_BF16: case KILN_F32: case KILN_F64: return (T)v.v.f;
      case KILN_U8: case KILN_U16: case KILN_U32: case KILN_U64: return (T)v.v.u;
      default: return (T)v.v.i;
    }
  }
};

// A row-major R x C matrix argument (ti.types.matrix(R, C, T)).
template <class T, int R, int C> struct Matrix {
  std::array<T, (size_t)R * C> data{};
  T& operator()(int r, int c) { return data[(size_t)(r * C + c)]; }
};

// An ndarray handle (kiln_ndarray): host memory wrapped once, or memory the VM
// allocates; passed to kernels by reference. Must not outlive its VM's use
// (the memory itself may: see kiln_ndarray_to_dlpack).
class NDArray {
 public:
  explicit NDArray(kiln_ndarray* a) : a_(a) {}
  NDArray(NDArray&& o) noexcept : a_(std::exchange(o.a_, nullptr)) {}
  NDArray& operator=(NDArray&& o) noexcept { std::swap(a_, o.a_); return *this; }
  ~NDArray() { kiln_ndarray_destroy(a_); }
  kiln_array info() const {
    kiln_array d;
    check(kiln_ndarray_info(a_, &d));
    return d;
  }
  template <class T> T* data() const {
    kiln_array d = info();
    if (d.dtype != dtype_of<T>()) throw std::invalid_argument(std::string("ndarray is ") + kiln_dtype_name(d.dtype));
    return static_cast<T*>(d.data);
  }
  std::vector<int64_t> shape() const {
    kiln_array d = info();
    return std::vector<int64_t>(d.shape, d.shape + d.ndim);
  }
  kiln_ndarray* get() const { return a_; }

 private:
  kiln_ndarray* a_ = nullptr;
};

class Field {
 public:
  Field(kiln_field* f) : f_(f) {}
  Field(Field&& o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
  Field& operator=(Field&& o) noexcept { std::swap(f_, o.f_); return *this; }
  ~Field() { kiln_field_destroy(f_); }

  std::vector<int64_t> shape() const {
    int64_t s[8];
    int nd = 0;
    check(kiln_field_info(f_, nullptr, &nd, s, nullptr, nullptr));
    return std::vector<int64_t>(s, s + nd);
  }
  // Element (or component) access: indices, then the component for vector fields.
  template <class T> T get(std::initializer_list<int64_t> index) const {
    kiln_value v;
    check(kiln_field_get(f_, index.begin(), (int)index.size(), &v));
    return Returns{{v}}.as<T>();
  }
  template <class T> void set(std::initializer_list<int64_t> index, T x) {
    kiln_value v = value_of(x);
    check(kiln_field_set(f_, index.begin(), (int)index.size(), &v));
  }
  template <class T> void copy_to(std::span<T> out) const {
    check(kiln_field_copy_to_host(f_, out.data(), out.size_bytes(), dtype_of<T>()));
  }
  template <class T> void copy_from(std::span<const T> in) {
    check(kiln_field_copy_from_host(f_, in.data(), in.size_bytes(), dtype_of<T>()));
  }
  kiln_field* get() const { return f_; }

 private:
  kiln_field* f_ = nullptr;
};

class Kernel {
 public:
  Kernel(kiln_kernel* k) : k_(k) {}
  Kernel(Kernel&& o) noexcept : k_(std::exchange(o.k_, nullptr)) {}
  Kernel& operator=(Kernel&& o) noexcept { std::swap(k_, o.k_); return *this; }
  ~Kernel() { kiln_kernel_destroy(k_); }

  // Scalars pass with their C++ type's dtype (which must be the parameter's);
  // std::span<T> passes a 1-D ndarray over the caller's memory.
  template <class... A> Returns operator()(A&&... args) {
    constexpr size_t N = sizeof...(A);
    kiln_value vals[N + 1];
    Slot slots[N + 1];
    size_t i = 0;
    (put(vals, slots, i++, std::forward<A>(args)), ...);
    (void)slots, (void)i;  // unused when the kernel takes no arguments
    Returns r;
    r.values.resize(16);  // more returns than this: KILN_ERROR_VALUE (the kernel still ran)
    size_t n = 0;
    check(kiln_kernel_call(k_, vals, N, r.values.data(), r.values.size(), &n));
    r.values.resize(n);
    return r;
  }
  kiln_kernel* get() const { return k_; }

 private:
  // Storage for the descriptions an argument points at during the call.
  struct Slot {
    kiln_array array;
    kiln_vector vector;
    int64_t shape;
  };
  template <class T> static void put(kiln_value* vals, Slot* slots, size_t i, std::span<T> s) {
    slots[i].shape = (int64_t)s.size();
    slots[i].array = kiln_array{(void*)s.data(), dtype_of<std::remove_const_t<T>>(), 1, &slots[i].shape, nullptr};
    vals[i] = kiln_arr(&slots[i].array);
  }
  // std::array<T, N>: a ti.types.vector(N, T) argument; Matrix<T, N, M>: a matrix.
  template <class T, size_t K> static void put(kiln_value* vals, Slot* slots, size_t i, const std::array<T, K>& v) {
    slots[i].vector = kiln_vector{dtype_of<T>(), (int)K, 0, v.data()};
    vals[i] = kiln_vec(&slots[i].vector);
  }
  template <class T, int R, int C> static void put(kiln_value* vals, Slot* slots, size_t i, const Matrix<T, R, C>& v) {
    slots[i].vector = kiln_vector{dtype_of<T>(), R, C, v.data.data()};
    vals[i] = kiln_vec(&slots[i].vector);
  }
  static void put(kiln_value* vals, Slot*, size_t i, NDArray& a) { vals[i] = kiln_nd(a.get()); }
  static void put(kiln_value* vals, Slot*, size_t i, Field& f) { vals[i] = kiln_fld(f.get()); }
  template <class T> static void put(kiln_value* vals, Slot*, size_t i, T x) {
    vals[i] = value_of<std::decay_t<T>>(x);
  }
  kiln_kernel* k_ = nullptr;
};

class Module {
 public:
  Module(kiln_module* m) : m_(m) {}
  Module(Module&& o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
  Module& operator=(Module&& o) noexcept { std::swap(m_, o.m_); return *this; }
  ~Module() { kiln_module_destroy(m_); }
  Kernel kernel(const char* name) {
    kiln_kernel* k = nullptr;
    check(kiln_module_kernel(m_, name, &k));
    return Kernel(k);
  }
  Field field(const char* name) {
    kiln_field* f = nullptr;
    check(kiln_module_field(m_, name, &f));
    return Field(f);
  }

 private:
  kiln_module* m_ = nullptr;
};

// (Not `Config`: the VM's own kiln::Config lives in the same namespace, and two
// classes of one name in one program break the one-definition rule.)
struct VMConfig : kiln_config {
  VMConfig() { kiln_config_init(this); }
};

class VM {
 public:
  explicit VM(const VMConfig& cfg = VMConfig()) { check(kiln_vm_create(&cfg, &vm_)); }
  VM(VM&& o) noexcept : vm_(std::exchange(o.vm_, nullptr)) {}
  VM& operator=(VM&& o) noexcept { std::swap(vm_, o.vm_); return *this; }
  ~VM() { kiln_vm_destroy(vm_); }
  Module load(const std::string& source, const char* name = "<string>") {
    kiln_module* m = nullptr;
    check(kiln_load_string(vm_, name, source.c_str(), &m));
    return Module(m);
  }
  Module load_file(const char* path) {
    kiln_module* m = nullptr;
    check(kiln_load_file(vm_, path, &m));
    return Module(m);
  }
  // Host memory wrapped without a copy: `shape` in elements, C order; the
  // span's memory must outlive the NDArray.
  template <class T> NDArray wrap(std::span<T> s, std::vector<int64_t> shape = {}) {
    if (shape.empty()) shape = {(int64_t)s.size()};
    kiln_array d{(void*)s.data(), dtype_of<std::remove_const_t<T>>(), (int)shape.size(), shape.data(), nullptr};
    kiln_ndarray* a = nullptr;
    check(kiln_ndarray_create(vm_, &d, &a));
    return NDArray(a);
  }
  // A zero-filled array owned by the VM (its allocator hook when set).
  template <class T> NDArray ndarray(std::vector<int64_t> shape) {
    kiln_ndarray* a = nullptr;
    check(kiln_ndarray_alloc(vm_, dtype_of<T>(), (int)shape.size(), shape.data(), &a));
    return NDArray(a);
  }
  kiln_vm* get() const { return vm_; }

 private:
  kiln_vm* vm_ = nullptr;
};

}  // namespace kiln
