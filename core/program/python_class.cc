#include "core/program/python_class.h"

#include <algorithm>

namespace mmacheck::python {

const Field* Class::field(std::string_view name) const {
  const auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == name; });
  return it == fields.end() ? nullptr : &*it;
}

Value construct(const std::shared_ptr<const Class>& cls, const std::vector<CallArg>& args, const Token& at) {
  const std::string who = cls->name + "()";
  std::vector<std::optional<Value>> values(cls->fields.size());
  std::size_t positional = 0;
  for (const CallArg& a : args) {
    if (!a.keyword) {
      if (positional >= cls->fields.size())
        throw Error(a.value.loc, who + " takes " + std::to_string(cls->fields.size()) +
                                     " positional arguments (its fields) but more were given");
      values[positional++] = a.value;
      continue;
    }
    const auto it =
        std::find_if(cls->fields.begin(), cls->fields.end(), [&](const Field& f) { return f.name == *a.keyword; });
    if (it == cls->fields.end())
      throw Error(a.value.loc, who + " got an unexpected keyword argument '" + *a.keyword + "'");
    auto& slot = values[static_cast<std::size_t>(it - cls->fields.begin())];
    if (slot) throw Error(a.value.loc, who + " got multiple values for argument '" + *a.keyword + "'");
    slot = a.value;
  }
  auto obj = std::make_shared<Object>();
  obj->cls = cls;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i] && !cls->fields[i].default_value)
      throw Error(at.loc, who + " missing required argument '" + cls->fields[i].name + "'");
    obj->values.push_back(values[i] ? *values[i] : *cls->fields[i].default_value);
  }
  return Value{std::shared_ptr<const Object>(std::move(obj)), false, at.loc};
}

Value replace(const std::vector<CallArg>& args, const Token& at) {
  if (args.empty() || args[0].keyword) throw Error(at.loc, "dataclasses.replace() takes the instance first");
  const auto* obj = args[0].value.get<std::shared_ptr<const Object>>();
  if (!obj)
    throw Error(args[0].value.loc,
                "dataclasses.replace() of " + kind_name(args[0].value) + ", not a dataclass instance");
  auto copy = std::make_shared<Object>(**obj);
  const Class& cls = *copy->cls;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (!args[i].keyword) throw Error(args[i].value.loc, "dataclasses.replace() takes one positional argument");
    const auto it =
        std::find_if(cls.fields.begin(), cls.fields.end(), [&](const Field& f) { return f.name == *args[i].keyword; });
    if (it == cls.fields.end())
      throw Error(args[i].value.loc, cls.name + "() got an unexpected keyword argument '" + *args[i].keyword + "'");
    copy->values[static_cast<std::size_t>(it - cls.fields.begin())] = args[i].value;
  }
  return Value{std::shared_ptr<const Object>(std::move(copy)), false, at.loc};
}

const Value* field_value(const Object& obj, std::string_view name) {
  for (std::size_t i = 0; i < obj.cls->fields.size(); ++i)
    if (obj.cls->fields[i].name == name) return &obj.values[i];
  return nullptr;
}

bool objects_equal(const Object& a, const Object& b, const std::function<bool(const Value&, const Value&)>& equal) {
  if (a.cls != b.cls) return false;
  for (std::size_t i = 0; i < a.values.size(); ++i)
    if (!equal(a.values[i], b.values[i])) return false;
  return true;
}

}  // namespace mmacheck::python
