// The restricted unpickler on hand-written protocol-2 pickles.
#include <gtest/gtest.h>

#include <string>

#include "atenrt/errors.h"
#include "frontend/pickle_reader.h"

using namespace atenrt;
using namespace std::string_literals;
using namespace atenrt::frontend::pickle;

namespace {

Pickle run(const std::string& ops) {
  const std::string bytes = std::string("\x80\x02", 2) + ops + ".";
  return unpickle(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "t.pkl");
}

std::string error_of(const std::string& ops) {
  try {
    run(ops);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string u32(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string unicode(const std::string& s) { return "X" + u32(static_cast<std::uint32_t>(s.size())) + s; }

// OrderedDict(w=_rebuild_parameter(_rebuild_tensor_v2(storage, 2, (3,), (2,), False, OrderedDict()), True, OrderedDict()))
std::string state_dict() {
  const std::string od = "ccollections\nOrderedDict\n)R";
  return od + "q\x00("s + unicode("w") + "ctorch._utils\n_rebuild_parameter\nctorch._utils\n_rebuild_tensor_v2\n(" +
         "(" + unicode("storage") + "ctorch\nHalfStorage\n" + unicode("0") + unicode("cpu") + "K\x08tQ" +
         "K\x02K\x03\x85K\x02\x85\x89" + od + "tR\x88" + od + "\x87Ru";
}

TEST(Pickle, StateDictWithParameterAndView) {
  const Pickle p = run(state_dict());
  const Value& root = p.at(p.root);
  ASSERT_EQ(root.kind, Kind::Dict);
  ASSERT_EQ(root.items.size(), 2u);
  EXPECT_EQ(p.at(root.items[0]).s, "w");
  const Value& t = p.at(root.items[1]);
  ASSERT_EQ(t.kind, Kind::Tensor);
  EXPECT_EQ(t.dtype, DType::Float16);
  EXPECT_EQ(t.storage_offset, 2);
  EXPECT_EQ(t.sizes, std::vector<std::int64_t>{3});
  EXPECT_EQ(t.strides, std::vector<std::int64_t>{2});
  const Value& s = p.at(t.storage);
  EXPECT_EQ(s.kind, Kind::Storage);
  EXPECT_EQ(s.s, "0");
  EXPECT_EQ(s.numel, 8);
}

TEST(Pickle, ScalarsAndContainers) {
  // [-1 (LONG1), 300 (BININT2), -7 (BININT), 1.5 (BINFLOAT), None, True] via memo.
  const std::string ops = std::string("](\x8a\x01\xff", 5) + "M\x2c\x01" + "J" + u32(static_cast<std::uint32_t>(-7)) +
                          "G" + std::string("\x3f\xf8\0\0\0\0\0\0", 8) + "N\x88" + "eq\x01\x85";
  const Pickle p = run(ops);
  const Value& tup = p.at(p.root);
  ASSERT_EQ(tup.kind, Kind::Tuple);
  const Value& list = p.at(tup.items[0]);
  ASSERT_EQ(list.items.size(), 6u);
  EXPECT_EQ(p.at(list.items[0]).i, -1);
  EXPECT_EQ(p.at(list.items[1]).i, 300);
  EXPECT_EQ(p.at(list.items[2]).i, -7);
  EXPECT_EQ(p.at(list.items[3]).f, 1.5);
  EXPECT_EQ(p.at(list.items[4]).kind, Kind::None);
  EXPECT_TRUE(p.at(list.items[5]).b);
}

TEST(Pickle, RefusesDangerousGlobals) {
  EXPECT_NE(error_of("cos\nsystem\n").find("forbidden global 'os system'"), std::string::npos);
  EXPECT_NE(error_of("cbuiltins\ngetattr\n").find("forbidden global 'builtins getattr'"), std::string::npos);
  EXPECT_NE(error_of("ctorch\nload\n").find("forbidden global 'torch load'"), std::string::npos);
  EXPECT_NE(error_of("ctorch._utils\n_rebuild_qtensor\n").find("forbidden"), std::string::npos);
}

// ReadLimits::max_pickle_depth reaches the unpickler: 64 nested MARKs (tuples
// of tuples) read, the 65th is refused by name.
TEST(Pickle, MarkDepthIsLimited) {
  auto nested = [](int depth) {
    std::string ops;
    for (int i = 0; i < depth; ++i) ops += "(";
    for (int i = 0; i < depth; ++i) ops += "t";
    return ops;
  };
  EXPECT_EQ(run(nested(64)).at(0).kind, Kind::Tuple);
  EXPECT_NE(error_of(nested(65)).find("more than 64 nested MARKs"), std::string::npos);
  const std::string bytes = std::string("\x80\x02", 2) + nested(9) + ".";
  Limits tight;
  tight.max_mark_depth = 8;
  try {
    unpickle(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "t.pkl", tight);
    ADD_FAILURE() << "9 nested MARKs passed a limit of 8";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 8 nested MARKs"), std::string::npos) << e.what();
  }
}

TEST(Pickle, RefusesMalformedInput) {
  EXPECT_NE(error_of("t").find("no MARK"), std::string::npos);
  EXPECT_NE(error_of("(").find("STOP with an open MARK"), std::string::npos);
  EXPECT_NE(error_of("NN").find("STOP with 2 values"), std::string::npos);
  EXPECT_NE(error_of("X\xff\xff\xff\x7f").find("truncated"), std::string::npos);
  EXPECT_NE(error_of("Na").find("stack underflow"), std::string::npos);
  EXPECT_NE(error_of("NNa").find("APPEND on a None"), std::string::npos);
  EXPECT_NE(error_of("}NNNu").find("no MARK"), std::string::npos);  // no MARK
  EXPECT_NE(error_of("ccollections\nOrderedDict\nK\x01\x85R").find("OrderedDict called with arguments"),
            std::string::npos);
  EXPECT_NE(error_of("ctorch\nFloatStorage\n)R").find("cannot be called"), std::string::npos);
  EXPECT_NE(error_of("N)R").find("REDUCE on a None"), std::string::npos);
  // A persistent id that is not a storage tuple.
  EXPECT_NE(error_of("NQ").find("persistent id is not a 5-tuple"), std::string::npos);
  // _rebuild_tensor_v2 without a storage.
  EXPECT_NE(error_of("ctorch._utils\n_rebuild_tensor_v2\n(NK\x00)))\x89NtR"s).find("must be a storage"),
            std::string::npos);
  // A protocol it does not speak.
  const std::string p1 = "\x80\x01N.";
  EXPECT_THROW(unpickle(reinterpret_cast<const std::byte*>(p1.data()), p1.size(), "t"), FormatError);
}

TEST(Pickle, MemoIsBounded) {
  std::string ops = "N";
  Limits limits;
  limits.max_memo = 3;
  for (int i = 0; i < 5; ++i) ops += std::string("q") + static_cast<char>(i);
  const std::string bytes = std::string("\x80\x02", 2) + ops + ".";
  EXPECT_THROW(unpickle(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size(), "t", limits),
               FormatError);
}

TEST(Pickle, SelfReferenceDoesNotRecurse) {
  // A list appended into itself: the arena holds an index cycle, no recursion, no leak.
  const Pickle p = run("]q\x00h\x00" "a"s);
  const Value& l = p.at(p.root);
  ASSERT_EQ(l.items.size(), 1u);
  EXPECT_EQ(l.items[0], p.root);
}

TEST(Pickle, EveryTruncationFailsCleanly) {
  const std::string full = std::string("\x80\x02", 2) + state_dict() + ".";
  for (std::size_t n = 0; n < full.size(); ++n) {
    EXPECT_THROW(unpickle(reinterpret_cast<const std::byte*>(full.data()), n, "t"), FormatError) << n;
  }
}

}  // namespace
