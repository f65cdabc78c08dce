// ProgramParser — the statement-level parser behind parse_program (internal;
// use parse_program from program.h).  One instance reads one file, top to
// bottom: names must be defined before they are used, and each statement
// ends at a newline or `;`.
//
// program_parser.cc: statements, bindings, scope, stage/store.
// program_calls.cc: the calls buffer(...) and gemm(...) and their arguments.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/program/program.h"

namespace mmacheck {

class ProgramParser {
 public:
  ProgramParser(std::string_view text, const std::string& file);
  Program run();

 private:
  void statement();
  void binding();
  void scope_statement();
  void staging_statement();
  // Consumes `[T.|Tx.][warp.]NAME` when followed by '(' and returns NAME's
  // token; nullptr (consuming nothing) otherwise.
  const Token* accept_callee(std::string_view name);
  // Records a new name; throws on a reserved name or a redefinition.
  void declare(const Token& name);

  BufferDecl buffer_call(const Token& name, const Token& callee);
  void gemm_call(const Token& callee);
  // Reads `(arg, ..., key=arg)` after `callee`: for each argument,
  // `parse_one(i)` parses the value of parameter i at the cursor.  The first
  // `required` parameters must be given.
  void call_args(const Token& callee, std::initializer_list<std::string_view> params, std::size_t required,
                 const std::function<void(std::size_t)>& parse_one);
  OperandRef operand();

  TokenCursor in_;
  Program program_;
  LayoutNames names_;
  std::map<std::string, int, std::less<>> defined_at_;  // name -> line
};

}  // namespace mmacheck
