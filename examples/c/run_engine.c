/* Loads an engine file (or compiles a .pt2 archive), runs it once on inputs
   filled with ones and prints every output: the C API from a C program.
     run_engine_c model.atrt */
#include <atenrt/atenrt_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t numel(int32_t ndim, const int64_t* dims) {
  int64_t n = 1;
  for (int32_t i = 0; i < ndim; ++i) n *= dims[i];
  return n;
}

static const char* level_names[] = {"debug", "info", "warning", "error"};

static void log_to_stderr(atenrt_log_level level, const char* message, void* user_data) {
  (void)user_data;
  fprintf(stderr, "[atenrt %s] %s\n", level_names[level], message);
}

static int fail(const char* what, atenrt_status status) {
  fprintf(stderr, "error: %s: %s: %s\n", what, atenrt_status_name(status), atenrt_last_error());
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.atrt|MODEL.pt2\n", argv[0]);
    return 2;
  }
  atenrt_set_log_callback(log_to_stderr, NULL, ATENRT_LOG_INFO);
  const size_t len = strlen(argv[1]);
  const int is_pt2 = len > 4 && strcmp(argv[1] + len - 4, ".pt2") == 0;
  atenrt_engine* engine = NULL;
  atenrt_status st = is_pt2 ? atenrt_compile(argv[1], NULL, &engine) : atenrt_engine_load(argv[1], NULL, &engine);
  if (st != ATENRT_OK) return fail(argv[1], st);

  /* Inputs in our own memory, filled with ones (float32) or zeros. */
  const size_t n_in = atenrt_engine_num_inputs(engine);
  atenrt_tensor* inputs = calloc(n_in ? n_in : 1, sizeof *inputs);
  for (size_t i = 0; i < n_in; ++i) {
    atenrt_tensor* t = &inputs[i];
    atenrt_engine_input(engine, i, NULL, &t->dtype, &t->ndim, &t->dims);
    const int64_t n = numel(t->ndim, t->dims);
    t->data = calloc(n ? (size_t)n : 1, atenrt_dtype_size(t->dtype));
    if (t->dtype == ATENRT_FLOAT32) {
      for (int64_t k = 0; k < n; ++k) ((float*)t->data)[k] = 1.0f;
    }
  }

  atenrt_context* ctx = NULL;
  if ((st = atenrt_context_create(engine, &ctx)) != ATENRT_OK) return fail("context", st);
  if ((st = atenrt_context_run(ctx, inputs, n_in, NULL, 0)) != ATENRT_OK) return fail("run", st);

  /* Outputs read in place from the context, printed as the C++ example does. */
  for (size_t i = 0; i < atenrt_engine_num_outputs(engine); ++i) {
    const char* name = NULL;
    atenrt_tensor out;
    atenrt_engine_output(engine, i, &name, NULL, NULL, NULL);
    if ((st = atenrt_context_output(ctx, i, &out)) != ATENRT_OK) return fail("output", st);
    const int64_t n = numel(out.ndim, out.dims);
    printf("%s: %s[", name, out.dtype == ATENRT_FLOAT32 ? "float32" : out.dtype == ATENRT_INT64 ? "int64" : "other");
    for (int32_t d = 0; d < out.ndim; ++d) printf("%s%lld", d ? ", " : "", (long long)out.dims[d]);
    printf("]:");
    for (int64_t k = 0; k < n && k < 8; ++k) {
      if (out.dtype == ATENRT_FLOAT32) printf(" %g", ((const float*)out.data)[k]);
      if (out.dtype == ATENRT_INT64) printf(" %lld", (long long)((const int64_t*)out.data)[k]);
    }
    printf("%s\n", n > 8 ? " ..." : "");
  }

  atenrt_context_destroy(ctx);
  for (size_t i = 0; i < n_in; ++i) free(inputs[i].data);
  free(inputs);
  atenrt_engine_destroy(engine);
  return 0;
}
