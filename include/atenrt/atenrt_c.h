/* atenrt's C API: compile a torch.export .pt2 archive or load an engine file,
   and run it on tensors in the caller's memory -- from C, and from Rust, Go,
   C# ... through their C FFI. The C++ API (atenrt/atenrt.h) stays the primary
   one; this is a thin layer over it with the same error semantics: every call
   that can fail returns an atenrt_status, and atenrt_last_error() gives the
   message the C++ API would have thrown (file and entry, or node, op and
   argument). No call aborts or prints on bad input.

     atenrt_engine* engine = NULL;
     if (atenrt_engine_load("model.atrt", NULL, &engine) != ATENRT_OK) {
       fprintf(stderr, "%s\n", atenrt_last_error());
       return 1;
     }
     atenrt_context* ctx = NULL;
     atenrt_context_create(engine, &ctx);
     int64_t in_dims[2] = {1, 8}, out_dims[2] = {1, 4};
     float x[8] = {0}, y[4];
     atenrt_tensor in = {x, ATENRT_FLOAT32, 2, in_dims};
     atenrt_tensor out = {y, ATENRT_FLOAT32, 2, out_dims};
     atenrt_context_run(ctx, &in, 1, &out, 1);
     atenrt_context_destroy(ctx);
     atenrt_engine_destroy(engine);

   Threads: an engine may be shared across threads; a context is used by one
   thread at a time; the last error is per thread. */
#ifndef ATENRT_C_H
#define ATENRT_C_H

#include <stddef.h>
#include <stdint.h>

#include "atenrt/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call did. The error kinds are the C++ API's exception types. */
typedef enum atenrt_status {
  ATENRT_OK = 0,
  ATENRT_ERROR_FORMAT = 1,           /* atenrt::FormatError: a bad .pt2 or engine file */
  ATENRT_ERROR_UNSUPPORTED = 2,      /* atenrt::UnsupportedError: valid but not supported */
  ATENRT_ERROR_INPUT = 3,            /* atenrt::InputError: wrong tensors given to a run */
  ATENRT_ERROR_SETTINGS = 4,         /* atenrt::SettingsError: a setting out of range or unknown */
  ATENRT_ERROR_INVALID_ARGUMENT = 5, /* a NULL handle or pointer, an index out of range */
  ATENRT_ERROR_OUT_OF_MEMORY = 6,
  ATENRT_ERROR_INTERNAL = 7          /* any other failure (a bug: please report it) */
} atenrt_status;

/* Element types, in atenrt::DType's order. */
typedef enum atenrt_dtype {
  ATENRT_FLOAT32 = 0,
  ATENRT_FLOAT16 = 1,
  ATENRT_BFLOAT16 = 2,
  ATENRT_FLOAT64 = 3,
  ATENRT_INT64 = 4,
  ATENRT_INT32 = 5,
  ATENRT_INT16 = 6,
  ATENRT_INT8 = 7,
  ATENRT_UINT8 = 8,
  ATENRT_BOOL = 9
} atenrt_dtype;

/* A view of a dense, row-major tensor in the caller's memory. atenrt never
   frees `data` or `dims` and keeps no pointer to them after a call returns. */
typedef struct atenrt_tensor {
  void* data;
  atenrt_dtype dtype;
  int32_t ndim;
  const int64_t* dims; /* ndim sizes */
} atenrt_tensor;

typedef struct atenrt_settings atenrt_settings; /* compile and load settings */
typedef struct atenrt_engine atenrt_engine;     /* an immutable compiled engine */
typedef struct atenrt_context atenrt_context;   /* runs an engine; one per thread */

/* The version of the loaded library ("0.1.0"); static storage. */
ATENRT_API const char* atenrt_version(void);
/* "ATENRT_OK", "ATENRT_ERROR_FORMAT", ...; "unknown status" for other values. */
ATENRT_API const char* atenrt_status_name(atenrt_status status);
/* The message of this thread's last failed call ("" when none failed yet);
   valid until this thread's next failing call. */
ATENRT_API const char* atenrt_last_error(void);
/* The size in bytes of one element; 0 for a value that is no atenrt_dtype. */
ATENRT_API size_t atenrt_dtype_size(atenrt_dtype dtype);

/* Settings, by the names of the settings table (atenrt --help, docs/python.md):
   "precision" = "bf16", "min_block_size" = "3", "lowering" = "false",
   "torch_executed_ops" = "aten.relu.default,aten.gelu.default". An unknown
   name suggests the nearest one. */
ATENRT_API atenrt_status atenrt_settings_create(atenrt_settings** out);
ATENRT_API void atenrt_settings_destroy(atenrt_settings* settings); /* NULL is fine */
ATENRT_API atenrt_status atenrt_settings_set(atenrt_settings* settings, const char* name, const char* value);

/* Compiles a .pt2 archive (settings may be NULL: the defaults). */
ATENRT_API atenrt_status atenrt_compile(const char* pt2_path, const atenrt_settings* settings,
                                        atenrt_engine** out);
/* Loads an engine file; only load-time settings (num_threads) may differ from
   their defaults (settings may be NULL). */
ATENRT_API atenrt_status atenrt_engine_load(const char* path, const atenrt_settings* settings,
                                            atenrt_engine** out);
ATENRT_API atenrt_status atenrt_engine_save(const atenrt_engine* engine, const char* path);
ATENRT_API void atenrt_engine_destroy(atenrt_engine* engine); /* NULL is fine */

/* The engine's inputs and outputs: count, then each one's name, dtype and
   dims (pointers into the engine, valid while it lives; any of name, dtype,
   ndim, dims may be NULL when not wanted). */
ATENRT_API size_t atenrt_engine_num_inputs(const atenrt_engine* engine);
ATENRT_API size_t atenrt_engine_num_outputs(const atenrt_engine* engine);
ATENRT_API atenrt_status atenrt_engine_input(const atenrt_engine* engine, size_t index, const char** name,
                                             atenrt_dtype* dtype, int32_t* ndim, const int64_t** dims);
ATENRT_API atenrt_status atenrt_engine_output(const atenrt_engine* engine, size_t index, const char** name,
                                              atenrt_dtype* dtype, int32_t* ndim, const int64_t** dims);

ATENRT_API atenrt_status atenrt_context_create(const atenrt_engine* engine, atenrt_context** out);
ATENRT_API void atenrt_context_destroy(atenrt_context* context); /* NULL is fine */
/* Runs the engine on `inputs` (in the engine's order, read in place, not
   copied) and writes its outputs into `outputs` (the caller's buffers, whose
   dtype and dims must be the engine's). A wrong count, dtype or shape is
   ATENRT_ERROR_INPUT naming the tensor and what the engine expects.
   `outputs` may be NULL with num_outputs 0: then read them with
   atenrt_context_output. */
ATENRT_API atenrt_status atenrt_context_run(atenrt_context* context, const atenrt_tensor* inputs, size_t num_inputs,
                                            const atenrt_tensor* outputs, size_t num_outputs);
/* A read-only view of output `index` of the last run, owned by the context:
   valid until its next run or its destruction. */
ATENRT_API atenrt_status atenrt_context_output(const atenrt_context* context, size_t index, atenrt_tensor* out);

/* Logging: what the library has to say (compile summaries, notes on loaded
   engine files, warnings) goes to one callback per process instead of to
   stderr. The default sends warnings and errors to stderr; a NULL callback
   silences the library. `message` is valid during the call only. The
   callback may be called from any thread that calls into atenrt. */
typedef enum atenrt_log_level {
  ATENRT_LOG_DEBUG = 0,
  ATENRT_LOG_INFO = 1,
  ATENRT_LOG_WARNING = 2,
  ATENRT_LOG_ERROR = 3
} atenrt_log_level;
typedef void (*atenrt_log_callback)(atenrt_log_level level, const char* message, void* user_data);
/* Messages below min_level are not made at all. */
ATENRT_API void atenrt_set_log_callback(atenrt_log_callback callback, void* user_data, atenrt_log_level min_level);

/* Plugins (docs/plugins.md): loads a shared library written in C++ against
   atenrt/extension.h, whose converters then take part in every later compile
   of the process and whose kernels run plugin layers (engines with them load
   only where the plugin is loaded); a file loaded already is not loaded again.
   Load plugins before compiling or loading. ATENRT_ERROR_FORMAT naming the file when it is
   missing, not a plugin, built for another extension ABI version or registers
   a bad converter; ATENRT_ERROR_SETTINGS when one that ATENRT_PLUGINS names is. */
ATENRT_API atenrt_status atenrt_load_plugin(const char* path);

#ifdef __cplusplus
}
#endif

#endif /* ATENRT_C_H */
