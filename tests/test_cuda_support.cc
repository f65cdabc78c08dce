#include "tests/test_cuda_support.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/emit/cuda_source.h"
#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "sim/check/input_specs.h"
#include "sim/numerics/float_format.h"
#include "tests/support.h"

namespace mmacheck::test {

namespace fs = std::filesystem;

const MmaInst& inst(const std::string& ptx) {
  const MmaInst* i = find_mma_inst(ptx);
  if (!i) throw Error("test: no instruction " + ptx);
  return *i;
}

Nest seed_nest() {
  Nest n;
  n.inst = &inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  n.d = {"D", DType::f32, 4};
  n.a = {"A", DType::f16, 8};
  n.b = {"B", DType::f16, 4};
  n.c = {"D", DType::f32, 4};
  n.tiles_m = n.tiles_n = n.tiles_k = 1;
  n.stmts = {InitStmt{0, 0, {0, 1, 2, 3}, {}}, MmaStmt{0, 0, 0, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1}, {0, 1, 2, 3}}};
  return n;
}

Nest tiled_nest(const MmaInst& instr, int tm, int tn, int tk, bool beta) {
  const Frame& fa = instr.frame(Operand::A);
  const Frame& fb = instr.frame(Operand::B);
  const Frame& fc = instr.frame(Operand::C);
  Nest n;
  n.inst = &instr;
  n.d = {"D", instr.d, tm * tn * fc.elems()};
  n.a = {"A", instr.a, tm * tk * fa.elems()};
  n.b = {"B", instr.b, tk * tn * fb.elems()};
  n.c = beta ? NestOperand{"C", instr.c, tm * tn * fc.elems()} : n.d;
  n.tiles_m = tm;
  n.tiles_n = tn;
  n.tiles_k = tk;
  n.use_c = beta;
  const auto regs = [](int base_slot, const Frame& f) {
    std::vector<int> r;
    for (int i = 0; i < f.regs; ++i) r.push_back(base_slot / f.per_reg() + i);
    return r;
  };
  for (int m = 0; m < tm; ++m)
    for (int nn = 0; nn < tn; ++nn) {
      const int d_base = (m * tn + nn) * fc.elems();
      const int c_base = (tm * tn - 1 - (m * tn + nn)) * fc.elems();
      InitStmt init{m, nn, {}, {}};
      for (int e = 0; e < fc.elems(); ++e) {
        init.d_slots.push_back(d_base + e);
        if (beta) init.c_slots.push_back(c_base + e);
      }
      n.stmts.emplace_back(init);
      for (int k = 0; k < tk; ++k)
        n.stmts.emplace_back(MmaStmt{m, nn, k, regs(d_base, fc), regs((m * tk + k) * fa.elems(), fa),
                                     regs((k * tn + nn) * fb.elems(), fb), regs(d_base, fc)});
    }
  return n;
}

std::string nvcc_wrapper(const Nest& nest, const std::string& name) {
  const CudaBufferAbi d = cuda_buffer_abi(nest.d), a = cuda_buffer_abi(nest.a), b = cuda_buffer_abi(nest.b),
                      c = cuda_buffer_abi(nest.c);
  std::string s = emit_cuda(nest, {.function_name = name});
  const auto load = [](const CudaBufferAbi& abi, const char* array, const char* global) {
    return "  " + std::string(abi.word_type()) + " " + array + "[" + std::to_string(abi.words) + "];\n" +
           "  for (int i = 0; i < " + std::to_string(abi.words) + "; ++i) " + array + "[i] = " + global +
           "[i * 32 + threadIdx.x];\n";
  };
  s += "extern \"C\" __global__ void k_" + name + "(" + std::string(d.word_type()) + "* dg, const " +
       std::string(a.word_type()) + "* ag, const " + std::string(b.word_type()) + "* bg, const " +
       std::string(c.word_type()) + "* cg) {\n";
  s += load(d, "d", "dg") + load(a, "a", "ag") + load(b, "b", "bg") + load(c, "c", "cg");
  s += "  " + name + "(d, a, b, c);\n";
  s += "  for (int i = 0; i < " + std::to_string(d.words) + "; ++i) dg[i * 32 + threadIdx.x] = d[i];\n}\n";
  return s;
}

bool have_nvcc() { return ::access(MMACHECK_NVCC, X_OK) == 0; }

CompileResult nvcc_compile(const std::string& source, int sm) {
  static int counter = 0;  // distinct scratch names within this process
  const fs::path dir =
      fs::temp_directory_path() / ("mmacheck-nvcc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  { std::ofstream(dir / "t.cu") << source; }
  const RunResult r = run_program(
      {MMACHECK_NVCC, "-arch=sm_" + std::to_string(sm), "-c", (dir / "t.cu").string(), "-o", (dir / "t.o").string()});
  fs::remove_all(dir);
  return {r.status == 0, r.out + r.err};
}

std::vector<Example> examples() {
  std::vector<Example> out;
  const fs::path dir = source_path("examples");
  if (!fs::is_directory(dir)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".txt" || e.path().extension() == ".py")
      out.push_back({e.path().string(), InstSet::tvm});
  std::sort(out.begin(), out.end(), [](const Example& x, const Example& y) { return x.path < y.path; });
  for (Example& ex : out) {
    std::ifstream in(ex.path);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("#", 0) == 0) {
        if (line.find("--inst-set extended") != std::string::npos) ex.set = InstSet::extended;
        break;
      }
  }
  return out;
}

std::vector<DispatchedExample> dispatched_examples() {
  std::vector<DispatchedExample> out;
  for (const Example& ex : examples()) {
    try {
      Program program = load_program(ex.path);
      Plan plan = dispatch(program, ex.set);
      if (plan.ok) out.push_back({ex.path, ex.set, std::move(program), std::move(plan)});
    } catch (const Error&) {
      // an example of bad input
    }
  }
  return out;
}

const char* const kSeedProgram = R"(D_FRAG    = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
B_FRAG_K8 = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)]
A_FRAG    = A_FRAG_K8.tile_to([16, 16], [16, 8])
B_FRAG    = B_FRAG_K8.tile_to([16, 8], [8, 8])
A = buffer((16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8),  "float16", "local", B_FRAG)
D = buffer((16, 8),  "float32", "local", D_FRAG)
scope warp
gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
)";

namespace {

std::uint64_t mask(DType t) {
  return dtype_bits(t) >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dtype_bits(t)) - 1;
}

std::uint64_t encode(DType t, std::int64_t v) {
  if (!dtype_info(t).is_float) return static_cast<std::uint64_t>(v) & mask(t);
  return sim::round_to_format(sim::float_format(t), v < 0, static_cast<std::uint64_t>(v < 0 ? -v : v), 0,
                              sim::Rounding::nearest_even);
}

double decode(DType t, std::uint64_t bits) {
  if (!dtype_info(t).is_float) {
    const int w = dtype_bits(t);
    if (!dtype_info(t).is_signed) return static_cast<double>(bits & mask(t));  // u8, u4, b1
    const std::int64_t shifted = static_cast<std::int64_t>(bits << (64 - w)) >> (64 - w);
    return static_cast<double>(shifted);
  }
  const sim::FpValue v = sim::decode(sim::float_format(t), bits);
  const double mag = std::ldexp(static_cast<double>(v.sig), v.exp - v.frac);
  return v.neg ? -mag : mag;
}

sim::Matrix integer_matrix(const sim::MatrixSpec& spec, std::mt19937_64& rng) {
  sim::Matrix m{spec.rows, spec.cols, spec.dtype, {}};
  const bool is_unsigned = !dtype_info(spec.dtype).is_float && !dtype_info(spec.dtype).is_signed;
  std::uniform_int_distribution<int> pick(is_unsigned ? 0 : -3, spec.dtype == DType::b1 ? 1 : 3);
  for (std::int64_t i = 0; i < spec.rows * spec.cols; ++i) m.bits.push_back(encode(spec.dtype, pick(rng)));
  return m;
}

std::pair<std::int64_t, std::int64_t> origin(const OperandRef& ref) {
  return ref.region ? std::pair{(*ref.region)[0].first, (*ref.region)[1].first}
                    : std::pair{std::int64_t{0}, std::int64_t{0}};
}

}  // namespace

sim::GemmInputs integer_inputs(const Program& program, std::uint64_t seed) {
  const sim::InputSpecs specs = sim::input_specs(program);
  std::mt19937_64 rng(seed);
  sim::GemmInputs in;
  in.a = integer_matrix(specs.a, rng);
  in.b = integer_matrix(specs.b, rng);
  in.c = integer_matrix(specs.c, rng);
  return in;
}

std::vector<std::uint64_t> exact_gemm(const Program& program, const sim::GemmInputs& in) {
  const GemmCall& call = *program.gemm;
  const BufferDecl& d = program.buffer(call.d.buffer, call.d.loc);
  std::vector<std::uint64_t> out =
      call.c.buffer == call.d.buffer ? in.c.bits : std::vector<std::uint64_t>(d.shape[0] * d.shape[1], 0);
  const auto [dr, dc] = origin(call.d);
  const auto [ar, ac] = origin(call.a);
  const auto [br, bc] = origin(call.b);
  const auto [cr, cc] = origin(call.c);
  const std::int64_t M = call.d.region ? (*call.d.region)[0].second - dr : d.shape[0];
  const std::int64_t N = call.d.region ? (*call.d.region)[1].second - dc : d.shape[1];
  const std::int64_t a_rows = call.a.region ? (*call.a.region)[0].second - ar : in.a.rows;
  const std::int64_t a_cols = call.a.region ? (*call.a.region)[1].second - ac : in.a.cols;
  const std::int64_t K = call.transpose_a ? a_rows : a_cols;
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      double sum = call.beta == 1.0 ? decode(in.c.dtype, in.c.at(cr + m, cc + n)) : 0.0;
      for (std::int64_t k = 0; k < K; ++k) {
        const double a = decode(in.a.dtype, call.transpose_a ? in.a.at(ar + k, ac + m) : in.a.at(ar + m, ac + k));
        const double b = decode(in.b.dtype, call.transpose_b ? in.b.at(br + n, bc + k) : in.b.at(br + k, bc + n));
        sum += a * b;
      }
      out[(dr + m) * d.shape[1] + dc + n] = encode(d.dtype, static_cast<std::int64_t>(sum));
    }
  return out;
}

sim::GemmInputs integer_inputs(const MmaInst& instr, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  sim::GemmInputs in;
  in.a = integer_matrix({instr.m, instr.k, instr.a, 1}, rng);
  in.b = integer_matrix({instr.k, instr.n, instr.b, 0}, rng);
  in.c = integer_matrix({instr.m, instr.n, instr.c, -1}, rng);
  return in;
}

std::vector<std::uint64_t> exact_mma(const MmaInst& instr, const sim::GemmInputs& in) {
  std::vector<std::uint64_t> d;
  for (int m = 0; m < instr.m; ++m)
    for (int n = 0; n < instr.n; ++n) {
      double sum = decode(instr.c, in.c.at(m, n));
      for (int k = 0; k < instr.k; ++k) {
        const double a = decode(instr.a, in.a.at(m, k)), b = decode(instr.b, in.b.at(k, n));
        sum += instr.bop == BitOp::xor_popc ? a + b - 2 * a * b : a * b;  // b1: popc(a AND b) or popc(a XOR b)
      }
      d.push_back(encode(instr.d, static_cast<std::int64_t>(sum)));
    }
  return d;
}

Program layouts_only(Program program) {
  program.stages.clear();
  program.stores.clear();
  program.copies.clear();
  program.tile_copies.clear();
  program.fills.clear();
  return program;
}

}  // namespace mmacheck::test
