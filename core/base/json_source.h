// JsonSource — a JSON text read strictly, with the position of every value.
//
// The readers of JSON input files (`mmacheck triton`) need more than
// parse_json(): an error about a value must name its line and column, a key
// given twice in one object is an error (nlohmann keeps the last one
// silently), and nesting is bounded so that no later walk over the value
// can recurse without limit.  Positions are kept per JSON pointer:
//
//     JsonSource src(R"({"a": [1,
//       2]})", "f.json");
//     src.value()["a"][1] == 2;  src.at("/a/1") == SourceLoc{"f.json", 2, 3}
//
// Reading is one SAX pass (positions, duplicates, depth) and one DOM pass,
// both linear in the text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/base/error.h"
#include "core/base/json.h"

namespace mmacheck {

class JsonSource {
 public:
  // Throws Error (FILE:LINE:COL) for malformed JSON, a duplicated key or
  // nesting deeper than `max_depth` arrays and objects.
  JsonSource(std::string_view text, std::string file, int max_depth = 32);

  const Json& value() const { return value_; }
  const std::string& file() const { return file_; }
  // Where the value at JSON pointer `pointer` ("/operands/2/layout") starts;
  // the nearest enclosing value's position when it has none recorded.
  SourceLoc at(std::string pointer) const;
  // A pointer one step below `parent`: child("/a", "b~c") == "/a/b~0c".
  // Where, in the file, the character at (line, col) of the decoded string
  // value at `pointer` was written (escapes such as \n and \u00e9 undone).
  SourceLoc in_string(const std::string& pointer, int line, int col) const;
  static std::string child(const std::string& parent, std::string_view key);
  static std::string child(const std::string& parent, std::size_t index);

  // Where a value starts (the Locator of json_source.cc records them).
  struct Position {
    int line, col;
    std::size_t offset;
  };

 private:
  Json value_;
  std::string file_;
  std::string text_;
  std::unordered_map<std::string, Position> positions_;
};

}  // namespace mmacheck
