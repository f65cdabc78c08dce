// A trait header written for mmacheck's tests, in the form of CUTLASS's
// include/cute/atom/mma_traits_sm80.hpp (aliases in an anonymous namespace,
// specializations that inherit, one- and two-line layouts).  Not CUTLASS code.
#pragma once

#include <cute/atom/mma_traits.hpp>
#include <cute/atom/mma_traits_sm80.hpp>   /* gives SM80_8x8_Row to the atoms below */

namespace cute {
namespace {
// (T32,V4) -> (M16,N8)
using Mini_16x8_Row = Layout<Shape <Shape < _4,_8>,Shape < _2,_2>>,
                             Stride<Stride<_32,_1>,Stride<_16,_8>>>;
using Mini_Tag = int;  // not a layout: ignored
}

template <>
struct MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using Shape_MNK = Shape<_16,_8,_8>;
  using ThrID   = Layout<_32>;
  using ALayout = Mini_16x8_Row;
  using BLayout = Layout<Shape <Shape < _4,_8>,_2>,
                         Stride<Stride<_16,_1>,_8>>;
  using CLayout = Mini_16x8_Row;
};

// Inherits every layout.
template <>
struct MMA_Traits<SM80_16x8x8_F32F16F16F32_TN>
     : MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>
{
  using ValTypeD = float;
  using ValTypeC = float;
};

// B with stride 32 where PTX needs 64 (the shape of CUTLASS PR #3140's bug).
template <>
struct MMA_Traits<SM80_16x8x32_S32S4S4S32_TN> {
  using ValTypeD = int32_t;
  using ValTypeA = cutlass::int4b_t;
  using ValTypeB = cutlass::int4b_t;
  using ValTypeC = int32_t;
  using Shape_MNK = Shape<_16, _8, _32>;
  using ThrID = Layout<_32>;
  using ALayout = Layout<Shape <Shape <  _4, _8>, Shape < _8, _2>>,
                         Stride<Stride<_128, _1>, Stride<_16, _8>>>;
  using BLayout = Layout<Shape <Shape < _4, _8>, Shape <_8>>,
                         Stride<Stride<_32, _1>, Stride<_8>>>;
  using CLayout = Mini_16x8_Row;
};

template <>
struct MMA_Traits<SM80_16x8x32_S32U4U4S32_TN_SATURATE>
     : MMA_Traits<SM80_16x8x32_S32S4S4S32_TN> {
  using ValTypeA = uint4b_t;
  using ValTypeB = uint4b_t;
};

// 8x8x16 s8 with the alias from the included sm80 header.
template <>
struct MMA_Traits<SM80_8x8x16_S32S8S8S32_TN>
{
  using ValTypeD = int32_t;
  using ValTypeA = int8_t;
  using ValTypeB = int8_t;
  using ValTypeC = int32_t;
  using Shape_MNK = Shape<_8,_8,_16>;
  using ThrID   = Layout<_32>;
  using ALayout = Layout<Shape <Shape < _4,_8>,_4>, Stride<Stride<_32,_1>,_8>>;
  using BLayout = Layout<Shape <Shape < _4,_8>,_4>, Stride<Stride<_32,_1>,_8>>;
  using CLayout = SM80_8x8_Row;
};

// Shape and stride of A not congruent: ((32,2)) against ((16,8)).
template <>
struct MMA_Traits<SM80_16x8x128_S32U1U1S32_TN_XORPOPC>
{
  using ValTypeD = int32_t;
  using ValTypeA = cute::uint1b_t;
  using ValTypeB = cute::uint1b_t;
  using ValTypeC = int32_t;
  using Shape_MNK = Shape<_16,_8,_128>;
  using ThrID   = Layout<_32>;
  using ALayout = Layout<Shape<Shape<_4,_8>,Shape<_32,_2>>,
                         Stride<Stride<_512,_1>,Stride<Stride<_16,_8>>>>;
  using BLayout = Layout<Shape <Shape<_4,_8>,_32>, Stride<Stride<_256,_1>,_8>>;
  using CLayout = SM80_16x8_Row;
};

// No frame for this instruction: unchecked.
template <>
struct MMA_Traits<SM70_8x8x4_F32F16F16F32_NT>
{
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
  using Shape_MNK = Shape<_8,_8,_4>;
  using ThrID   = Layout<Shape <_4, _2>, Stride<_1,_16>>;
  using ALayout = Layout<Shape <_8,_4>, Stride<_1,_8>>;
  using BLayout = Layout<Shape <_8,_4>, Stride<_1,_8>>;
  using CLayout = Layout<Shape <_8,_8>, Stride<_1,_8>>;
};

} // namespace cute
