// Evaluates a layout expression through the installed core library.
#include <iostream>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"
#include "core/program/layout_parser.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  try {
    const mmacheck::LayoutValue value = mmacheck::parse_layout(argv[1], "<arg>");
    const mmacheck::TileLayout& layout = mmacheck::layout_of(value);
    std::cout << layout.str() << " laneid span " << layout.span(mmacheck::Axis::laneid()) << "\n";
  } catch (const mmacheck::Error& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  return 0;
}
