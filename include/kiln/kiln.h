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
  KILN_NDARRAY, /* only in kiln_value: an ndarray handle argument (kiln_value.v.nd) */
  KILN_ARRAY,   /* only in kiln_value: a borrowed host-memory array argument (kiln_value.v.array) */
  KILN_VECTOR,  /* only in kiln_value: a vector or matrix argument (kiln_value.v.vec) */
  KILN_FIELD    /* only in kiln_value: a field for a ti.template() parameter (kiln_value.v.field) */
} kiln_dtype;

/* A view of host memory as an array: pointer, dtype, shape, strides. The
 * array must be C-contiguous (strides NULL, or equal to row-major strides;
 * the stride of an axis of extent 1 is not looked at). For a vector or matrix
 * ndarray annotation, the last one or two axes are the element, as for numpy
 * arrays. Passed to a kernel directly (kiln_arr: checked on every call) or
 * wrapped once in a kiln_ndarray handle (kiln_ndarray_create). */
typedef struct kiln_array {
  void* data;
  kiln_dtype dtype;      /* a scalar dtype other than KILN_BF16 */
  int ndim;              /* 1..8 */
  const int64_t* shape;  /* ndim extents, each > 0 */
  const int64_t* strides; /* ndim byte strides, or NULL for C order */
} kiln_array;

/* An ndarray handle: host memory wrapped without a copy, memory the VM
 * allocated, or a DLPack tensor imported without a copy. Created by
 * kiln_ndarray_create / kiln_ndarray_alloc / kiln_ndarray_from_dlpack,
 * destroyed by kiln_ndarray_destroy. */
typedef struct kiln_ndarray kiln_ndarray;
/* DLPack's tensor (dlpack/dlpack.h); include that header to use the DLPack functions. */
struct DLManagedTensor;

/* A vector or matrix kernel argument (a ti.types.vector / ti.types.matrix /
 * ti.math.vec3 ... parameter): `data` holds n (vector, m == 0) or n * m
 * (matrix, row-major) components of `dtype`, which must be the parameter's
 * dtype; n and m must be its shape. Borrowed for the call. */
typedef struct kiln_vector {
  kiln_dtype dtype;
  int n, m;
  const void* data;
} kiln_vector;

/* A typed value: a kernel argument or return, a field element. Integers are
 * in `i` (signed) or `u` (unsigned), floats (f16, bf16, f32, f64) in `f`. */
typedef struct kiln_value {
  kiln_dtype dtype;
  union {
    int64_t i;
    uint64_t u;
    double f;
    kiln_ndarray* nd;         /* borrowed, KILN_NDARRAY only */
    const kiln_array* array;  /* borrowed, KILN_ARRAY only */
    const kiln_vector* vec; /* borrowed, KILN_VECTOR only */
    struct kiln_field* field; /* borrowed, KILN_FIELD only */
  } v;
} kiln_value;

static inline kiln_value kiln_i32(int32_t x) { kiln_value r; r.dtype = KILN_I32; r.v.i = x; return r; }
static inline kiln_value kiln_i64(int64_t x) { kiln_value r; r.dtype = KILN_I64; r.v.i = x; return r; }
static inline kiln_value kiln_u32(uint32_t x) { kiln_value r; r.dtype = KILN_U32; r.v.u = x; return r; }
static inline kiln_value kiln_u64(uint64_t x) { kiln_value r; r.dtype = KILN_U64; r.v.u = x; return r; }
static inline kiln_value kiln_f32(float x) { kiln_value r; r.dtype = KILN_F32; r.v.f = x; return r; }
static inline kiln_value kiln_f64(double x) { kiln_value r; r.dtype = KILN_F64; r.v.f = x; return r; }
static inline kiln_value kiln_nd(kiln_ndarray* a) { kiln_value r; r.dtype = KILN_NDARRAY; r.v.nd = a; return r; }
static inline kiln_value kiln_vec(const kiln_vector* a) { kiln_value r; r.dtype = KILN_VECTOR; r.v.vec = a; return r; }
static inline kiln_value kiln_fld(struct kiln_field* f) { kiln_value r; r.dtype = KILN_FIELD; r.v.field = f; return r; }
static inline kiln_value kiln_arr(const kiln_array* a) { kiln_value r; r.dtype = KILN_ARRAY; r.v.array = a; return r; }

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
  const char* engine; /* "jit" (default when NULL) or "interp"; copied by kiln_vm_create */
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
  /* Host allocator for the VM's large memory: field storage (one block per
   * SNode tree) and kiln_ndarray_alloc arrays. Set both or neither (NULL:
   * Kiln's own allocator). `alloc` returns `size` bytes aligned to `alignment`
   * (a power of two, at least 64), or NULL for out of memory (the call then
   * fails with KILN_ERROR_OUT_OF_MEMORY); Kiln zeroes the memory itself.
   * `dealloc` receives every pointer alloc returned, once, with the same
   * size. Arrays exported to DLPack may be freed after kiln_vm_destroy, when
   * their consumer calls the deleter: the callbacks must stay callable until
   * then. */
  void* (*alloc)(void* allocator_data, size_t size, size_t alignment);
  void (*dealloc)(void* allocator_data, void* ptr, size_t size);
  void* allocator_data; /* passed to alloc / dealloc */
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

/* Fills *cfg with the defaults (jit engine, all cores, no debug, stdout/stderr). */
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
 * KILN_NDARRAY / KILN_ARRAY arguments go to ti.types.ndarray() parameters,
 * KILN_VECTOR ones to vector and matrix parameters. A ti.template()
 * parameter takes a field (KILN_FIELD) or a scalar, which is then a
 * compile-time constant: each distinct field or value compiles its own
 * instance of the kernel, as in Taichi. The kernel's
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

/* ---- ndarrays ---------------------------------------------------------- */

/* Wraps host memory described by `desc` (checked: dtype, ndim, positive
 * extents, C-contiguity) in a new handle owned by the caller
 * (kiln_ndarray_destroy). No copy: kernels read and write desc->data, which
 * the caller keeps valid until the handle (and every DLPack tensor exported
 * from it) is destroyed. desc->shape and desc->strides are copied. */
kiln_status kiln_ndarray_create(kiln_vm* vm, const kiln_array* desc, kiln_ndarray** out);
/* A new zero-filled C-contiguous array of `ndim` axes of extents `shape`
 * (copied) allocated by the VM (the config's allocator hook when set). The
 * memory lives until the handle and every DLPack tensor exported from it are
 * destroyed. */
kiln_status kiln_ndarray_alloc(kiln_vm* vm, kiln_dtype dtype, int ndim, const int64_t* shape, kiln_ndarray** out);
/* Releases the handle. Memory the VM allocated or imported is freed when no
 * exported DLPack tensor still refers to it. NULL is ignored. */
void kiln_ndarray_destroy(kiln_ndarray* a);
/* Describes the array: data pointer, dtype, ndim, and shape and (byte)
 * strides pointers owned by the handle and valid until it is destroyed. */
kiln_status kiln_ndarray_info(const kiln_ndarray* a, kiln_array* out);

/* Imports a DLPack tensor without a copy. Accepted: device kDLCPU, dtype
 * lanes 1 of int8..64, uint8..64, float16/32/64 (not bfloat16), ndim 1..8,
 * positive extents, C-contiguous strides (or NULL). On success Kiln owns
 * `tensor`: it calls tensor->deleter once, when the handle and every tensor
 * exported from it are gone; the caller must not use or delete it any more.
 * On failure the caller still owns `tensor` (Kiln never calls its deleter). */
kiln_status kiln_ndarray_from_dlpack(kiln_vm* vm, struct DLManagedTensor* tensor, kiln_ndarray** out);
/* Exports the array as a new DLPack tensor sharing its memory (no copy), on
 * device kDLCPU with NULL strides (C order). The consumer owns *out and must
 * call (*out)->deleter(*out) exactly once; the memory stays valid until then,
 * even after kiln_ndarray_destroy and kiln_vm_destroy (for memory wrapped by
 * kiln_ndarray_create, the caller's memory must stay valid as long). */
kiln_status kiln_ndarray_to_dlpack(kiln_ndarray* a, struct DLManagedTensor** out);

/* ---- capabilities -------------------------------------------------------- */

#define KILN_MAX_ENGINES 4
/* What this build and machine can do, found at run time. */
typedef struct kiln_capabilities {
  int num_engines;                         /* engines that run kernels here */
  const char* engines[KILN_MAX_ENGINES];   /* their names for kiln_config.engine ("interp", "jit") */
  /* For each engine, the dtypes its kernels compute with: bit (1u << KILN_I8) ... (1u << KILN_F64). */
  uint32_t engine_dtypes[KILN_MAX_ENGINES];
  /* Vulkan physical devices the system's loader enumerates (0 when there is
   * no loader or no device); how many of them are CPU implementations (such
   * as Mesa's lavapipe), and the first device's name ("" if none). Kiln does
   * not run kernels on them yet: they are reported, not used. */
  int vulkan_devices, vulkan_cpu_devices;
  char vulkan_device_name[256];
  /* CUDA devices the driver (libcuda.so.1) reports; 0 without a driver. Not used by Kiln yet. */
  int cuda_devices;
} kiln_capabilities;

/* Fills *out. Probes the Vulkan loader and the CUDA driver once per process
 * (later calls reuse the result). */
kiln_status kiln_query_capabilities(kiln_capabilities* out);

/* The name of a dtype ("f32") or status ("KILN_ERROR_TYPE"). Static storage. */
const char* kiln_dtype_name(kiln_dtype t);
const char* kiln_status_name(kiln_status s);

#ifdef __cplusplus
}
#endif

#endif /* KILN_KILN_H */
