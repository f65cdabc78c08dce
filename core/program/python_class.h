// A test file's dataclasses: the parameter tables TVM-style tests build
// their kernels from (docs/tvmscript.md, "Test files").
//
//     @dataclass(frozen=True)
//     class Config:                       a Class: its fields and methods
//         tm: int                         a field without a default
//         k_inst: int = 16                one with (also field(default=16))
//         def build(self):                a method: a def of the module taking self
//             return make_gemm(self.tm, ...)
//     Config(1, 2, tk=2)                  an Object: the class and one value a field
//     cfg.tm, cfg.build()                 its fields; its methods, called
//     dataclasses.replace(cfg, tm=2)      a copy with fields replaced
//
// As Python's generated __init__: arguments bind positionally in field
// order, then by keyword; a missing, unknown or repeated one is an Error at
// the call.  Instances are equal when of the same class with equal fields
// (the generated __eq__), and true (a dataclass has no __bool__ or __len__
// of its own).  Classes that are not dataclasses are not read at all.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/program/python_eval.h"
#include "core/program/python_value.h"

namespace mmacheck::python {

struct Field {
  std::string name;
  std::optional<Value> default_value;
  SourceLoc loc;
};

struct Class {
  std::string name;
  SourceLoc loc;  // the `class` keyword
  bool frozen = false;
  std::vector<Field> fields;  // in declaration order: __init__'s parameters
  std::map<std::string, std::shared_ptr<const Function>, std::less<>> methods;

  const Field* field(std::string_view name) const;
};

struct Object {
  std::shared_ptr<const Class> cls;
  std::vector<Value> values;  // one a field, in the class's order
};

// `cls(args)`: the generated __init__ (`at`: the call's '(' for messages).
Value construct(const std::shared_ptr<const Class>& cls, const std::vector<CallArg>& args, const Token& at);
// `dataclasses.replace(obj, name=value, ...)`: keyword arguments only, each a field.
Value replace(const std::vector<CallArg>& args, const Token& at);
// `obj.name` for a field; nullptr when `name` is no field (a method, or nothing).
const Value* field_value(const Object& obj, std::string_view name);
// The generated __eq__: the same class and equal fields (`equal` compares two fields).
bool objects_equal(const Object& a, const Object& b, const std::function<bool(const Value&, const Value&)>& equal);

}  // namespace mmacheck::python
