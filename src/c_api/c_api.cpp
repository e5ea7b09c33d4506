// The C API (include/atenrt/atenrt_c.h) over the C++ API: every entry point
// catches what the C++ call throws, keeps its message as this thread's last
// error and returns the status of its kind. Handles own C++ objects.
#include "atenrt/atenrt_c.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "atenrt/atenrt.h"
#include "atenrt/extension.h"
#include "atenrt/log.h"

#ifndef ATENRT_VERSION
#error "ATENRT_VERSION comes from CMakeLists.txt (project VERSION)"
#endif

struct atenrt_settings {
  atenrt::CompileSettings settings;
};

struct atenrt_engine {
  atenrt::Engine engine;
};

struct atenrt_context {
  atenrt::ExecutionContext context;
  const std::vector<atenrt::Tensor>* outputs = nullptr;  // of the last run
};

namespace {

thread_local std::string last_error;

atenrt_status fail(atenrt_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

// Runs `body`, turning what it throws into a status and this thread's last error.
template <typename Body>
atenrt_status guarded(Body&& body) {
  try {
    body();
    return ATENRT_OK;
  } catch (const atenrt::FormatError& e) {
    return fail(ATENRT_ERROR_FORMAT, e.what());
  } catch (const atenrt::UnsupportedError& e) {
    return fail(ATENRT_ERROR_UNSUPPORTED, e.what());
  } catch (const atenrt::InputError& e) {
    return fail(ATENRT_ERROR_INPUT, e.what());
  } catch (const atenrt::SettingsError& e) {
    return fail(ATENRT_ERROR_SETTINGS, e.what());
  } catch (const std::bad_alloc&) {
    return fail(ATENRT_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(ATENRT_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(ATENRT_ERROR_INTERNAL, "unknown error");
  }
}

// An InvalidArgument status for a NULL the caller passed where it may not.
#define ATENRT_REQUIRE(ptr, where)                                                          \
  do {                                                                                      \
    if (!(ptr)) return fail(ATENRT_ERROR_INVALID_ARGUMENT, std::string(where) + ": " #ptr " is NULL"); \
  } while (0)

// A C caller may pass any int where an enum is declared; loading that as the
// enum type would be undefined in C++ (UBSan's enum check), so the value is
// read by its bytes.
template <typename E>
long long raw_value(const E& e) {
  std::underlying_type_t<E> v;
  std::memcpy(&v, &e, sizeof v);
  return static_cast<long long>(v);
}

std::optional<atenrt::DType> to_dtype(const atenrt_dtype& d) {
  const long long code = raw_value(d);
  if (code < 0 || code >= atenrt::kDTypeCount) return std::nullopt;
  return static_cast<atenrt::DType>(code);
}

std::string describe_view(const atenrt_tensor& t) {
  std::string text = "[";
  for (int32_t i = 0; i < t.ndim; ++i) text += (i ? ", " : "") + std::to_string(t.dims[i]);
  return text + "]";
}

// The shape of a caller's view, checked: dims present, none negative.
atenrt_status view_sizes(const atenrt_tensor& t, const std::string& what, std::vector<std::int64_t>& sizes,
                         atenrt::DType& dtype) {
  const auto d = to_dtype(t.dtype);
  if (!d) return fail(ATENRT_ERROR_INVALID_ARGUMENT, what + ": dtype " + std::to_string(raw_value(t.dtype)) +
                                                         " is no atenrt_dtype");
  if (t.ndim < 0) return fail(ATENRT_ERROR_INVALID_ARGUMENT, what + ": ndim " + std::to_string(t.ndim) + " is negative");
  if (t.ndim > 0 && !t.dims) return fail(ATENRT_ERROR_INVALID_ARGUMENT, what + ": dims is NULL");
  sizes.assign(t.dims, t.dims + t.ndim);
  for (auto s : sizes) {
    if (s < 0) return fail(ATENRT_ERROR_INVALID_ARGUMENT, what + ": negative size in " + describe_view(t));
  }
  if (!t.data && atenrt::numel_of(sizes) > 0) return fail(ATENRT_ERROR_INVALID_ARGUMENT, what + ": data is NULL");
  dtype = *d;
  return ATENRT_OK;
}

atenrt_status describe_spec(const std::vector<atenrt::TensorSpec>& specs, size_t index, const char* kind,
                            const char** name, atenrt_dtype* dtype, int32_t* ndim, const int64_t** dims) {
  if (index >= specs.size()) {
    return fail(ATENRT_ERROR_INVALID_ARGUMENT, std::string(kind) + " " + std::to_string(index) +
                                                   " does not exist (the engine has " + std::to_string(specs.size()) +
                                                   ")");
  }
  const auto& s = specs[index];
  if (name) *name = s.name.c_str();
  if (dtype) *dtype = static_cast<atenrt_dtype>(s.dtype);
  if (ndim) *ndim = static_cast<int32_t>(s.dims.size());
  if (dims) *dims = s.dims.data();
  return ATENRT_OK;
}

// A setting's value from text, by the setting's type in the settings table.
atenrt::SettingValue parse_setting(const atenrt::Setting& s, const std::string& text) {
  switch (s.type) {
    case atenrt::SettingType::Bool:
      if (text == "true" || text == "1" || text == "on") return true;
      if (text == "false" || text == "0" || text == "off") return false;
      throw atenrt::SettingsError(s.name + ": '" + text + "' is not a bool (true or false)");
    case atenrt::SettingType::Int: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        throw atenrt::SettingsError(s.name + ": '" + text + "' is not an integer (" + s.range_text() + ")");
      }
      return v;
    }
    case atenrt::SettingType::Choice:
    case atenrt::SettingType::Bytes:   // set_setting reads "512M" itself
    case atenrt::SettingType::Shapes:  // and "x:1x3x224x224,mask:1x77"
    case atenrt::SettingType::Path:
      return text;
    case atenrt::SettingType::NameList: {
      std::vector<std::string> names;
      std::size_t start = 0;
      while (start <= text.size() && !text.empty()) {
        const auto comma = text.find(',', start);
        names.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return names;
    }
  }
  throw atenrt::SettingsError(s.name + ": unknown setting type");
}

atenrt_status run(atenrt_context* context, const atenrt_tensor* inputs, size_t num_inputs,
                  const atenrt_tensor* outputs, size_t num_outputs) {
  context->outputs = nullptr;
  // The caller's input memory, wrapped without a copy: a read-only storage
  // whose owner does nothing (the caller keeps the memory for the call).
  std::vector<atenrt::Tensor> views;
  views.reserve(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    std::vector<std::int64_t> sizes;
    atenrt::DType dtype{};
    const std::string what = "input " + std::to_string(i);
    if (auto st = view_sizes(inputs[i], what, sizes, dtype); st != ATENRT_OK) return st;
    const std::size_t nbytes = static_cast<std::size_t>(atenrt::numel_of(sizes)) * atenrt::element_size(dtype);
    const auto* bytes = static_cast<const std::byte*>(inputs[i].data);
    std::shared_ptr<const void> owner(bytes ? static_cast<const void*>(bytes) : static_cast<const void*>(&views),
                                      [](const void*) {});
    auto storage = std::make_shared<atenrt::Storage>(bytes, nbytes, std::move(owner));
    const auto status = guarded([&] {
      views.emplace_back(std::move(storage), dtype, sizes, atenrt::contiguous_strides(sizes), 0);
    });
    if (status != ATENRT_OK) return status;
  }
  const std::vector<atenrt::Tensor>* results = nullptr;
  if (auto st = guarded([&] { results = &context->context.run(views); }); st != ATENRT_OK) return st;
  context->outputs = results;
  if (num_outputs == 0) return ATENRT_OK;
  if (num_outputs != results->size()) {
    return fail(ATENRT_ERROR_INPUT, "the engine has " + std::to_string(results->size()) + " outputs, " +
                                        std::to_string(num_outputs) + " output buffers were given");
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    std::vector<std::int64_t> sizes;
    atenrt::DType dtype{};
    const atenrt::Tensor& r = (*results)[i];
    const std::string what = "output " + std::to_string(i);
    if (auto st = view_sizes(outputs[i], what, sizes, dtype); st != ATENRT_OK) return st;
    if (dtype != r.dtype() || sizes != r.sizes()) {
      return fail(ATENRT_ERROR_INPUT, what + ": the buffer is " + std::string(atenrt::dtype_name(dtype)) +
                                          atenrt::shape_to_string(sizes) + ", the engine's output is " +
                                          std::string(atenrt::dtype_name(r.dtype())) +
                                          atenrt::shape_to_string(r.sizes()));
    }
    if (r.is_contiguous()) {
      std::memcpy(outputs[i].data, r.raw_data(), r.nbytes());
    } else {
      const auto bytes = r.to_bytes();
      std::memcpy(outputs[i].data, bytes.data(), bytes.size());
    }
  }
  return ATENRT_OK;
}

}  // namespace

extern "C" {

const char* atenrt_version(void) { return ATENRT_VERSION; }

const char* atenrt_status_name(atenrt_status status) {
  switch (raw_value(status)) {
    case ATENRT_OK: return "ATENRT_OK";
    case ATENRT_ERROR_FORMAT: return "ATENRT_ERROR_FORMAT";
    case ATENRT_ERROR_UNSUPPORTED: return "ATENRT_ERROR_UNSUPPORTED";
    case ATENRT_ERROR_INPUT: return "ATENRT_ERROR_INPUT";
    case ATENRT_ERROR_SETTINGS: return "ATENRT_ERROR_SETTINGS";
    case ATENRT_ERROR_INVALID_ARGUMENT: return "ATENRT_ERROR_INVALID_ARGUMENT";
    case ATENRT_ERROR_OUT_OF_MEMORY: return "ATENRT_ERROR_OUT_OF_MEMORY";
    case ATENRT_ERROR_INTERNAL: return "ATENRT_ERROR_INTERNAL";
  }
  return "unknown status";
}

const char* atenrt_last_error(void) { return last_error.c_str(); }

size_t atenrt_dtype_size(atenrt_dtype dtype) {
  const auto d = to_dtype(dtype);
  return d ? atenrt::element_size(*d) : 0;
}

atenrt_status atenrt_settings_create(atenrt_settings** out) {
  ATENRT_REQUIRE(out, "atenrt_settings_create");
  *out = nullptr;
  return guarded([&] { *out = new atenrt_settings{}; });
}

void atenrt_settings_destroy(atenrt_settings* settings) { delete settings; }

atenrt_status atenrt_settings_set(atenrt_settings* settings, const char* name, const char* value) {
  ATENRT_REQUIRE(settings, "atenrt_settings_set");
  ATENRT_REQUIRE(name, "atenrt_settings_set");
  ATENRT_REQUIRE(value, "atenrt_settings_set");
  return guarded([&] {
    const atenrt::Setting* s = atenrt::find_setting(name);
    if (!s) {
      // set_setting names the nearest valid setting.
      atenrt::set_setting(settings->settings, name, std::string(value));
      return;
    }
    atenrt::set_setting(settings->settings, s->name, parse_setting(*s, value));
  });
}

atenrt_status atenrt_compile(const char* pt2_path, const atenrt_settings* settings, atenrt_engine** out) {
  ATENRT_REQUIRE(out, "atenrt_compile");
  *out = nullptr;
  ATENRT_REQUIRE(pt2_path, "atenrt_compile");
  return guarded([&] {
    *out = new atenrt_engine{atenrt::compile(pt2_path, settings ? settings->settings : atenrt::CompileSettings{})};
  });
}

atenrt_status atenrt_engine_load(const char* path, const atenrt_settings* settings, atenrt_engine** out) {
  ATENRT_REQUIRE(out, "atenrt_engine_load");
  *out = nullptr;
  ATENRT_REQUIRE(path, "atenrt_engine_load");
  return guarded([&] {
    *out = new atenrt_engine{atenrt::Engine::load(path, settings ? settings->settings : atenrt::CompileSettings{})};
  });
}

atenrt_status atenrt_engine_save(const atenrt_engine* engine, const char* path) {
  ATENRT_REQUIRE(engine, "atenrt_engine_save");
  ATENRT_REQUIRE(path, "atenrt_engine_save");
  return guarded([&] { engine->engine.save(path); });
}

void atenrt_engine_destroy(atenrt_engine* engine) { delete engine; }

atenrt_status atenrt_load_plugin(const char* path) {
  ATENRT_REQUIRE(path, "atenrt_load_plugin");
  return guarded([&] { atenrt::load_plugin(path); });
}

size_t atenrt_engine_num_inputs(const atenrt_engine* engine) { return engine ? engine->engine.inputs().size() : 0; }
size_t atenrt_engine_num_outputs(const atenrt_engine* engine) { return engine ? engine->engine.outputs().size() : 0; }

atenrt_status atenrt_engine_input(const atenrt_engine* engine, size_t index, const char** name, atenrt_dtype* dtype,
                                  int32_t* ndim, const int64_t** dims) {
  ATENRT_REQUIRE(engine, "atenrt_engine_input");
  return describe_spec(engine->engine.inputs(), index, "input", name, dtype, ndim, dims);
}

atenrt_status atenrt_engine_output(const atenrt_engine* engine, size_t index, const char** name, atenrt_dtype* dtype,
                                   int32_t* ndim, const int64_t** dims) {
  ATENRT_REQUIRE(engine, "atenrt_engine_output");
  return describe_spec(engine->engine.outputs(), index, "output", name, dtype, ndim, dims);
}

atenrt_status atenrt_context_create(const atenrt_engine* engine, atenrt_context** out) {
  ATENRT_REQUIRE(out, "atenrt_context_create");
  *out = nullptr;
  ATENRT_REQUIRE(engine, "atenrt_context_create");
  return guarded([&] { *out = new atenrt_context{engine->engine.create_context()}; });
}

void atenrt_context_destroy(atenrt_context* context) { delete context; }


atenrt_status atenrt_context_run(atenrt_context* context, const atenrt_tensor* inputs, size_t num_inputs,
                                 const atenrt_tensor* outputs, size_t num_outputs) {
  ATENRT_REQUIRE(context, "atenrt_context_run");
  if (num_inputs) ATENRT_REQUIRE(inputs, "atenrt_context_run");
  if (num_outputs) ATENRT_REQUIRE(outputs, "atenrt_context_run");
  atenrt_status result = ATENRT_OK;
  const atenrt_status status = guarded([&] { result = run(context, inputs, num_inputs, outputs, num_outputs); });
  return status != ATENRT_OK ? status : result;
}

atenrt_status atenrt_context_output(const atenrt_context* context, size_t index, atenrt_tensor* out) {
  ATENRT_REQUIRE(context, "atenrt_context_output");
  ATENRT_REQUIRE(out, "atenrt_context_output");
  if (!context->outputs) return fail(ATENRT_ERROR_INVALID_ARGUMENT, "atenrt_context_output: no run has succeeded yet");
  const auto& results = *context->outputs;
  if (index >= results.size()) {
    return fail(ATENRT_ERROR_INVALID_ARGUMENT, "output " + std::to_string(index) + " does not exist (the engine has " +
                                                   std::to_string(results.size()) + ")");
  }
  const atenrt::Tensor& r = results[index];
  if (!r.is_contiguous()) return fail(ATENRT_ERROR_INTERNAL, "output " + std::to_string(index) + " is not contiguous");
  out->data = const_cast<std::byte*>(r.raw_data());
  out->dtype = static_cast<atenrt_dtype>(r.dtype());
  out->ndim = static_cast<int32_t>(r.sizes().size());
  out->dims = r.sizes().data();
  return ATENRT_OK;
}

void atenrt_set_log_callback(atenrt_log_callback callback, void* user_data, atenrt_log_level min_level) {
  if (!callback) {
    atenrt::set_log_callback(nullptr, atenrt::LogLevel::Error);
    return;
  }
  atenrt::set_log_callback(
      [callback, user_data](atenrt::LogLevel level, std::string_view message) {
        const std::string text(message);
        callback(static_cast<atenrt_log_level>(level), text.c_str(), user_data);
      },
      static_cast<atenrt::LogLevel>(std::clamp<long long>(raw_value(min_level), ATENRT_LOG_DEBUG, ATENRT_LOG_ERROR)));
}

}  // extern "C"
