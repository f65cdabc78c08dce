// Planted mistakes in GMMA atoms, each in one member of an otherwise correct
// atom (tests/data/cute/gmma_traits_mini.hpp has them right); every atom
// here must be refuted or ill_formed, never proved.  Not CUTLASS code.
#pragma once

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

// C: the two value strides 64 and 8 swapped (columns and rows of a pair exchanged).
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
  using CLayout = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,_2,_1>>,
                         Stride<Stride<_128,_1,_16>,Stride< _8,_64,_512>>>;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// RS A: the last value stride one row of K too far (576 for 512).
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x16x16_F32F16F16_RS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_16,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,_2,  _2>>,
                         Stride<Stride<_128,_1,_16>,Stride<_64,_8,_576>>>;
  using BLayout = GMMA::ABLayout< 16, 16>;
  using CLayout = GMMA::CLayout_64xN<16>;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// Shape_MNK says N = 16, the name 8.
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x8x16_F32F16F16_SS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_16,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ABLayout< 64, 16>;
  using BLayout = GMMA::ABLayout<  8, 16>;
  using CLayout = GMMA::CLayout_64x8;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// The wrong N: the C layout of 64x64 under a 64x128 name.
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
  using CLayout = GMMA::CLayout_64x64;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// SS B: the smem tile of N = 32 under an N = 64 name.
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x64x16_F16F16F16_SS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_64,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ABLayout< 64, 16>;
  using BLayout = GMMA::ABLayout< 32, 16>;
  using CLayout = GMMA::CLayout_64x64;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// SS A: a thread stride of 1 where every thread must see the same tile (0).
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x32x16_F16F16F16_SS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_32,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = Layout<Shape<_128,Shape<_64,_16>>, Stride<_1,Stride<_1,_64>>>;
  using BLayout = GMMA::ABLayout< 32, 16>;
  using CLayout = GMMA::CLayout_64xN<32>;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// ThrID of one warp: wgmma runs on a warpgroup.
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x16x16_F16F16F16_RS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_16,_16>;
  using ThrID   = Layout<_32>;
  using ALayout = GMMA::ALayout_64x16;
  using BLayout = GMMA::ABLayout< 16, 16>;
  using CLayout = GMMA::CLayout_64xN<16>;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

// FrgTypeA says A is a shared-memory descriptor, the name says RS.
template <GMMA::Major tnspA, GMMA::Major tnspB, GMMA::ScaleIn scaleA, GMMA::ScaleIn scaleB>
struct MMA_Traits<SM90_64x24x16_F16F16F16_RS<tnspA, tnspB, scaleA, scaleB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;
  using FrgTypeA = GMMA::smem_desc<tnspA>;
  using FrgTypeB = GMMA::smem_desc<tnspB>;
  using Shape_MNK = Shape<_64,_24,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = GMMA::ALayout_64x16;
  using BLayout = GMMA::ABLayout< 24, 16>;
  using CLayout = GMMA::CLayout_64xN<24>;
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;
};

}  // namespace cute
