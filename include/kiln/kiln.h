/* Kiln's C API: embed the VM in a host application (plain C99).
 *
 *   kiln_config cfg;
 *   kiln_config_init(&cfg);
 *   kiln_vm* vm;
 *   if (kiln_vm_create(&cfg, &vm) != KILN_OK) { puts(kiln_last_error()); return 1; }
 *   kiln_module* m;
 *   kiln_load_string(vm, "sim.py", source, &m);
 *   kiln_kernel* step;
 *   kiln_module_kernel(m, "step", &step);
 *   kiln_value args[1] = {kiln_f32(0.01f)};
 *   kiln_kernel_call(step, args, 1, NULL, 0, NULL);
 *   kiln_kernel_destroy(step); kiln_module_destroy(m); kiln_vm_destroy(vm);
 *
 * Conventions (every function follows them):
 * - Every function except kiln_version / kiln_last_error / kiln_config_init /
 *   kiln_last_diagnostic returns a kiln_status. KILN_OK is 0. On failure,
 *   kiln_last_error() gives the message, as `kiln run` would print it (kind,
 *   file:line:col, the source line and a caret), and the VM's diagnostic
 *   callback (if any) has been called once with the parts. Outputs are left
 *   untouched on failure.
 * - Nothing aborts the host process on bad input: null handles, wrong dtypes,
 *   unknown names and failing kernels are errors, never crashes.
 * - Ownership: a function named *_create, kiln_load_* or kiln_module_kernel /
 *   kiln_module_field hands the caller a handle that the caller destroys with
 *   the matching *_destroy. Every other pointer argument is borrowed for the
 *   duration of the call only, unless its comment says otherwise. Strings
 *   returned by Kiln are owned by Kiln (see each function for how long they stay
 *   valid).
 * - A VM is used by one thread at a time; several VMs may live in one process
 *   and run on different threads at once. Modules, kernels and fields keep
 *   their VM's state alive, but must not be used after kiln_vm_destroy.
 */
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_VERSION_MAJOR 0
#define KILN_VERSION_MINOR 1
#define KILN_VERSION_PATCH 0

typedef enum kiln_status {
  KILN_OK = 0,
  KILN_ERROR_INVALID_ARGUMENT = 1, /* a null handle or pointer, a bad count */
  KILN_ERROR_SYNTAX = 2,           /* SyntaxError in loaded source */
  KILN_ERROR_NAME = 3,             /* NameError, AttributeError, an unknown kernel or field */
  KILN_ERROR_TYPE = 4,             /* TypeError, a wrong dtype */
  KILN_ERROR_VALUE = 5,            /* ValueError, a wrong shape or layout */
  KILN_ERROR_INDEX = 6,            /* IndexError: an index out of a field's or array's bounds */
  KILN_ERROR_ASSERTION = 7,        /* AssertionError: a failed assert (kernels: debug mode) */
  KILN_ERROR_IO = 8,               /* a file could not be read */
  KILN_ERROR_RUNTIME = 9,          /* any other exception the program raised (kind in the message) */
  KILN_ERROR_EXIT = 10,            /* the program called sys.exit() */
  KILN_ERROR_OUT_OF_MEMORY = 11,
  KILN_ERROR_INTERNAL = 12         /* a bug in Kiln */
} kiln_status;

/* Element and scalar types (Taichi's primitive types). */
typedef enum kiln_dtype {
  KILN_DTYPE_NONE = 0, /* no value */
  KILN_I8, KILN_I16, KILN_I32, KILN_I64,
  KILN_U8, KILN_U16, KILN_U32, KILN_U64,
  KILN_F16, KILN_BF16, KILN_F32, KILN_F64,
  KILN_NDARRAY /* only in kiln_value: an array argument (kiln_value.v.nd) */
} kiln_dtype;

/* An array in host memory passed to a kernel's ti.types.ndarray() parameter
 * without a copy: the kernel reads and writes `data` directly. The array must
 * be C-contiguous (strides NULL, or equal to row-major strides). For a vector
 * or matrix ndarray annotation, the last one or two axes are the element, as
 * for numpy arrays. Borrowed: `data`, `shape` and `strides` must stay valid
 * for the duration of the kiln_kernel_call. */
typedef struct kiln_ndarray {
  void* data;
  kiln_dtype dtype;      /* a scalar dtype other than KILN_BF16 */
  int ndim;              /* 1..8 */
  const int64_t* shape;  /* ndim extents, each > 0 */
  const int64_t* strides; /* ndim byte strides, or NULL for C order */
} kiln_ndarray;

/* A typed value: a kernel argument or return, a field element. Integers are
 * in `i` (signed) or `u` (unsigned), floats (f16, bf16, f32, f64) in `f`. */
typedef struct kiln_value {
  kiln_dtype dtype;
  union {
    int64_t i;
    uint64_t u;
    double f;
    const kiln_ndarray* nd; /* borrowed, KILN_NDARRAY only */
  } v;
} kiln_value;

static inline kiln_value kiln_i32(int32_t x) { kiln_value r; r.dtype = KILN_I32; r.v.i = x; return r; }
static inline kiln_value kiln_i64(int64_t x) { kiln_value r; r.dtype = KILN_I64; r.v.i = x; return r; }
static inline kiln_value kiln_u32(uint32_t x) { kiln_value r; r.dtype = KILN_U32; r.v.u = x; return r; }
static inline kiln_value kiln_u64(uint64_t x) { kiln_value r; r.dtype = KILN_U64; r.v.u = x; return r; }
static inline kiln_value kiln_f32(float x) { kiln_value r; r.dtype = KILN_F32; r.v.f = x; return r; }
static inline kiln_value kiln_f64(double x) { kiln_value r; r.dtype = KILN_F64; r.v.f = x; return r; }
static inline kiln_value kiln_nd(const kiln_ndarray* a) { kiln_value r; r.dtype = KILN_NDARRAY; r.v.nd = a; return r; }

/* What the diagnostic callback and kiln_last_diagnostic report. All strings
 * are owned by Kiln and valid until the next Kiln call on this thread. */
typedef struct kiln_diagnostic {
  kiln_status status;
  const char* kind;      /* Python's exception name: "TypeError", "IndexError", ... */
  const char* file;      /* "" when unknown */
  int line, column;      /* 1-based; 0 when unknown */
  const char* message;   /* without kind and location */
  const char* formatted; /* as kiln_last_error() gives it */
} kiln_diagnostic;

typedef struct kiln_config {
  const char* engine; /* "interp" (default when NULL) or "jit"; copied by kiln_vm_create */
  int threads;        /* worker threads for parallel loops; 0 = one per core */
  int debug;          /* nonzero: as if every ti.init passed debug=True (asserts, bounds checks) */
  /* Host and kernel print output, in program order. NULL: stdout. `text` is
   * borrowed for the call and not NUL-terminated. */
  void (*output)(void* user_data, const char* text, size_t len);
  /* Warnings and sys.stderr. NULL: stderr. */
  void (*error_output)(void* user_data, const char* text, size_t len);
  /* Called once for every failing call of this VM, before it returns. NULL: none. */
  void (*diagnostic)(void* user_data, const kiln_diagnostic* d);
  void* user_data; /* passed to the callbacks, never dereferenced by Kiln */
} kiln_config;

typedef struct kiln_vm kiln_vm;
typedef struct kiln_module kiln_module;
typedef struct kiln_kernel kiln_kernel;
typedef struct kiln_field kiln_field;

/* "0.1.0". Static storage. */
const char* kiln_version(void);
/* The message of the last failing call on this thread ("" if none). Owned by
 * Kiln, valid until the next failing call on this thread. */
const char* kiln_last_error(void);
/* The parts of the last failure on this thread (status KILN_OK if none).
 * Owned by Kiln, valid until the next failing call on this thread. */
const kiln_diagnostic* kiln_last_diagnostic(void);

/* Fills *cfg with the defaults (interp engine, all cores, no debug, stdout/stderr). */
void kiln_config_init(kiln_config* cfg);

/* Creates a VM. `cfg` may be NULL (defaults); it is copied. On success *out
 * is a new VM owned by the caller (kiln_vm_destroy). */
kiln_status kiln_vm_create(const kiln_config* cfg, kiln_vm** out);
/* Destroys a VM with its fields and compiled kernels. NULL is ignored.
 * Handles obtained from the VM must be destroyed before or may only be
 * destroyed (never used) after. */
void kiln_vm_destroy(kiln_vm* vm);

/* Runs `source` (Taichi-dialect Python) as a module named `name` (used in
 * messages; NULL = "<string>"): its top level runs now, declaring fields and
 * kernels. `source` is copied. All modules of one VM share one global
 * namespace (like inputs of one REPL session): a later module sees and may
 * redefine an earlier one's names. On success *out is a new module handle
 * owned by the caller (kiln_module_destroy). */
kiln_status kiln_load_string(kiln_vm* vm, const char* name, const char* source, kiln_module** out);
/* As kiln_load_string with the contents of the file at `path` (KILN_ERROR_IO
 * if it cannot be read). */
kiln_status kiln_load_file(kiln_vm* vm, const char* path, kiln_module** out);
/* Releases the handle (the module's definitions stay in the VM). NULL is ignored. */
void kiln_module_destroy(kiln_module* m);

/* Looks up the @ti.kernel bound to global `name`. On success *out is a new
 * handle owned by the caller (kiln_kernel_destroy); it keeps the kernel it
 * found even if the name is later rebound. */
kiln_status kiln_module_kernel(kiln_module* m, const char* name, kiln_kernel** out);
void kiln_kernel_destroy(kiln_kernel* k);
/* Number of parameters of the kernel (templates included). */
kiln_status kiln_kernel_num_params(const kiln_kernel* k, size_t* out);

/* Calls the kernel with `nargs` arguments (borrowed). Each scalar argument's
 * dtype must equal its parameter's annotation exactly (no implicit casts);
 * KILN_NDARRAY arguments go to ti.types.ndarray() parameters. The kernel's
 * return values, flattened (a vector gives its components, a tuple its
 * members in order), are written to rets[0 .. max_rets) and their count to
 * *nrets (when nrets is not NULL). rets may be NULL when max_rets is 0. If
 * the kernel returns more values than max_rets, it still ran, the first
 * max_rets are written, and the call fails with KILN_ERROR_VALUE. */
kiln_status kiln_kernel_call(kiln_kernel* k, const kiln_value* args, size_t nargs, kiln_value* rets, size_t max_rets,
                             size_t* nrets);

/* Looks up the field (ti.field, ti.Vector.field, ti.Matrix.field) bound to
 * global `name`. On success *out is a new handle owned by the caller
 * (kiln_field_destroy). */
kiln_status kiln_module_field(kiln_module* m, const char* name, kiln_field** out);
void kiln_field_destroy(kiln_field* f);

/* The field's shape. dtype: its element dtype; ndim: number of field axes
 * (at most 8); shape: written for ndim axes (caller's array of 8);
 * n, m: element components (scalar 1 x 1, vector n x 1, matrix n x m). Any
 * output pointer may be NULL. */
kiln_status kiln_field_info(const kiln_field* f, kiln_dtype* dtype, int* ndim, int64_t* shape, int* n, int* m);

/* One component of one element. `index` has ndim field indices, then the
 * component's row (vector and matrix fields) and column (matrix fields).
 * get writes the element with the field's dtype; set requires value->dtype
 * to equal the field's dtype. Out-of-range indices: KILN_ERROR_INDEX. */
kiln_status kiln_field_get(kiln_field* f, const int64_t* index, int nindex, kiln_value* out);
kiln_status kiln_field_set(kiln_field* f, const int64_t* index, int nindex, const kiln_value* value);

/* Bulk copies between the whole field and a host buffer in C order of
 * shape + element shape (as to_numpy / from_numpy give it). `dtype` must be
 * the field's dtype (KILN_F32 for bf16 fields is not supported: KILN_ERROR_TYPE)
 * and `bytes` the exact size. The buffer is borrowed for the call. */
kiln_status kiln_field_copy_to_host(kiln_field* f, void* buffer, size_t bytes, kiln_dtype dtype);
kiln_status kiln_field_copy_from_host(kiln_field* f, const void* buffer, size_t bytes, kiln_dtype dtype);

/* The name of a dtype ("f32") or status ("KILN_ERROR_TYPE"). Static storage. */
const char* kiln_dtype_name(kiln_dtype t);
const char* kiln_status_name(kiln_status s);

#ifdef __cplusplus
}
#endif

#endif /* KILN_KILN_H */
