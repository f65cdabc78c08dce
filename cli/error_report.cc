#include "cli/error_report.h"

#include "cli/json_shape.h"

#include <filesystem>
#include <fstream>

namespace mmacheck::cli {

namespace {

std::string excerpt_of_line(std::string_view line, int col) {
  std::string out = "  " + std::string(line) + "\n  ";
  // Tabs stay tabs so that the caret lines up whatever the tab width.
  for (int i = 1; i < col && static_cast<std::size_t>(i - 1) < line.size(); ++i)
    out += line[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
  return out + "^\n";
}

// Control bytes would drive the terminal: show them as the layout parser does.
bool is_plain_text(std::string_view line) {
  for (const char c : line)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) return false;
  return true;
}

}  // namespace

std::string source_excerpt(std::string_view text, const SourceLoc& loc) {
  if (!loc.known() || loc.col <= 0) return "";
  std::size_t begin = 0;
  for (int i = 1; i < loc.line; ++i) {
    begin = text.find('\n', begin);
    if (begin == std::string_view::npos) return "";
    ++begin;
  }
  std::string_view line = text.substr(begin, text.find('\n', begin) - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > 400 || !is_plain_text(line)) return "";
  return excerpt_of_line(line, loc.col);
}

std::string file_excerpt(const SourceLoc& loc) {
  if (!loc.known() || loc.col <= 0 || loc.file.empty() || loc.file == "-") return "";
  std::error_code ec;
  const std::filesystem::path path(loc.file);
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > (64u << 20) || ec)
    return "";
  std::ifstream in(path, std::ios::binary);
  std::string line;
  for (int i = 0; i < loc.line; ++i)
    if (!std::getline(in, line)) return "";
  SourceLoc first_line = loc;
  first_line.line = 1;
  return source_excerpt(line, first_line);
}

Json error_json(const Error& e) {
  const SourceLoc& loc = e.loc();
  return {{"file", loc.file.empty() ? Json(nullptr) : Json(loc.file)},
          {"line", loc.line > 0 ? Json(loc.line) : Json(nullptr)},
          {"column", loc.col > 0 ? Json(loc.col) : Json(nullptr)},
          {"message", e.message()}};
}

void report_error(std::ostream& err, std::ostream& out, const Error& e, bool json, std::string_view source_text) {
  err << e.what() << "\n" << (source_text.empty() ? file_excerpt(e.loc()) : source_excerpt(source_text, e.loc()));
  if (json) out << json_line(bad_input_json("", e)) << "\n";
}

}  // namespace mmacheck::cli
