// A map over a sorted vector, for the vector planner's and register
// assignment's small maps (a few to a few dozen entries, filled once per
// compile and then read). The same iteration order and the same answers as
// std::map, in one block: std::map costs an allocation per entry and a
// red-black tree's code per key type, and a trace's compile runs on cold
// caches, where both are misses (docs/perf/latency.md, "Trace compile latency,
// session 30"). Unlike std::map's, an insert moves the other entries:
// no reference or iterator into it outlives an insert or erase.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "jit/scratch.h"

namespace kiln::jit {

template <class K, class V>
class FlatMap {
 public:
  using value_type = std::pair<K, V>;
  using iterator = typename ScratchVec<value_type>::iterator;
  using const_iterator = typename ScratchVec<value_type>::const_iterator;

  iterator begin() { return v_.begin(); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin(); }
  const_iterator end() const { return v_.end(); }
  size_t size() const { return v_.size(); }
  bool empty() const { return v_.empty(); }
  void clear() { v_.clear(); }

  iterator find(const K& k) {
    auto it = lower(k);
    return it != v_.end() && !(k < it->first) ? it : v_.end();
  }
  const_iterator find(const K& k) const {
    auto it = lower(k);
    return it != v_.end() && !(k < it->first) ? it : v_.end();
  }
  size_t count(const K& k) const { return find(k) != end(); }
  bool contains(const K& k) const { return find(k) != end(); }
  V& at(const K& k) {
    auto it = find(k);
    if (it == end()) throw std::out_of_range("FlatMap::at");
    return it->second;
  }
  const V& at(const K& k) const {
    auto it = find(k);
    if (it == end()) throw std::out_of_range("FlatMap::at");
    return it->second;
  }
  // As std::map's: a new entry is value-initialized.
  V& operator[](const K& k) { return try_emplace(k).first->second; }
  template <class... A>
  std::pair<iterator, bool> try_emplace(const K& k, A&&... a) {
    auto it = lower(k);
    if (it != v_.end() && !(k < it->first)) return {it, false};
    if (v_.capacity() == 0) {  // (one block for the usual few entries, not 1, 2, 4, 8 in turn)
      v_.reserve(8);
      it = v_.begin();
    }
    return {v_.emplace(it, std::piecewise_construct, std::forward_as_tuple(k), std::forward_as_tuple(std::forward<A>(a)...)), true};
  }
  std::pair<iterator, bool> insert(const value_type& e) { return try_emplace(e.first, e.second); }
  template <class It>
  void insert(It first, It last) {  // (as std::map's: a key already there keeps its value)
    for (; first != last; ++first) try_emplace(first->first, first->second);
  }
  template <class KK, class VV>
  std::pair<iterator, bool> emplace(KK&& k, VV&& val) { return try_emplace(K(std::forward<KK>(k)), std::forward<VV>(val)); }
  size_t erase(const K& k) {
    auto it = find(k);
    if (it == end()) return 0;
    v_.erase(it);
    return 1;
  }
  iterator erase(const_iterator it) { return v_.erase(it); }

 private:
  iterator lower(const K& k) {
    return std::lower_bound(v_.begin(), v_.end(), k, [](const value_type& e, const K& key) { return e.first < key; });
  }
  const_iterator lower(const K& k) const {
    return std::lower_bound(v_.begin(), v_.end(), k, [](const value_type& e, const K& key) { return e.first < key; });
  }
  ScratchVec<value_type> v_;  // (in a compile's scratch block: scratch.h)
};

}  // namespace kiln::jit
