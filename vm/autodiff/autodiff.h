// Automatic differentiation as IR transformations (issue 18), run by the ti
// layer on a kernel after scalarize, before the rest of the pipeline:
//
//   make_adjoint  reverse mode: the kernel becomes its adjoint (kernel.grad()).
//                 Gradients flow from companions of what the kernel wrote
//                 (y.grad) to companions of what it read (x.grad += ...).
//   make_dual     forward mode: the kernel computes, beside each value, its
//                 derivative along the seeded direction (x.dual -> y.dual).
//
// Both read a field's companion (its grad or dual field, or an ndarray's
// companion argument) through `CompanionFn`; a field without one is a
// constant to autodiff. reverse.cpp opens with the design.
#pragma once
#include <functional>
#include <optional>

#include "vm/ir/ir.h"

namespace kiln::autodiff {

// The Access of the companion of what `a` accesses, or nullopt when it has
// none (an integer field, needs_grad not set, ti.stop_grad(x)).
using CompanionFn = std::function<std::optional<ir::Access>(const ir::Access&)>;

// `stack_size`: capacity of a tape whose loop trip counts are not known at
// compile time (Taichi's ad_stack_size; 0 picks Taichi's default, 32).
// Throws kiln::Error (NotImplementedError/TypeError) naming the statement
// that cannot be differentiated.
void make_adjoint(ir::Kernel& k, const CompanionFn& grad, int stack_size);
void make_dual(ir::Kernel& k, const CompanionFn& dual);
// Taichi's global data access rule, checked at run time (validation.cpp):
// reading an element sets its checkbit (`checkbit` gives the u8 companion);
// writing an element whose checkbit is set is an AssertionError naming the
// kernel and the field, at the write.
void add_access_checks(ir::Kernel& k, const CompanionFn& checkbit);

// exits.cpp: loops whose bodies break or continue are rewritten so that the
// only exit is one `if brk: break` at the end of the body, every statement
// after a possible exit guarded by a flag (same semantics). make_adjoint runs
// it first: the adjoint of a body is then structured code.
void structure_exits(ir::Kernel& k);

}  // namespace kiln::autodiff
