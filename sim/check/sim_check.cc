#include "sim/check/sim_check.h"

#include <algorithm>

#include "sim/check/direct_eval.h"
#include "sim/check/operand_index.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

SimCheck::SimCheck(const Program& program, const Nest& nest, const ArchParams& arch)
    : machine_(program, nest, arch), geometry_(gemm_geometry(program)), specs_(input_specs(program)) {}

GemmInputs SimCheck::random_case(int index, std::uint64_t seed, InputSet inputs) const {
  return random_gemm_inputs(specs_.a, specs_.b, specs_.c, case_distribution(index, inputs), seed, index);
}

namespace {

// What the program's loads read: a load whose statement names another
// operand's tensor reads that operand's matrix at the same [row, col] (the
// load tables index the loading buffer's shape; what lies outside the other
// matrix reads as zero), one naming the output reads it before anything is
// stored: zeros.  The reference keeps the gemm's own inputs, so such a
// program fails here.
GemmInputs as_loaded(const GemmInputs& in, const Staging& st) {
  GemmInputs out = in;
  const auto pick = [&](Matrix& m, LoadSource from) {
    const Matrix* src = from == LoadSource::a   ? &in.a
                        : from == LoadSource::b ? &in.b
                        : from == LoadSource::c ? &in.c
                                                : nullptr;
    if (src && src->dtype != m.dtype)
      throw Error("an operand is staged from the tensor of another operand of another type (" +
                  std::string(dtype_info(src->dtype).ptx) + " into " + std::string(dtype_info(m.dtype).ptx) +
                  "): sim does not convert it; `mmacheck prove` runs it as written");
    if (src)
      for (std::int64_t r = 0; r < m.rows; ++r)
        for (std::int64_t c = 0; c < m.cols; ++c)
          m.bits[static_cast<std::size_t>(r * m.cols + c)] =
              r < src->rows && c < src->cols ? src->bits[static_cast<std::size_t>(r * src->cols + c)] : 0;
    if (from == LoadSource::output) std::fill(m.bits.begin(), m.bits.end(), 0);
  };
  pick(out.a, st.a_from);
  pick(out.b, st.b_from);
  pick(out.c, st.c_from);
  return out;
}

}  // namespace

std::vector<ElementCheck> SimCheck::failures(const GemmInputs& inputs) {
  const MmaInst& inst = *machine_.nest().inst;
  const std::vector<std::uint64_t> got = machine_.run(as_loaded(inputs, machine_.staging()));
  const Matrix direct = direct_eval(geometry_, inst, machine_.arch(), inputs);
  const Reference ref = eigen_reference(geometry_, inst, machine_.arch(), inputs);
  const OperandPlace& d = geometry_.d;
  const OperandIndex at_d(d);
  std::vector<ElementCheck> out;
  for (std::int64_t i = 0; i < geometry_.m; ++i)
    for (std::int64_t j = 0; j < geometry_.n; ++j) {
      const std::uint64_t bits = got[static_cast<std::size_t>(at_d(i, j))];
      const Expectation& expect = ref.at(i, j);
      const bool bit_exact = bits == direct.at(i, j), within = accepts(expect, d.dtype(), bits);
      if (bit_exact && within) continue;
      const Shape c = d.to_buffer(i, j);
      out.push_back({c[0], c[1], bits, direct.at(i, j), expect, bit_exact, within});
    }
  return out;
}

}  // namespace mmacheck::sim
