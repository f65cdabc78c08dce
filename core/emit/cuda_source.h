// emit_cuda — a Nest as CUDA source: one `__device__ __forceinline__`
// function with inline PTX, the code `mmacheck emit --cuda` prints and the
// GPU backend (cuda/) compiles.
//
// The emitted ABI.  Every operand buffer is a per-thread array of words, the
// thread's storage of that buffer packed as the mma registers hold it:
//
//     word type   `unsigned` (32 bits), or `unsigned long long` for f64
//     slot s      word s / per_word, bits [(s % per_word) * elem_bits, +elem_bits)
//                 (per_word = word bits / element bits: 2 for f16/bf16, 4 for
//                 s8/u8/fp8, 1 for f32/tf32/s32/f64; tf32 is a full f32 pattern)
//     length      ceil(slots / per_word), slots = the nest operand's `slots`
//
//     __device__ __forceinline__ void mmacheck_nest(
//         unsigned (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
//         const unsigned (&c)[4]);
//
// `d` is read and written: the nest initialises D's accumulator slots of each
// tile (zero, or copied from `c` when beta = 1), accumulates in place with one
// `mma.sync` per MmaStmt (its C operand is D's registers, as TVM emits it),
// and leaves every other slot of `d` as it was.  `c` is read only by the
// initialisation copies and may be the same array as `d` (gemm(D, A, B, D)):
// each copy reads its sources before writing.  Array indices are literals, so
// the arrays stay in registers.
//
// For the seed nest (Init{0,0,{0,1,2,3},{}}, Mma{0,0,0,d{0,1,2,3},a{0,1,2,3},
// b{0,1},c{0,1,2,3}}) the body is four `d[i] = 0u;` and one
//     asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
//                  "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
//                  : "=r"(d[0]), ... : "r"(a[0]), ..., "r"(d[0]), ...);
#pragma once

#include <string>
#include <string_view>

#include "core/gemm/nest.h"

namespace mmacheck {

// How one operand buffer is passed (see above).
struct CudaBufferAbi {
  int elem_bits = 0;  // bits of one element in its word
  int word_bits = 0;  // 32, or 64 for f64
  int words = 0;      // array length

  int per_word() const { return word_bits / elem_bits; }
  std::string_view word_type() const { return word_bits == 64 ? "unsigned long long" : "unsigned"; }
};

CudaBufferAbi cuda_buffer_abi(const NestOperand& operand);

struct EmitCudaOptions {
  std::string function_name = "mmacheck_nest";
};

// The function's source, preceded by a comment naming the instruction and
// the ABI sizes.  Throws Error when the nest is malformed (no instruction, a
// register count that is not the instruction's, an index outside its array).
std::string emit_cuda(const Nest& nest, const EmitCudaOptions& options = {});

}  // namespace mmacheck
