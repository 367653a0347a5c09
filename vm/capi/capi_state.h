// What the C API's opaque handles are, and the one place errors cross the C
// boundary (guard): every exception becomes a status code, kiln_last_error's
// text and one call of the VM's diagnostic callback.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kiln/kiln.h"
#include "vm/host/host.h"
#include "vm/host/value.h"
#include "vm/runtime/program.h"
#include "vm/types/value.h"

struct kiln_vm {
  std::unique_ptr<kiln::Host> host;
  kiln_config cfg;
  std::string engine;
};

struct kiln_module {
  kiln_vm* vm = nullptr;
  std::string name;
};

struct kiln_kernel {
  kiln_vm* vm = nullptr;
  kiln::host::Value kernel;  // the KernelObj (kept alive by this handle)
  std::string name;
  // What each parameter's annotation asks for, worked out once per compile
  // cache epoch (`int` / `float` annotations follow ti.init's defaults), so
  // that a call checks dtypes without looking at annotation objects.
  enum class Param : uint8_t { scalar, ndarray, vector, structure, templ, untyped };
  std::vector<Param> params;
  std::vector<kiln::Prim> prims;
  uint64_t epoch = ~0ull;
};

struct kiln_field {
  kiln_vm* vm = nullptr;
  kiln::host::Value field;  // FieldObj or MatrixFieldObj
  std::string name;
};

namespace kiln::host {
struct NpArrayObj;
}

struct kiln_ndarray {
  kiln_vm* vm = nullptr;
  kiln::host::Value array;              // the NpArrayObj kernels receive
  kiln::host::NpArrayObj* obj = nullptr;  // array's object
  kiln_array desc{};                    // points into obj (kiln_ndarray_info)
};

namespace kiln::capi {

// Raised for misuse of the API itself (a null handle): KILN_ERROR_INVALID_ARGUMENT.
[[noreturn]] void invalid(const std::string& message);
// The common null checks.
void need(const void* p, const char* what);

// The global `name` of m's VM (after the usual null checks of m, name and
// out); NameError naming `what` ("kernel", "field") when it is not defined.
const host::Value& module_global(kiln_module* m, const char* name, const void* out, const char* what);

// Records a failure (thread-local) and reports it to vm's diagnostic callback.
kiln_status fail(kiln_vm* vm, const Error& e);
kiln_status fail_status(kiln_vm* vm, const char* kind, const std::string& message);

// Runs fn, turning every exception into a status.
template <class F> kiln_status guard(kiln_vm* vm, F&& fn) noexcept {
  try {
    fn();
    return KILN_OK;
  } catch (const SystemExit& e) {
    return fail_status(vm, "SystemExit", "the program called sys.exit(" + std::to_string(e.code) + ")");
  } catch (const Error& e) {
    return fail(vm, e);
  } catch (const std::bad_alloc&) {
    return fail_status(vm, "MemoryError", "out of memory");
  } catch (const std::exception& e) {
    return fail_status(vm, "InternalError", std::string(e.what()) + " (this is a bug in Kiln; please report it)");
  } catch (...) {
    return fail_status(vm, "InternalError", "unknown exception (this is a bug in Kiln; please report it)");
  }
}

Prim prim_of(kiln_dtype t);   // Prim::none for NONE / NDARRAY / out of range
kiln_dtype dtype_of(Prim p);
// Host memory as a numpy array object over it (no copy), after checking
// dtype, shape and C-contiguity; what() starts every message (called only
// on failure: kernels calls are hot).
host::Value wrap_array(const kiln_array* a, const std::function<std::string()>& what);

// A ConstVal as a kiln_value of the same type.
kiln_value to_value(const ConstVal& c);
// A scalar kiln_value as a ConstVal of its own type (InvalidArgument for non-scalars).
ConstVal from_value(const kiln_value& v, const char* what);

}  // namespace kiln::capi
