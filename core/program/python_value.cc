#include "core/program/python_value.h"

#include <charconv>
#include <cmath>

#include "core/program/python_class.h"

namespace mmacheck::python {

Value make_items(Items items, bool list, const SourceLoc& loc) {
  return Value{std::make_shared<const Items>(std::move(items)), list, loc};
}

std::string kind_name(const Value& value) {
  struct Visit {
    std::string operator()(const None&) const { return "None"; }
    std::string operator()(bool) const { return "a bool"; }
    std::string operator()(std::int64_t) const { return "an integer"; }
    std::string operator()(double) const { return "a float"; }
    std::string operator()(const std::string&) const { return "a string"; }
    std::string operator()(const std::shared_ptr<const Items>&) const { return list ? "a list" : "a tuple"; }
    std::string operator()(const LayoutValue&) const { return "a layout"; }
    std::string operator()(const std::shared_ptr<const Function>& f) const {
      return f->lambda ? "a lambda" : "def " + f->name;
    }
    std::string operator()(const std::shared_ptr<const KernelSite>& k) const { return "the kernel " + k->name; }
    std::string operator()(const std::shared_ptr<const Class>& c) const { return "the class " + c->name; }
    std::string operator()(const std::shared_ptr<const Object>& o) const { return "a " + o->cls->name + " instance"; }
    std::string operator()(const Opaque& o) const { return "a name " + o.why; }
    bool list;
  };
  return std::visit(Visit{value.list}, value.v);
}

bool truth(const Value& value) {
  if (value.get<None>()) return false;
  if (const bool* b = value.get<bool>()) return *b;
  if (const auto* i = value.get<std::int64_t>()) return *i != 0;
  if (const double* d = value.get<double>()) return *d != 0;
  if (const auto* s = value.get<std::string>()) return !s->empty();
  if (const Items* items = value.items()) return !items->empty();
  if (const Opaque* o = value.get<Opaque>()) throw Error(value.loc, "the value of a name " + o->why + " is not known");
  if (const auto* obj = value.get<std::shared_ptr<const Object>>())
    if ((*obj)->cls->methods.contains("__bool__") || (*obj)->cls->methods.contains("__len__"))
      throw Error(value.loc, "mmacheck does not call " + (*obj)->cls->name + "'s __bool__ or __len__ for its truth");
  return true;  // a layout, a def, a kernel, a class, a dataclass instance (no __bool__ or __len__ of its own)
}

namespace {

// repr(float): the shortest round trip, in fixed notation from 1e-4 up to
// 1e16 (with ".0" when integral), in scientific notation outside.
std::string float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  const double mag = std::fabs(d);
  const bool fixed = mag == 0 || (mag >= 1e-4 && mag < 1e16);
  const auto r =
      std::to_chars(buf, buf + sizeof buf, d, fixed ? std::chars_format::fixed : std::chars_format::scientific);
  std::string out(buf, r.ptr);
  if (fixed && out.find('.') == std::string::npos) out += ".0";
  if (!fixed) {  // C++ writes 1e-05 and 1e+16 as Python does; Python drops a lone ".0" mantissa the same way
    const std::size_t e = out.find('e');
    if (e != std::string::npos && out.compare(e - 2, 2, ".0") == 0) out.erase(e - 2, 2);
  }
  return out;
}

}  // namespace

std::optional<std::string> pytest_id(const Value& value) {
  if (value.get<None>()) return "None";
  if (const bool* b = value.get<bool>()) return *b ? "True" : "False";
  if (const auto* i = value.get<std::int64_t>()) return std::to_string(*i);
  if (const double* d = value.get<double>()) return float_repr(*d);
  if (const auto* s = value.get<std::string>()) return *s;
  return std::nullopt;
}

const Value* Scope::find(std::string_view name) const {
  for (const Scope* s = this; s; s = s->parent.get())
    if (const auto it = s->names.find(name); it != s->names.end()) return &it->second;
  return nullptr;
}

std::shared_ptr<const Scope> closure(const Function& f) {
  auto s = f.scope.lock();
  if (!s) throw Error(f.loc, "internal: def " + f.name + " outlived the module that defined it");
  return s;
}

std::shared_ptr<const Scope> closure(const KernelSite& k) {
  auto s = k.scope.lock();
  if (!s) throw Error(k.loc, "internal: the kernel " + k.name + " outlived the module that built it");
  return s;
}

}  // namespace mmacheck::python
