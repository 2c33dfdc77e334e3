//===- StandaloneDriver.cpp - Mutation driver without libFuzzer -----------===//
//
// Used when the compiler has no libFuzzer runtime. Accepts the libFuzzer
// flags the smoke test uses (corpus directories, -max_total_time=S,
// -runs=N, -seed=N) and feeds the target random mutations of the corpus:
// byte flips, insertions of CSL punctuation and keywords, deletions,
// truncations and splices of two inputs. Coverage is not guided, so this is
// a robustness smoke test rather than a fuzzer.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
std::string mutate(std::mt19937 &rng, const std::vector<std::string> &corpus) {
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  std::string s = corpus[pick(corpus.size())];
  static const char *const pieces[] = {
      "(",      ")",        "{",  "}",  "[",  "]",    ";",  ",",     ".",
      ".{",     ".*",       "=",  "=>", "->", "|",    "&",  "@",     "\"",
      "'",      "\\",       "//", "\n", "if", "else", "fn", "while", "for",
      "switch", "comptime", "0x", "1_", "1e", "\xff", "\0"};
  int edits = 1 + static_cast<int>(pick(8));
  for (int i = 0; i < edits; ++i) {
    size_t pos = s.empty() ? 0 : pick(s.size() + 1);
    switch (pick(6)) {
    case 0:
      if (!s.empty() && pos < s.size())
        s[pos] = static_cast<char>(pick(256));
      break;
    case 1: {
      const char *piece = pieces[pick(sizeof(pieces) / sizeof(pieces[0]))];
      s.insert(pos, piece[0] ? std::string(piece) : std::string(1, '\0'));
      break;
    }
    case 2:
      s.erase(pos, pick(64));
      break;
    case 3:
      s.resize(pos);
      break;
    case 4: {
      const std::string &other = corpus[pick(corpus.size())];
      size_t from = other.empty() ? 0 : pick(other.size());
      s.insert(pos, other.substr(from, pick(200)));
      break;
    }
    default:
      if (pos < s.size())
        s.insert(pos, s.substr(pos, pick(100)));
      break;
    }
  }
  return s;
}
} // namespace

int main(int argc, char **argv) {
  double maxSeconds = 30;
  long maxRuns = -1;
  unsigned seed = 1;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("-max_total_time=", 0) == 0)
      maxSeconds = std::atof(arg.c_str() + 16);
    else if (arg.rfind("-runs=", 0) == 0)
      maxRuns = std::atol(arg.c_str() + 6);
    else if (arg.rfind("-seed=", 0) == 0)
      seed = static_cast<unsigned>(std::atol(arg.c_str() + 6));
    else if (arg[0] == '-')
      continue; // other libFuzzer flags do not apply
    else if (std::filesystem::is_directory(arg)) {
      for (const auto &entry : std::filesystem::directory_iterator(arg)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        corpus.push_back(ss.str());
      }
    }
  }
  if (corpus.empty())
    corpus.push_back("");
  for (const std::string &input : corpus)
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()),
                           input.size());

  std::mt19937 rng(seed);
  auto start = std::chrono::steady_clock::now();
  long runs = 0;
  for (; maxRuns < 0 || runs < maxRuns; ++runs) {
    if ((runs & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count() > maxSeconds)
      break;
    std::string input = mutate(rng, corpus);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()),
                           input.size());
  }
  std::printf("Done %ld runs (standalone driver, %zu corpus inputs)\n", runs,
              corpus.size());
  return 0;
}
