// Two members that keep a Stmt small (issue 16: compile time linear in
// kernel size). A ti.static-unrolled kernel has 10^4-10^5 statements and
// every pass walks all of them; at 512 bytes a statement, plus a heap block
// for its operands, the walks of a 10^5-statement kernel missed the caches on
// every statement and compile time per statement grew 2x from 10^3 to 10^5.
//
//  - Operands: a statement's operand list. Almost every statement has at most
//    three, so they live inline (no allocation, and the walk that reads them
//    reads the statement's own cache line); more spill to the heap. The
//    interface is the part of std::vector the passes use.
//  - Box<T>: a payload only some statements carry (a global_ptr's Access),
//    allocated when first written. Reading an empty box gives T's default
//    value, as the inline member did.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <vector>

#include "vm/ir/ir_memory.h"

namespace kiln::ir {

struct Stmt;

class Operands {
 public:
  static constexpr uint32_t kInline = 3;

  Operands() = default;
  Operands(std::initializer_list<Stmt*> l) { assign(l.begin(), l.size()); }
  Operands(const std::vector<Stmt*>& v) { assign(v.data(), v.size()); }  // NOLINT: as the vector it replaced
  Operands(const Operands& o) { assign(o.data(), o.n_); }
  Operands(Operands&& o) noexcept { steal(o); }
  ~Operands() { release(); }

  Operands& operator=(const Operands& o) {
    if (this != &o) {
      n_ = 0;
      assign(o.data(), o.n_);
    }
    return *this;
  }
  Operands& operator=(Operands&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  Operands& operator=(std::initializer_list<Stmt*> l) {
    n_ = 0;
    assign(l.begin(), l.size());
    return *this;
  }
  Operands& operator=(const std::vector<Stmt*>& v) {
    n_ = 0;
    assign(v.data(), v.size());
    return *this;
  }

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  Stmt** data() { return cap_ > kInline ? u_.heap : u_.in; }
  Stmt* const* data() const { return cap_ > kInline ? u_.heap : u_.in; }
  Stmt** begin() { return data(); }
  Stmt** end() { return data() + n_; }
  Stmt* const* begin() const { return data(); }
  Stmt* const* end() const { return data() + n_; }
  Stmt*& operator[](size_t i) { return data()[i]; }
  Stmt* operator[](size_t i) const { return data()[i]; }
  Stmt*& at(size_t i) {
    if (i >= n_) throw std::out_of_range("Operands::at");
    return data()[i];
  }
  Stmt* at(size_t i) const {
    if (i >= n_) throw std::out_of_range("Operands::at");
    return data()[i];
  }
  Stmt*& front() { return data()[0]; }
  Stmt*& back() { return data()[n_ - 1]; }
  Stmt* front() const { return data()[0]; }
  Stmt* back() const { return data()[n_ - 1]; }

  void push_back(Stmt* s) {
    if (n_ == cap_) grow(cap_ * 2);
    data()[n_++] = s;
  }
  void pop_back() { n_--; }
  void clear() { n_ = 0; }
  std::vector<Stmt*> vec() const { return std::vector<Stmt*>(begin(), end()); }

  bool operator==(const Operands& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }

 private:
  void assign(Stmt* const* src, size_t n) {
    if (n > cap_) grow((uint32_t)n);
    std::copy(src, src + n, data());
    n_ = (uint32_t)n;
  }
  void grow(uint32_t cap) {
    Stmt** heap = static_cast<Stmt**>(ir_alloc_n(cap, sizeof(Stmt*)));
    std::copy(begin(), end(), heap);
    release();
    u_.heap = heap;
    cap_ = cap;
  }
  void release() {
    if (cap_ > kInline) ir_free(u_.heap);
    cap_ = kInline;
  }
  void steal(Operands& o) {
    n_ = o.n_;
    cap_ = o.cap_;
    if (o.cap_ > kInline) {
      u_.heap = o.u_.heap;
      o.cap_ = kInline;
    } else {
      std::copy(o.u_.in, o.u_.in + o.n_, u_.in);
    }
    o.n_ = 0;
  }

  union {
    Stmt* in[kInline];
    Stmt** heap;
  } u_{};
  uint32_t n_ = 0, cap_ = kInline;
};

template <class T>
class Box {
 public:
  Box() = default;
  Box(const Box& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  Box& operator=(const T& v) {
    get() = v;
    return *this;
  }
  Box& operator=(T&& v) {
    get() = std::move(v);
    return *this;
  }

  // Any access through a non-const box allocates its payload (a read too:
  // it then reads the default); through a const box, an empty one reads the
  // default without allocating. Passes test a statement's kind first.
  T* operator->() { return &get(); }
  T& operator*() { return get(); }
  const T* operator->() const { return p_ ? p_.get() : &empty(); }
  const T& operator*() const { return p_ ? *p_ : empty(); }
  bool has_value() const { return p_ != nullptr; }
  // Reads as the payload (`const Access& a = s->access;`).
  operator const T&() const { return **this; }  // NOLINT: a box reads as what it holds

 private:
  T& get() {
    if (!p_) p_ = std::make_unique<T>();
    return *p_;
  }
  static const T& empty() {
    static const T e{};
    return e;
  }
  std::unique_ptr<T> p_;
};

}  // namespace kiln::ir
