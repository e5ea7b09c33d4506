/* The C API (include/atenrt/atenrt_c.h) from C, linked against libatenrt.so:
   a small program from the reader's corpus compiled, run, saved, loaded and
   run again with results checked by hand, then every error path: each must
   return its status with a message that names what was wrong, never abort.
   Usage: atenrt_c_api_test CORPUS_DIR SCRATCH_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atenrt/atenrt_c.h"
#include "atenrt/version.h"

static int failures = 0;

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

/* `call` returns `status` and the last error contains `text`. */
static void expect_error(int line, atenrt_status got, atenrt_status want, const char* text) {
  if (got != want) {
    fprintf(stderr, "line %d: got %s, want %s (%s)\n", line, atenrt_status_name(got), atenrt_status_name(want),
            atenrt_last_error());
    ++failures;
  } else if (!strstr(atenrt_last_error(), text)) {
    fprintf(stderr, "line %d: message '%s' lacks '%s'\n", line, atenrt_last_error(), text);
    ++failures;
  }
}
#define EXPECT_ERROR(call, want, text) expect_error(__LINE__, (call), (want), (text))
#define EXPECT_OK(call)                                                                                \
  do {                                                                                                 \
    atenrt_status s_ = (call);                                                                         \
    if (s_ != ATENRT_OK) {                                                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, atenrt_status_name(s_), atenrt_last_error()); \
      ++failures;                                                                                      \
    }                                                                                                  \
  } while (0)

static int messages = 0;
static void count_messages(atenrt_log_level level, const char* message, void* user_data) {
  (void)level;
  CHECK(user_data == &messages);
  CHECK(strstr(message, "compiled ") != NULL || strstr(message, "loaded ") != NULL);
  ++messages;
}

/* program_raw.pt2 (tests/corpus/make_corpus.py): x[2,4] -> add_1[2], index[2,2].
   With x = ones: linear rows are [106, 115, 124]; add_1 = [40, 44] (everything
   clamps to 6 before the sum); index = linear[:, [1, 0]] = [[115, 106] x2]. */
static void check_outputs(const float* add_1, const float* index) {
  CHECK(add_1[0] == 40.0f && add_1[1] == 44.0f);
  CHECK(index[0] == 115.0f && index[1] == 106.0f && index[2] == 115.0f && index[3] == 106.0f);
}

static void run_and_check(const atenrt_engine* engine) {
  atenrt_context* ctx = NULL;
  EXPECT_OK(atenrt_context_create(engine, &ctx));
  float x[8];
  for (int i = 0; i < 8; ++i) x[i] = 1.0f;
  const int64_t x_dims[2] = {2, 4}, add_dims[1] = {2}, index_dims[2] = {2, 2};
  float add_1[2] = {0}, index[4] = {0};
  atenrt_tensor in = {x, ATENRT_FLOAT32, 2, x_dims};
  atenrt_tensor outs[2] = {{add_1, ATENRT_FLOAT32, 1, add_dims}, {index, ATENRT_FLOAT32, 2, index_dims}};
  EXPECT_OK(atenrt_context_run(ctx, &in, 1, outs, 2));
  check_outputs(add_1, index);

  /* Outputs read in place from the context. */
  atenrt_tensor view;
  EXPECT_OK(atenrt_context_run(ctx, &in, 1, NULL, 0));
  EXPECT_OK(atenrt_context_output(ctx, 1, &view));
  CHECK(view.dtype == ATENRT_FLOAT32 && view.ndim == 2 && view.dims[0] == 2 && view.dims[1] == 2);
  float add_copy[2];
  atenrt_tensor view0;
  EXPECT_OK(atenrt_context_output(ctx, 0, &view0));
  memcpy(add_copy, view0.data, sizeof add_copy);
  check_outputs(add_copy, (const float*)view.data);

  /* Wrong inputs: count, dtype, shape; wrong output buffers. Each is an
     InputError naming what the engine expects, and the context still runs. */
  EXPECT_ERROR(atenrt_context_run(ctx, NULL, 0, NULL, 0), ATENRT_ERROR_INPUT, "1");
  int32_t xi[8] = {0};
  atenrt_tensor in_int = {xi, ATENRT_INT32, 2, x_dims};
  EXPECT_ERROR(atenrt_context_run(ctx, &in_int, 1, NULL, 0), ATENRT_ERROR_INPUT, "float32");
  const int64_t wrong_dims[2] = {4, 2};
  atenrt_tensor in_shape = {x, ATENRT_FLOAT32, 2, wrong_dims};
  EXPECT_ERROR(atenrt_context_run(ctx, &in_shape, 1, NULL, 0), ATENRT_ERROR_INPUT, "x");
  atenrt_tensor bad_out[2] = {{add_1, ATENRT_FLOAT32, 1, add_dims}, {index, ATENRT_FLOAT32, 1, add_dims}};
  EXPECT_ERROR(atenrt_context_run(ctx, &in, 1, bad_out, 2), ATENRT_ERROR_INPUT, "output 1");
  EXPECT_ERROR(atenrt_context_run(ctx, &in, 1, outs, 1), ATENRT_ERROR_INPUT, "2 outputs");
  atenrt_tensor bad_dtype = {x, (atenrt_dtype)42, 2, x_dims};
  EXPECT_ERROR(atenrt_context_run(ctx, &bad_dtype, 1, NULL, 0), ATENRT_ERROR_INVALID_ARGUMENT, "dtype 42");
  atenrt_tensor no_dims = {x, ATENRT_FLOAT32, 2, NULL};
  EXPECT_ERROR(atenrt_context_run(ctx, &no_dims, 1, NULL, 0), ATENRT_ERROR_INVALID_ARGUMENT, "dims is NULL");
  atenrt_tensor no_data = {NULL, ATENRT_FLOAT32, 2, x_dims};
  EXPECT_ERROR(atenrt_context_run(ctx, &no_data, 1, NULL, 0), ATENRT_ERROR_INVALID_ARGUMENT, "data is NULL");
  EXPECT_ERROR(atenrt_context_output(ctx, 0, &view), ATENRT_ERROR_INVALID_ARGUMENT, "no run");
  EXPECT_OK(atenrt_context_run(ctx, &in, 1, outs, 2));
  check_outputs(add_1, index);
  EXPECT_ERROR(atenrt_context_output(ctx, 2, &view), ATENRT_ERROR_INVALID_ARGUMENT, "output 2");
  atenrt_context_destroy(ctx);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s CORPUS_DIR SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  char program[4096], engine_path[4096], path[4096];
  snprintf(program, sizeof program, "%s/valid/program_raw.pt2", argv[1]);
  snprintf(engine_path, sizeof engine_path, "%s/c_api_test.atrt", argv[2]);

  CHECK(strcmp(atenrt_version(), ATENRT_VERSION_STRING) == 0);
  CHECK(strcmp(atenrt_last_error(), "") == 0);
  CHECK(strcmp(atenrt_status_name(ATENRT_ERROR_INPUT), "ATENRT_ERROR_INPUT") == 0);
  CHECK(strcmp(atenrt_status_name((atenrt_status)99), "unknown status") == 0);
  CHECK(atenrt_dtype_size(ATENRT_FLOAT32) == 4 && atenrt_dtype_size(ATENRT_BOOL) == 1);
  CHECK(atenrt_dtype_size((atenrt_dtype)-1) == 0);

  /* Compile with settings, inspect, run; the log callback sees the compile. */
  atenrt_set_log_callback(count_messages, &messages, ATENRT_LOG_INFO);
  atenrt_settings* settings = NULL;
  EXPECT_OK(atenrt_settings_create(&settings));
  EXPECT_OK(atenrt_settings_set(settings, "min_block_size", "1"));
  EXPECT_OK(atenrt_settings_set(settings, "lowering", "true"));
  atenrt_engine* engine = NULL;
  EXPECT_OK(atenrt_compile(program, settings, &engine));
  CHECK(messages == 1);
  if (!engine) return 1;
  CHECK(atenrt_engine_num_inputs(engine) == 1 && atenrt_engine_num_outputs(engine) == 2);
  const char* name = NULL;
  atenrt_dtype dtype;
  int32_t ndim = 0;
  const int64_t* dims = NULL;
  EXPECT_OK(atenrt_engine_input(engine, 0, &name, &dtype, &ndim, &dims));
  CHECK(strcmp(name, "x") == 0 && dtype == ATENRT_FLOAT32 && ndim == 2 && dims[0] == 2 && dims[1] == 4);
  EXPECT_OK(atenrt_engine_output(engine, 1, NULL, NULL, &ndim, NULL));
  CHECK(ndim == 2);
  EXPECT_ERROR(atenrt_engine_input(engine, 1, &name, NULL, NULL, NULL), ATENRT_ERROR_INVALID_ARGUMENT, "input 1");
  run_and_check(engine);

  /* Save, load (a load-time setting is fine, a compile-time one is not), run. */
  EXPECT_OK(atenrt_engine_save(engine, engine_path));
  atenrt_engine_destroy(engine);
  atenrt_set_log_callback(NULL, NULL, ATENRT_LOG_DEBUG);  /* silenced: no more counting */
  atenrt_settings* load_settings = NULL;
  EXPECT_OK(atenrt_settings_create(&load_settings));
  EXPECT_OK(atenrt_settings_set(load_settings, "num_threads", "1"));
  EXPECT_OK(atenrt_settings_set(load_settings, "max_memory", "1G"));
  EXPECT_ERROR(atenrt_settings_set(load_settings, "max_memory", "lots"), ATENRT_ERROR_SETTINGS, "lots");
  engine = NULL;
  EXPECT_OK(atenrt_engine_load(engine_path, load_settings, &engine));
  CHECK(messages == 1);
  if (engine) run_and_check(engine);
  atenrt_engine_destroy(engine);
  atenrt_engine* refused = NULL;
  EXPECT_ERROR(atenrt_engine_load(engine_path, settings, &refused), ATENRT_ERROR_SETTINGS, "min_block_size");
  CHECK(refused == NULL);
  atenrt_settings_destroy(load_settings);

  /* Settings errors: unknown names suggest the nearest, values are checked. */
  EXPECT_ERROR(atenrt_settings_set(settings, "min_blok_size", "3"), ATENRT_ERROR_SETTINGS, "min_block_size");
  EXPECT_ERROR(atenrt_settings_set(settings, "min_block_size", "three"), ATENRT_ERROR_SETTINGS, "not an integer");
  EXPECT_ERROR(atenrt_settings_set(settings, "min_block_size", "-4"), ATENRT_ERROR_SETTINGS, "min_block_size");
  EXPECT_ERROR(atenrt_settings_set(settings, "precision", "fp64"), ATENRT_ERROR_SETTINGS, "precision");
  EXPECT_ERROR(atenrt_settings_set(settings, "lowering", "maybe"), ATENRT_ERROR_SETTINGS, "not a bool");
  EXPECT_OK(atenrt_settings_set(settings, "torch_executed_ops", "aten.relu.default,aten.gelu.default"));
  EXPECT_OK(atenrt_settings_set(settings, "disabled_passes", "no_such_pass"));  /* checked at compile */
  EXPECT_ERROR(atenrt_compile(program, settings, &engine), ATENRT_ERROR_SETTINGS, "no_such_pass");
  CHECK(engine == NULL);
  atenrt_settings_destroy(settings);

  /* File errors: the C++ API's FormatError and UnsupportedError, with the file. */
  snprintf(path, sizeof path, "%s/no_such_file.pt2", argv[2]);
  EXPECT_ERROR(atenrt_compile(path, NULL, &engine), ATENRT_ERROR_FORMAT, "no_such_file.pt2");
  snprintf(path, sizeof path, "%s/bad/not_a_zip.pt2", argv[1]);
  EXPECT_ERROR(atenrt_compile(path, NULL, &engine), ATENRT_ERROR_FORMAT, "not a valid zip archive");
  snprintf(path, sizeof path, "%s/bad/torchscript.pt2", argv[1]);
  EXPECT_ERROR(atenrt_compile(path, NULL, &engine), ATENRT_ERROR_UNSUPPORTED, "TorchScript");
  EXPECT_ERROR(atenrt_engine_load(program, NULL, &engine), ATENRT_ERROR_FORMAT, "program_raw.pt2");
  CHECK(engine == NULL);

  /* NULL handles and pointers. */
  EXPECT_ERROR(atenrt_compile(NULL, NULL, &engine), ATENRT_ERROR_INVALID_ARGUMENT, "pt2_path is NULL");
  EXPECT_ERROR(atenrt_compile(program, NULL, NULL), ATENRT_ERROR_INVALID_ARGUMENT, "out is NULL");
  EXPECT_ERROR(atenrt_engine_save(NULL, engine_path), ATENRT_ERROR_INVALID_ARGUMENT, "engine is NULL");
  EXPECT_ERROR(atenrt_context_create(NULL, NULL), ATENRT_ERROR_INVALID_ARGUMENT, "out is NULL");
  EXPECT_ERROR(atenrt_context_run(NULL, NULL, 0, NULL, 0), ATENRT_ERROR_INVALID_ARGUMENT, "context is NULL");
  EXPECT_ERROR(atenrt_settings_set(NULL, "precision", "bf16"), ATENRT_ERROR_INVALID_ARGUMENT, "settings is NULL");
  EXPECT_ERROR(atenrt_load_plugin(NULL), ATENRT_ERROR_INVALID_ARGUMENT, "path is NULL");
  CHECK(atenrt_engine_num_inputs(NULL) == 0);
  atenrt_engine_destroy(NULL);
  atenrt_context_destroy(NULL);
  atenrt_settings_destroy(NULL);
  atenrt_set_log_callback(NULL, NULL, ATENRT_LOG_ERROR);

  /* Plugins: the test plugins of tests/plugins, built into <binary dir>/plugins. */
  snprintf(path, sizeof path, "%s/plugins/liboverride_test.so", argv[2]);
  EXPECT_OK(atenrt_load_plugin(path));
  EXPECT_OK(atenrt_load_plugin(path)); /* loaded already: nothing to do */
  snprintf(path, sizeof path, "%s/plugins/libwrong_abi.so", argv[2]);
  EXPECT_ERROR(atenrt_load_plugin(path), ATENRT_ERROR_FORMAT, "built for atenrt extension ABI version");
  snprintf(path, sizeof path, "%s/plugins/no_such_plugin.so", argv[2]);
  EXPECT_ERROR(atenrt_load_plugin(path), ATENRT_ERROR_FORMAT, "no_such_plugin.so: no such file");

  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("C API: all checks passed\n");
  return 0;
}
