// The error types of atenrt. Every failure on bad input is one of these,
// with a message that says what, where and why.
#pragma once

#include <stdexcept>
#include <string>

#include "atenrt/export.h"

namespace atenrt {

class ATENRT_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A .pt2 archive (or an engine file) is corrupt, hostile or of an unknown layout.
class ATENRT_API FormatError : public Error {
 public:
  using Error::Error;
};

// A graph is well formed but uses something atenrt does not support.
class ATENRT_API UnsupportedError : public Error {
 public:
  using Error::Error;
};

// Inputs given at run time do not match what the engine expects.
class ATENRT_API InputError : public Error {
 public:
  using Error::Error;
};

// A setting is out of range or names an op, pass, decomposition or group
// atenrt does not know (the message suggests the nearest valid name), or a
// compile-time setting was given for an engine that is already built.
class ATENRT_API SettingsError : public Error {
 public:
  using Error::Error;
};

}  // namespace atenrt
