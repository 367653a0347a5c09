// staticmethod / classmethod / property, and slice arithmetic shared by the
// indexing code and the builtin methods.
#pragma once
#include "vm/host/objects.h"

namespace kiln::host {

class Evaluator;

struct DescriptorObj : HostObj {
  enum Which { Static, ClassMethod, Property } which;
  Value func;    // the wrapped function (property: the getter)
  Value setter;  // property only
  DescriptorObj(Which w, Value f) : which(w), func(std::move(f)) { gc_container = true; }
  void gc_traverse(GcVisitor& v) const override {
    v.visit(func);
    v.visit(setter);
  }
  void gc_clear() override {
    func = Value();
    setter = Value();
  }
  std::string type_name() const override;
  std::string repr(Evaluator& ev) const override;
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

// Python's slice.indices(len): clamped start/stop and the step (ValueError for 0).
void slice_indices(Evaluator& ev, const SliceObj& s, int64_t len, int64_t& start, int64_t& stop, int64_t& step,
                   SourceLoc loc);
int64_t slice_length(int64_t start, int64_t stop, int64_t step);

}  // namespace kiln::host
