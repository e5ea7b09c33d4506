#include "frontend/pickle_reader.h"

#include <bit>
#include <cstring>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "atenrt/errors.h"

namespace atenrt::frontend::pickle {

std::string kind_name(Kind kind) {
  switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::String: return "str";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Global: return "global";
    case Kind::Storage: return "storage";
    case Kind::Tensor: return "tensor";
  }
  return "?";
}

namespace {

struct StorageClass {
  const char* name;
  std::optional<DType> dtype;  // nullopt: a torch dtype atenrt cannot hold
};

constexpr StorageClass kStorageClasses[] = {
    {"FloatStorage", DType::Float32}, {"HalfStorage", DType::Float16},
    {"BFloat16Storage", DType::BFloat16}, {"DoubleStorage", DType::Float64},
    {"LongStorage", DType::Int64}, {"IntStorage", DType::Int32},
    {"ShortStorage", DType::Int16}, {"CharStorage", DType::Int8},
    {"ByteStorage", DType::UInt8}, {"BoolStorage", DType::Bool},
    {"ComplexFloatStorage", std::nullopt}, {"ComplexDoubleStorage", std::nullopt},
};

class Machine {
 public:
  Machine(const std::byte* data, std::size_t size, const std::string& where, const Limits& limits)
      : p_(reinterpret_cast<const unsigned char*>(data)), size_(size), where_(where),
        limits_(limits) {}

  Pickle run();

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    throw FormatError(where_ + ": pickle byte " + std::to_string(op_pos_) + ": " + msg);
  }
  const unsigned char* take(std::size_t n) {
    if (n > size_ - pos_) fail("truncated (needs " + std::to_string(n) + " more bytes)");
    const unsigned char* r = p_ + pos_;
    pos_ += n;
    return r;
  }
  std::uint8_t u8() { return *take(1); }
  std::uint64_t le(std::size_t n) {
    const unsigned char* b = take(n);
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < n; ++k) v |= static_cast<std::uint64_t>(b[k]) << (8 * k);
    return v;
  }
  std::string line() {
    std::size_t end = pos_;
    while (end < size_ && p_[end] != '\n') ++end;
    if (end >= size_) fail("truncated GLOBAL (no newline)");
    std::string s(reinterpret_cast<const char*>(p_ + pos_), end - pos_);
    pos_ = end + 1;
    return s;
  }

  std::size_t make(Value v) {
    if (pool_.size() >= limits_.max_values) fail("too many values");
    pool_.push_back(std::move(v));
    return pool_.size() - 1;
  }
  std::size_t make_int(std::int64_t i) {
    Value v;
    v.kind = Kind::Int;
    v.i = i;
    return make(std::move(v));
  }
  void push(std::size_t v) { stack_.push_back(v); }
  std::size_t pop() {
    if (stack_.size() <= floor()) fail("stack underflow");
    std::size_t v = stack_.back();
    stack_.pop_back();
    return v;
  }
  std::size_t top() {
    if (stack_.size() <= floor()) fail("stack underflow");
    return stack_.back();
  }
  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  // Items above the last MARK, removing them and the mark.
  std::vector<std::size_t> pop_mark() {
    if (marks_.empty()) fail("no MARK on the stack");
    const std::size_t m = marks_.back();
    marks_.pop_back();
    std::vector<std::size_t> items(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
    stack_.resize(m);
    return items;
  }
  Value& ref(std::size_t i) { return pool_[i]; }

  void memo_put(std::uint64_t key) {
    const std::size_t v = top();
    auto it = memo_.find(key);
    if (it == memo_.end() && memo_.size() >= limits_.max_memo) fail("memo is too large");
    memo_[key] = v;
  }
  void memo_get(std::uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) fail("memo key " + std::to_string(key) + " was never stored");
    push(it->second);
  }

  void global(const std::string& module, const std::string& name);
  std::size_t reduce(std::size_t callable, std::size_t args);
  std::size_t persistent_load(std::size_t pid);
  void append(std::size_t list, const std::vector<std::size_t>& items);
  void setitems(std::size_t dict, const std::vector<std::size_t>& items);
  std::int64_t int_item(std::size_t v, const char* what);
  std::vector<std::int64_t> int_tuple(std::size_t v, const char* what);

  const unsigned char* p_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t op_pos_ = 0;
  const std::string& where_;
  const Limits& limits_;
  std::vector<Value> pool_;
  std::vector<std::size_t> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, std::size_t> memo_;
};

void Machine::global(const std::string& module, const std::string& name) {
  Value v;
  v.kind = Kind::Global;
  v.s = module + "." + name;
  bool ok = false;
  if (module == "collections" && name == "OrderedDict") {
    v.global = GlobalId::OrderedDict, ok = true;
  } else if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
    v.global = GlobalId::RebuildTensorV2, ok = true;
  } else if (module == "torch._utils" && name == "_rebuild_parameter") {
    v.global = GlobalId::RebuildParameter, ok = true;
  } else if (module == "torch._utils" && name == "_rebuild_parameter_with_state") {
    v.global = GlobalId::RebuildParameterWithState, ok = true;
  } else if (module == "torch") {
    for (const auto& sc : kStorageClasses) {
      if (name != sc.name) continue;
      if (!sc.dtype) {
        throw UnsupportedError(where_ + ": storage type torch." + name +
                               " holds a dtype atenrt does not support");
      }
      v.global = GlobalId::StorageClass, v.dtype = *sc.dtype, ok = true;
    }
  }
  if (!ok) {
    // Anything else could run code in a real unpickler: refuse it by name.
    fail("forbidden global '" + module + " " + name +
         "' (only torch tensor/storage rebuild functions and collections.OrderedDict are allowed)");
  }
  push(make(std::move(v)));
}

std::int64_t Machine::int_item(std::size_t v, const char* what) {
  const Value& x = pool_[v];
  if (x.kind != Kind::Int) fail(std::string(what) + " must be an int, got " + kind_name(x.kind));
  return x.i;
}

std::vector<std::int64_t> Machine::int_tuple(std::size_t v, const char* what) {
  const Value& x = pool_[v];
  if (x.kind != Kind::Tuple && x.kind != Kind::List) {
    fail(std::string(what) + " must be a tuple of ints, got " + kind_name(x.kind));
  }
  std::vector<std::int64_t> out;
  out.reserve(x.items.size());
  for (std::size_t item : x.items) out.push_back(int_item(item, what));
  return out;
}

std::size_t Machine::reduce(std::size_t callable, std::size_t args_index) {
  const Value& c = pool_[callable];
  if (c.kind != Kind::Global) fail("REDUCE on a " + kind_name(c.kind) + ", not a global");
  if (pool_[args_index].kind != Kind::Tuple) fail("REDUCE arguments are not a tuple");
  const std::vector<std::size_t> args = pool_[args_index].items;
  switch (c.global) {
    case GlobalId::OrderedDict: {
      if (!args.empty()) fail("OrderedDict called with arguments");
      Value d;
      d.kind = Kind::Dict;
      return make(std::move(d));
    }
    case GlobalId::RebuildTensorV2: {
      // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
      if (args.size() != 6 && args.size() != 7) {
        fail("_rebuild_tensor_v2 takes 6 or 7 arguments, got " + std::to_string(args.size()));
      }
      if (pool_[args[0]].kind != Kind::Storage) {
        fail("_rebuild_tensor_v2 argument 0 must be a storage, got " +
             kind_name(pool_[args[0]].kind));
      }
      Value t;
      t.kind = Kind::Tensor;
      t.storage = args[0];
      t.dtype = pool_[args[0]].dtype;
      t.storage_offset = int_item(args[1], "_rebuild_tensor_v2 storage_offset");
      t.sizes = int_tuple(args[2], "_rebuild_tensor_v2 size");
      t.strides = int_tuple(args[3], "_rebuild_tensor_v2 stride");
      if (t.sizes.size() != t.strides.size()) {
        fail("_rebuild_tensor_v2 has " + std::to_string(t.sizes.size()) + " sizes but " +
             std::to_string(t.strides.size()) + " strides");
      }
      return make(std::move(t));
    }
    case GlobalId::RebuildParameter:
    case GlobalId::RebuildParameterWithState: {
      const std::size_t want = c.global == GlobalId::RebuildParameter ? 3 : 4;
      if (args.size() != want) {
        fail(c.s + " takes " + std::to_string(want) + " arguments, got " +
             std::to_string(args.size()));
      }
      if (pool_[args[0]].kind != Kind::Tensor) {
        fail(c.s + " argument 0 must be a tensor, got " + kind_name(pool_[args[0]].kind));
      }
      return args[0];  // a Parameter is its tensor for us
    }
    case GlobalId::StorageClass:
      fail("storage class " + c.s + " cannot be called");
  }
  fail("unreachable REDUCE");
}

std::size_t Machine::persistent_load(std::size_t pid) {
  // ('storage', <StorageClass>, key, location, numel)
  const Value& t = pool_[pid];
  if (t.kind != Kind::Tuple || t.items.size() != 5) fail("persistent id is not a 5-tuple");
  const Value& tag = pool_[t.items[0]];
  if (tag.kind != Kind::String || tag.s != "storage") fail("persistent id tag is not 'storage'");
  const Value& cls = pool_[t.items[1]];
  if (cls.kind != Kind::Global || cls.global != GlobalId::StorageClass) {
    fail("persistent id names no storage class");
  }
  const Value& key = pool_[t.items[2]];
  if (key.kind != Kind::String) fail("persistent id key is not a string");
  if (key.s.empty() || key.s.find_first_of("/\\") != std::string::npos || key.s == "..") {
    fail("persistent id key '" + key.s + "' is not a plain record name");
  }
  if (pool_[t.items[3]].kind != Kind::String) fail("persistent id location is not a string");
  const std::int64_t numel = int_item(t.items[4], "persistent id numel");
  if (numel < 0) fail("storage '" + key.s + "' has negative size " + std::to_string(numel));
  Value s;
  s.kind = Kind::Storage;
  s.dtype = cls.dtype;
  s.s = key.s;
  s.numel = numel;
  return make(std::move(s));
}

void Machine::append(std::size_t list, const std::vector<std::size_t>& items) {
  if (pool_[list].kind != Kind::List) fail("APPEND on a " + kind_name(pool_[list].kind));
  auto& dst = pool_[list].items;
  dst.insert(dst.end(), items.begin(), items.end());
}

void Machine::setitems(std::size_t dict, const std::vector<std::size_t>& items) {
  if (pool_[dict].kind != Kind::Dict) fail("SETITEM on a " + kind_name(pool_[dict].kind));
  if (items.size() % 2 != 0) fail("SETITEMS with an odd number of items");
  // Pairs are kept in order; a repeated key is resolved by the consumer
  // (the later value wins, as in Python), which keeps this linear.
  auto& dst = pool_[dict].items;
  dst.insert(dst.end(), items.begin(), items.end());
}

Pickle Machine::run() {
  while (true) {
    op_pos_ = pos_;
    const std::uint8_t op = u8();
    switch (op) {
      case 0x80: {  // PROTO
        const int proto = u8();
        if (proto < 2 || proto > 5) fail("unsupported pickle protocol " + std::to_string(proto));
        break;
      }
      case 0x95: take(8); break;  // FRAME (protocol 4): a hint only
      case '}': { Value v; v.kind = Kind::Dict; push(make(std::move(v))); break; }
      case ']': { Value v; v.kind = Kind::List; push(make(std::move(v))); break; }
      case ')': { Value v; v.kind = Kind::Tuple; push(make(std::move(v))); break; }
      case '(':
        if (marks_.size() >= limits_.max_mark_depth) {
          fail("more than " + std::to_string(limits_.max_mark_depth) +
               " nested MARKs (the pickle depth limit, max_pickle_depth)");
        }
        marks_.push_back(stack_.size());
        break;
      case 't': {
        Value v;
        v.kind = Kind::Tuple;
        v.items = pop_mark();
        push(make(std::move(v)));
        break;
      }
      case 0x85: case 0x86: case 0x87: {  // TUPLE1/2/3
        const std::size_t n = op - 0x84u;
        Value v;
        v.kind = Kind::Tuple;
        v.items.resize(n);
        for (std::size_t k = n; k-- > 0;) v.items[k] = pop();
        push(make(std::move(v)));
        break;
      }
      case 'X': case 0x8c: {  // BINUNICODE, SHORT_BINUNICODE
        const std::uint64_t n = op == 'X' ? le(4) : le(1);
        const unsigned char* b = take(static_cast<std::size_t>(n));
        Value v;
        v.kind = Kind::String;
        v.s.assign(reinterpret_cast<const char*>(b), static_cast<std::size_t>(n));
        push(make(std::move(v)));
        break;
      }
      case 'J': push(make_int(static_cast<std::int32_t>(le(4)))); break;
      case 'K': push(make_int(static_cast<std::int64_t>(le(1)))); break;
      case 'M': push(make_int(static_cast<std::int64_t>(le(2)))); break;
      case 0x8a: {  // LONG1: little-endian two's complement of n bytes
        const std::size_t n = u8();
        if (n > 8) fail("LONG1 of " + std::to_string(n) + " bytes does not fit in int64");
        std::uint64_t raw = n ? le(n) : 0;
        if (n > 0 && n < 8 && (raw >> (8 * n - 1)) & 1u) raw |= ~0ull << (8 * n);  // sign-extend
        push(make_int(static_cast<std::int64_t>(raw)));
        break;
      }
      case 'G': {  // BINFLOAT, big-endian
        const unsigned char* b = take(8);
        std::uint64_t bits = 0;
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | b[k];
        Value v;
        v.kind = Kind::Float;
        v.f = std::bit_cast<double>(bits);
        push(make(std::move(v)));
        break;
      }
      case 0x88: case 0x89: {
        Value v;
        v.kind = Kind::Bool;
        v.b = op == 0x88;
        push(make(std::move(v)));
        break;
      }
      case 'N': push(make(Value{})); break;
      case 'c': {
        std::string module = line();
        std::string name = line();
        global(module, name);
        break;
      }
      case 'q': memo_put(le(1)); break;
      case 'r': memo_put(le(4)); break;
      case 0x94: memo_put(memo_.size()); break;  // MEMOIZE
      case 'h': memo_get(le(1)); break;
      case 'j': memo_get(le(4)); break;
      case 'Q': push(persistent_load(pop())); break;
      case 'R': {
        const std::size_t args = pop();
        const std::size_t callable = pop();
        push(reduce(callable, args));
        break;
      }
      case 's': {
        const std::size_t v = pop();
        const std::size_t k = pop();
        setitems(top(), {k, v});
        break;
      }
      case 'u': {
        auto items = pop_mark();
        setitems(top(), items);
        break;
      }
      case 'a': {
        const std::size_t v = pop();
        append(top(), {v});
        break;
      }
      case 'e': {
        auto items = pop_mark();
        append(top(), items);
        break;
      }
      case 'b': {
        // BUILD sets state (e.g. a state dict's _metadata); we only keep
        // tensors and their containers, so the state is checked and dropped.
        pop();
        const Kind k = pool_[top()].kind;
        if (k != Kind::Dict && k != Kind::Tensor) fail("BUILD on a " + kind_name(k));
        break;
      }
      case '.': {
        if (!marks_.empty()) fail("STOP with an open MARK");
        if (stack_.size() != 1) {
          fail("STOP with " + std::to_string(stack_.size()) + " values on the stack");
        }
        Pickle out;
        out.root = stack_.back();
        out.values = std::move(pool_);
        return out;
      }
      default: {
        std::ostringstream hex;
        hex << "0x" << std::hex << static_cast<int>(op);
        fail("unsupported pickle opcode " + hex.str() +
             (op >= 0x20 && op < 0x7f ? std::string(" '") + static_cast<char>(op) + "'" : ""));
      }
    }
  }
}

}  // namespace

Pickle unpickle(const std::byte* data, std::size_t size, const std::string& where,
                const Limits& limits) {
  Machine m(data, size, where, limits);
  return m.run();
}

}  // namespace atenrt::frontend::pickle
