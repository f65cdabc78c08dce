// JsonWriter — builds one JSON text, for the commands' --json outputs.
//
// Commas and nesting are tracked for the caller; values are written in the
// order given (objects keep insertion order).  Output is one line with ", "
// and ": " separators.  Strings are escaped (quotes, backslash, control
// characters as \u00XX); bytes that are not valid UTF-8 become U+FFFD, so the
// output is always valid JSON.  Non-finite doubles are written as null;
// finite ones in the shortest form that reads back exactly.
//
//     JsonWriter w;
//     w.begin_object().key("span").begin_object().key("laneid").value(32).end_object();
//     w.key("ok").value(true).end_object();
//     w.str() == R"({"span": {"laneid": 32}, "ok": true})"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mmacheck {

// `text` as a JSON string literal, quotes included.
std::string json_quote(std::string_view text);

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The key of the next member; only inside an object.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();

  // The text written so far (complete once every begin_ has its end_).
  const std::string& str() const { return out_; }

 private:
  // Writes the separator a new element needs at the current position.
  void element();

  std::string out_;
  // One entry per open container: whether it already holds an element.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace mmacheck
