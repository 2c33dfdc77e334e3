//===- DSDBench.cpp - fmacs on the DSD engine against a plain loop --------===//
//
// Measures f32 `fmacs y, x, a, s` (y[i] = x[i] + a[i] * s, product and sum
// rounded separately) as a PE runs it: each repetition starts the operation
// from its DSRs and runs it over arrays in PE memory. The reference is the
// same computation as a plain C++ loop over std::vector<float>, which the
// compiler may vectorise. Prints both rates (element operations per host
// second) and their ratio; see docs/Performance.md ("Emulator").
//
// usage: tessera-dsd-bench [ELEMENTS] [ROUNDS]
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/DSDEngine.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace tessera;
using namespace tessera::emulator;
using pe::Opcode;
using pe::Operand;
using pe::OperandMode;
using Clock = std::chrono::steady_clock;

namespace {

/// No fabric operands in this benchmark.
class NoPorts : public DSDPorts {
public:
  std::optional<uint32_t> popWavelet(const FabricEndpoint &) override {
    return std::nullopt;
  }
  bool pushWavelet(const FabricEndpoint &, uint32_t) override { return false; }
};

/// Keeps the compiler from dropping or merging repetitions of a loop.
void clobber(void *p) { asm volatile("" : : "r"(p) : "memory"); }

/// The inputs both sides compute on: small values, so repetitions never
/// overflow, with varied roundings.
float inputX(unsigned i) { return 0.25f * static_cast<float>(i % 97) - 7.0f; }
float inputA(unsigned i) { return 1.0f / static_cast<float>(1 + i % 13); }
constexpr float Scale = 0.7f;

/// One PE's state running `fmacs dest.0, src0.0, src1.0, r4`.
struct PE {
  static constexpr uint32_t YAt = 0x1000;
  CEState state;
  PEMemory memory;
  DSRFile dsrs;
  FifoFile fifos;
  NoPorts ports;
  DSDEngine engine;
  DSDTrap trap;
  DSDOperation op;
  pe::Instruction fmacs;
  unsigned n;

  explicit PE(unsigned n) : n(n) {
    uint32_t xAt = YAt + 4 * n, aAt = xAt + 4 * n;
    for (unsigned i = 0; i < n; ++i) {
      memory.store32(xAt + 4 * i, std::bit_cast<uint32_t>(inputX(i)));
      memory.store32(aAt + 4 * i, std::bit_cast<uint32_t>(inputA(i)));
    }
    Operand dest = Operand::dsr(OperandMode::DestDSR, 0);
    Operand x = Operand::dsr(OperandMode::Src0DSR, 0);
    Operand a = Operand::dsr(OperandMode::Src1DSR, 0);
    mem1d(dest, YAt);
    mem1d(x, xAt);
    mem1d(a, aAt);
    state.r[4] = std::bit_cast<uint32_t>(Scale);
    fmacs = {Opcode::FMacSV, {dest, x, a, Operand::reg(4)}, {}};
  }

  void mem1d(Operand dsr, uint32_t base) {
    auto imm = [](int64_t v) { return Operand::imm(v); };
    pe::Instruction inst{
        Opcode::DsrMem1d,
        {dsr, imm(32), imm(base), imm(n), imm(0), imm(1), imm(0)},
        {}};
    if (!executeDSRInstruction(inst, state, memory, dsrs, fifos, trap))
      fail();
  }

  /// One fmacs instruction, as the PE model executes it.
  void run() {
    if (!DSDEngine::start(op, fmacs, state, dsrs, fifos, trap) ||
        engine.run(op, {memory, dsrs, fifos, ports}, trap).status !=
            DSDStatus::Done)
      fail();
  }

  [[noreturn]] void fail() {
    std::fprintf(stderr, "tessera-dsd-bench: %s\n", trap.message.c_str());
    std::exit(1);
  }

  float y(unsigned i) const {
    uint32_t bits = 0;
    memory.load32(YAt + 4 * i, bits);
    return std::bit_cast<float>(bits);
  }
};

/// The reference: a plain loop, rounding the product and then the sum.
struct Loop {
  std::vector<float> x, a, y;
  explicit Loop(unsigned n) : x(n), a(n), y(n) {
    for (unsigned i = 0; i < n; ++i) {
      x[i] = inputX(i);
      a[i] = inputA(i);
    }
  }
  void run() {
    clobber(y.data());
    const size_t n = y.size();
    for (size_t i = 0; i < n; ++i) {
      float product = a[i] * Scale;
      y[i] = x[i] + product;
    }
    clobber(y.data());
  }
};

/// Element operations per second of `body` (which runs `n` elements),
/// repeated for about a quarter of a second.
template <typename Body> double rate(unsigned n, Body &&body) {
  uint64_t reps = 0;
  Clock::time_point begin = Clock::now(), now;
  do {
    for (int i = 0; i < 64; ++i)
      body();
    reps += 64;
    now = Clock::now();
  } while (now - begin < std::chrono::milliseconds(250));
  double seconds = std::chrono::duration<double>(now - begin).count();
  return static_cast<double>(reps) * n / seconds;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 2048;
  unsigned rounds = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 7;
  if (n == 0 || 12u * n > PEMemory::Size - PE::YAt || rounds == 0) {
    std::fprintf(stderr,
                 "usage: tessera-dsd-bench [ELEMENTS (1..3754)] [ROUNDS]\n");
    return 2;
  }
  PE pe(n);
  Loop loop(n);
  pe.run();
  loop.run();
  for (unsigned i = 0; i < n; ++i)
    if (std::bit_cast<uint32_t>(pe.y(i)) !=
        std::bit_cast<uint32_t>(loop.y[i])) {
      std::fprintf(stderr, "tessera-dsd-bench: element %u differs\n", i);
      return 1;
    }

  // Interleaved rounds, so that both sides see the same machine load.
  std::vector<double> emulated, plain, ratios;
  for (unsigned r = 0; r < rounds; ++r) {
    emulated.push_back(rate(n, [&] { pe.run(); }));
    plain.push_back(rate(n, [&] { loop.run(); }));
    ratios.push_back(emulated.back() / plain.back());
  }
  std::printf("fmacs over %u f32 (3 arrays, %u bytes of PE memory), %u "
              "rounds of 0.25 s each side, one core\n",
              n, 12 * n, rounds);
  std::printf("  dsd engine: %.3g elements/s median, %.3g best\n",
              median(emulated),
              *std::max_element(emulated.begin(), emulated.end()));
  std::printf("  plain loop: %.3g elements/s median, %.3g best\n",
              median(plain), *std::max_element(plain.begin(), plain.end()));
  std::printf("  ratio: %.3f median (%.3f..%.3f over rounds); target >= "
              "0.25\n",
              median(ratios), *std::min_element(ratios.begin(), ratios.end()),
              *std::max_element(ratios.begin(), ratios.end()));
  std::printf("  PE memory: %u pages owned, window of %u bytes\n",
              pe.memory.getTouchedPages(), pe.memory.getWindowBytes());
  return 0;
}
