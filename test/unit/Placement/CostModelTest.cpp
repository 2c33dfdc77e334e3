//===- CostModelTest.cpp - the README's formulas, checked by hand ---------===//

#include "tessera/Placement/CostModel.h"

#include <catch2/catch.hpp>

using namespace tessera::placement;

namespace {

Node makeBlock(NodeKind kind, int64_t F, int64_t H, int64_t W) {
  Node node;
  node.kind = kind;
  node.F = F;
  node.H = H;
  node.W = W;
  return node;
}

} // namespace

TEST_CASE("a convolution's rectangle, time and memory", "[cost]") {
  // H=14 W=14 R=3 S=3 C=512 K=512 T=2 with h'=2 w'=2 c'=40 k'=8:
  //   height = 2*2*(40+1) = 164, width = 3*8 = 24,
  //   time   = ceil(14/2) ceil(14/2) ceil(512/40) ceil(512/8) * 9 / 4
  //          = 7 * 7 * 13 * 64 * 9 / 4 = 91728,
  //   memory = 13 * 64 * 9 + ceil(16/2) * ceil(16/2) * 64 = 7488 + 4096.
  ConvShape conv{14, 14, 3, 3, 512, 512, 2};
  KernelCost cost = getConvCost(conv, 2, 2, 40, 8);
  CHECK(cost.height == 164);
  CHECK(cost.width == 24);
  CHECK(cost.time == 91728);
  CHECK(cost.memory == 11584);
  CHECK(getConvWork(conv, 2, 2, 40, 8) == 91728 * 4);
}

TEST_CASE("time and memory round every quotient up", "[cost]") {
  // 7 * 7 / 2^2 = 12.25 cycles: a sample takes 13.
  ConvShape strided{7, 7, 1, 1, 1, 1, 2};
  CHECK(getConvCost(strided, 1, 1, 1, 1).time == 13);
  // H=10 W=9 R=2 S=3 C=7 K=5 T=1 with h'=3 w'=4 c'=2 k'=2:
  //   time   = ceil(10/3) ceil(9/4) ceil(7/2) ceil(5/2) * 6
  //          = 4 * 3 * 4 * 3 * 6 = 864,
  //   memory = ceil(7/2) ceil(5/2) * 6 + ceil(11/4) ceil(11/3) ceil(5/2)
  //          = 4 * 3 * 6 + 3 * 4 * 3 = 72 + 36 = 108.
  ConvShape odd{10, 9, 2, 3, 7, 5, 1};
  KernelCost cost = getConvCost(odd, 3, 4, 2, 2);
  CHECK(cost.height == 3 * 4 * 3);
  CHECK(cost.width == 6);
  CHECK(cost.time == 864);
  CHECK(cost.memory == 108);
}

TEST_CASE("blocks are the README's convolutions", "[cost]") {
  Node dblock = makeBlock(NodeKind::DBlock, 256, 56, 28);
  std::vector<ConvShape> d = getKernelConvs(dblock);
  REQUIRE(d.size() == 3);
  CHECK((d[0].H == 56 && d[0].W == 28 && d[0].R == 1 && d[0].S == 1 &&
         d[0].C == 256 && d[0].K == 64 && d[0].T == 1));
  CHECK((d[1].R == 3 && d[1].S == 3 && d[1].C == 64 && d[1].K == 64 &&
         d[1].T == 1));
  CHECK((d[2].R == 1 && d[2].C == 64 && d[2].K == 256 && d[2].T == 1));

  Node cblock = makeBlock(NodeKind::CBlock, 256, 112, 112);
  std::vector<ConvShape> c = getKernelConvs(cblock);
  REQUIRE(c.size() == 4);
  CHECK((c[0].H == 112 && c[0].R == 1 && c[0].C == 128 && c[0].K == 64 &&
         c[0].T == 1));
  CHECK((c[1].H == 112 && c[1].R == 3 && c[1].S == 3 && c[1].C == 64 &&
         c[1].K == 64 && c[1].T == 2));
  CHECK((c[2].H == 56 && c[2].W == 56 && c[2].R == 1 && c[2].C == 64 &&
         c[2].K == 256 && c[2].T == 1));
  CHECK((c[3].H == 112 && c[3].R == 1 && c[3].C == 128 && c[3].K == 256 &&
         c[3].T == 2));

  Node input;
  input.kind = NodeKind::Input;
  CHECK(getKernelConvs(input).empty());
}

TEST_CASE("a block is as tall as its tallest convolution and as wide as all",
          "[cost]") {
  // dblock f=256 h=56 w=56 with h'=4 w'=4 c'=[32 16 16] k'=[4 4 8]:
  //   (56,56,1,1,256,64,1): height 4*4*33=528, width 12,
  //     time 14*14*8*16 = 25088, memory 8*16 + 14*14*16 = 3264;
  //   (56,56,3,3,64,64,1):  height 4*4*17=272, width 12,
  //     time 14*14*4*16*9 = 112896, memory 4*16*9 + 15*15*16 = 4176;
  //   (56,56,1,1,64,256,1): height 272, width 24,
  //     time 14*14*4*32 = 25088, memory 4*32 + 14*14*32 = 6400.
  Node dblock = makeBlock(NodeKind::DBlock, 256, 56, 56);
  ExecParams params{4, 4, {{32, 4}, {16, 4}, {16, 8}}};
  CHECK(getKernelCost(dblock, params) == KernelCost{528, 48, 112896, 6400});

  Node conv;
  conv.kind = NodeKind::Conv;
  conv.conv = ConvShape{14, 14, 3, 3, 512, 512, 2};
  CHECK(getKernelCost(conv, ExecParams{2, 2, {{40, 8}}}) ==
        KernelCost{164, 24, 91728, 11584});
}

TEST_CASE("products saturate instead of overflowing", "[cost]") {
  CHECK(saturatingMultiply(0, SaturatedCost) == 0);
  CHECK(saturatingMultiply(3, 7) == 21);
  CHECK(saturatingMultiply(int64_t(1) << 40, int64_t(1) << 40) ==
        SaturatedCost);
  ConvShape huge{1000000000, 1000000000, 1000000000, 1000000000,
                 1000000000, 1000000000, 1};
  KernelCost cost = getConvCost(huge, 1, 1, 1, 1);
  CHECK(cost.time == SaturatedCost);
  CHECK(cost.memory == SaturatedCost);
  CHECK(ceilDiv(7, 2) == 4);
  CHECK(ceilDiv(8, 2) == 4);
}
