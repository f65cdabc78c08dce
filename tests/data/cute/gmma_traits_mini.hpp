// A trait header written for mmacheck's tests in the form of CUTLASS's
// include/cute/atom/mma_traits_sm90_gmma.hpp: alias templates of integer
// parameters, GMMA::-qualified layouts, wgmma atoms specialized over the
// layout-neutral GMMA::Major / GMMA::ScaleIn parameters, a UMMA atom
// templated on M and N.  Not CUTLASS code (tests/data/cute/README.md).
#pragma once

#include <cute/atom/mma_traits.hpp>

namespace cute {
namespace SM90::GMMA {

// (T128,V) -> (M64,N): thread (t, g, w) = lane % 4, lane / 4, warp.
template <int N>
using CLayout_64xN   = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,_2,Int<N/8>>>,
                              Stride<Stride<_128,_1,_16>,Stride<_64,_8,   _512>>>;

using CLayout_64x8   = CLayout_64xN<  8>;
using CLayout_64x24  = CLayout_64xN< 24>;
using CLayout_64x64  = CLayout_64xN< 64>;
using CLayout_64x128 = CLayout_64xN<128>;
using CLayout_64x256 = CLayout_64xN<256>;

// A from registers: 32-, 16- and 8-bit elements.
using ALayout_64x8   = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,  _2>>,
                              Stride<Stride< _64,_1,_16>,Stride< _8,_256>>>;
using ALayout_64x16  = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,_2,  _2>>,
                              Stride<Stride<_128,_1,_16>,Stride<_64,_8,_512>>>;
using ALayout_64x32  = Layout<Shape <Shape <  _4,_8, _4>,Shape < _4,_2,   _2>>,
                              Stride<Stride<_256,_1,_16>,Stride<_64,_8,_1024>>>;

// A or B in shared memory: every thread sees the whole M x K tile.
template <int M, int K>
using ABLayout       = Layout<Shape <_128,Shape <Int<M>,Int<K>>>,
                              Stride<  _0,Stride<    _1,Int<M>>>>;

}  // namespace SM90::GMMA

template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA = GMMA::ScaleIn::One,
          GMMA::ScaleIn scaleB = GMMA::ScaleIn::One>
using SM90_64x8x16_F16F16F16_SS = SM90::GMMA::MMA_64x8x16_F16F16F16_SS<tnspA, tnspB, scaleA, scaleB>;

template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x8x16_F16F16F16_SS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_8,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ABLayout< 64, 16>;
  using BLayout = GMMA::ABLayout<  8, 16>;
  using CLayout = GMMA::CLayout_64x8;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x8x16_F16F16F16_RS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_8,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ALayout_64x16;
  using BLayout = GMMA::ABLayout<  8, 16>;
  using CLayout = GMMA::CLayout_64x8;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x128x16_F32F16F16_SS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_128,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ABLayout< 64, 16>;
  using BLayout = GMMA::ABLayout<128, 16>;
  using CLayout = GMMA::CLayout_64x128;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x256x16_F32BF16BF16_RS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = float;
  using ValTypeA = bfloat16_t;
  using ValTypeB = bfloat16_t;
  using ValTypeC = float;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_256,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ALayout_64x16;
  using BLayout = GMMA::ABLayout<256, 16>;
  using CLayout = GMMA::CLayout_64x256;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// tf32: K-major only, so only the ScaleIn parameters.
template <GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x64x8_F32TF32TF32_RS_TN<scaleA, scaleB>>
{
  using ValTypeD = float;
  using ValTypeA = tfloat32_t;
  using ValTypeB = tfloat32_t;
  using ValTypeC = float;
  using FrgTypeB = GMMA::smem_desc<GMMA::Major::K>;
  using Shape_MNK = Shape<_64,_64,_8>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ALayout_64x8;
  using BLayout = GMMA::ABLayout< 64,  8>;
  using CLayout = GMMA::CLayout_64x64;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

template <GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x128x32_F16E4M3E5M2_RS_TN<scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = float_e4m3_t;
  using ValTypeB = float_e5m2_t;
  using ValTypeC = half_t;
  using FrgTypeB = GMMA::smem_desc<GMMA::Major::K>;
  using Shape_MNK = Shape<_64,_128,_32>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ALayout_64x32;
  using BLayout = GMMA::ABLayout<128, 32>;
  using CLayout = GMMA::CLayout_64x128;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// Integer atoms are full specializations.
template <>
struct MMA_Traits<SM90_64x24x32_S32S8U8_SS_TN_SATURATE>
{
  using ValTypeD = int32_t;
  using ValTypeA = int8_t;
  using ValTypeB = uint8_t;
  using ValTypeC = int32_t;
  using FrgTypeA = GMMA::smem_desc<GMMA::Major::K>;
  using FrgTypeB = GMMA::smem_desc<GMMA::Major::K>;
  using Shape_MNK = Shape<_64,_24,_32>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ABLayout< 64, 32>;
  using BLayout = GMMA::ABLayout< 24, 32>;
  using CLayout = GMMA::CLayout_64x24;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// UMMA: templated on the element types and M, N; not read.
template <class a_type, class b_type, class c_type, int M, int N, UMMA::Major a_major, UMMA::Major b_major>
struct MMA_Traits<SM100_MMA_F16BF16_SS<a_type, b_type, c_type, M, N, a_major, b_major>>
{
  using ValTypeD = c_type;
  static constexpr int K = 256 / cute::sizeof_bits<a_type>::value;
  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_1>;
  using CLayout = Layout<Shape <_1,Shape <Int<M>,Int<N>>>, Stride<_0,Stride<_1,Int<M>>>>;
};

}  // namespace cute
