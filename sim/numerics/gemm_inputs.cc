#include "sim/numerics/gemm_inputs.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck::sim {

void check_holds(const Matrix& m, const OperandPlace& p, const char* name) {
  if (p.buffer_shape() != Shape{m.rows, m.cols} || m.bits.size() != static_cast<std::size_t>(m.rows * m.cols))
    throw Error(std::string("input ") + name + " (" + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                ") is not the buffer of the gemm's " + std::to_string(p.rows()) + " x " + std::to_string(p.cols()) +
                " operand");
}

}  // namespace mmacheck::sim
