//===- CheckerTest.cpp - legal and illegal solutions ----------------------===//

#include "tessera/Placement/Checker.h"
#include "tessera/Placement/KernelGraphParser.h"
#include "tessera/Placement/Solution.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace tessera::placement;

namespace {

const char *Graph = "(*\n"
                    "width=20\n"
                    "height=20\n"
                    "wdeltat=2\n"
                    "wlength=3\n"
                    "wadapter=0\n"
                    "memlimit=200\n"
                    "*)\n"
                    "input[0] n=[4 4 2] name='k0'\n"
                    "conv[1] H=4 W=4 R=1 S=1 C=2 K=4 T=1 name='k1'\n"
                    "conv[2] H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 name='k2'\n"
                    "dblock[3] f=4 h=2 w=2\n"
                    "output[4] n=[4 4 4] name='k4'\n"
                    "input[0]:_ -> conv[1]:x, shape:[4][4][2]\n"
                    "conv[1]:y -> conv[2]:x, shape:[4][4][4]\n"
                    "conv[2]:y -> dblock[3]:x, shape:[4][4][4]\n"
                    "dblock[3]:y -> output[4]:_, shape:[4][4][4]\n";

// k1: height 1*2*3 = 6, width 6, time 4*2*1*2 = 16, memory 2 + 2*4*2 = 18.
// k2: height 2*2*2 = 8, width 3, time 2*2*4*4*9 = 576,
//     memory 4*4*9 + 3*3*4 = 180.
// k3: dblock f=4 h=2 w=2 = (2,2,1,1,4,1), (2,2,3,3,1,1), (2,2,1,1,1,4);
//     with h'=w'=1, c'=[4 1 1], k'=[1 1 4]: heights 5, 2, 2 -> 5;
//     widths 3+3+12 = 18; times 4, 36, 4 -> 36; memories 1+4=5,
//     9+16=25, 1+4=5 -> 25.
const char *Definitions =
    "k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 k'=2)\n"
    "k2 = conv(H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 h'=2 w'=2 c'=1 k'=1)\n"
    "k3 = dblock(f=4 h=2 w=2 h'=1 w'=1 c'=[4 1 1] k'=[1 1 4])\n";

KernelGraph getGraph() {
  GraphOrError result = parseKernelGraph(Graph, "g.kgraph");
  REQUIRE(result.graph);
  return *result.graph;
}

CheckReport check(const std::string &text) {
  return checkSolution(getGraph(), text, "s.sol");
}

std::vector<std::string> errorsOf(const std::string &text) {
  CheckReport report = check(text);
  CHECK_FALSE(report.isLegal());
  return report.errors;
}

} // namespace

TEST_CASE("a legal solution's δT, wire length and score", "[checker]") {
  // k1 covers x 0..5, y 0..5 (centre 3, 3); k2 turned covers x 10..17,
  // y 4..6 (centre 14, 5.5); k3 covers x 0..17, y 12..16 (centre 9, 14.5).
  // Wires: k1-k2 11 + 2.5, k2-k3 5 + 9; the input and output wires count
  // nothing. δT 576; score 2 * 576 + 3 * 27.5.
  CheckReport report =
      check(std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                       "k2 : place(10 4 R90)\n"
                                       "k3 : place(0 12 R0)\n");
  INFO(report.errors.size());
  REQUIRE(report.isLegal());
  CHECK(report.kernels == 3);
  CHECK(report.deltaT == 576);
  CHECK(report.wireLength == 27.5);
  CHECK(report.score == 2 * 576 + 3 * 27.5);
  CHECK(report.utilisation == Approx((36 + 24 + 90) / 400.0));
}

TEST_CASE("the checker reads what the writer writes", "[checker]") {
  KernelGraph graph = getGraph();
  Solution solution;
  solution.kernels.push_back({1, ExecParams{1, 2, {{2, 2}}}, 0, 0, false});
  solution.kernels.push_back({2, ExecParams{2, 2, {{1, 1}}}, 10, 4, true});
  solution.kernels.push_back(
      {3, ExecParams{1, 1, {{4, 1}, {1, 1}, {1, 4}}}, 0, 12, false});
  std::ostringstream text;
  writeSolution(text, graph, solution);
  CHECK(text.str() == std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                                 "k2 : place(10 4 R90)\n"
                                                 "k3 : place(0 12 R0)\n");
  CHECK(checkSolution(graph, text.str(), "s.sol").isLegal());
}

TEST_CASE("overlapping rectangles are rejected", "[checker]") {
  CHECK(errorsOf(std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                            "k2 : place(5 4 R0)\n"
                                            "k3 : place(0 12 R0)\n") ==
        std::vector<std::string>{"s.sol:5: error: k2 overlaps k1 (line 4)"});
  // Touching edges do not overlap.
  CHECK(check(std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                         "k2 : place(6 0 R0)\n"
                                         "k3 : place(0 8 R0)\n")
            .isLegal());
}

TEST_CASE("rectangles must stay inside the grid", "[checker]") {
  CHECK(errorsOf(std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                            "k2 : place(15 0 R90)\n"
                                            "k3 : place(0 12 R0)\n") ==
        std::vector<std::string>{"s.sol:5: error: k2 covers columns 15..22 "
                                 "and rows 0..2, outside the 20x20 grid"});
  CHECK(errorsOf(std::string(Definitions) + "k1 : place(-1 0 R0)\n"
                                            "k2 : place(10 0 R0)\n"
                                            "k3 : place(0 12 R0)\n") ==
        std::vector<std::string>{"s.sol:4: error: k1 covers columns -1..4 "
                                 "and rows 0..5, outside the 20x20 grid"});
  CHECK(errorsOf(std::string(Definitions) + "k1 : place(0 0 R0)\n"
                                            "k2 : place(10 0 R0)\n"
                                            "k3 : place(0 16 R0)\n") ==
        std::vector<std::string>{"s.sol:6: error: k3 covers columns 0..17 "
                                 "and rows 16..20, outside the 20x20 grid"});
}

TEST_CASE("kernels must fit the memory of a tile", "[checker]") {
  // h'=w'=1: 4*4*9 + 6*6*4 = 288 words.
  CHECK(errorsOf("k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 "
                 "k'=2)\n"
                 "k2 = conv(H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 h'=1 w'=1 c'=1 "
                 "k'=1)\n"
                 "k3 = dblock(f=4 h=2 w=2 h'=1 w'=1 c'=[4 1 1] k'=[1 1 4])\n"
                 "k1 : place(0 0 R0)\n"
                 "k2 : place(10 0 R0)\n"
                 "k3 : place(0 12 R0)\n") ==
        std::vector<std::string>{"s.sol:2: error: k2 needs 288 words per "
                                 "tile, more than the memory limit 200"});
}

TEST_CASE("every kernel is defined and placed exactly once", "[checker]") {
  std::string two = "k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 "
                    "k'=2)\n"
                    "k2 = conv(H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 h'=2 w'=2 "
                    "c'=1 k'=1)\n";
  CHECK(errorsOf(two + "k1 : place(0 0 R0)\n") ==
        std::vector<std::string>{
            "s.sol:2: error: k2 is defined but not placed",
            "s.sol: error: k3 is neither defined nor placed"});
  CHECK(errorsOf(two + "k1 : place(0 0 R0)\nk2 : place(10 0 R0)\n"
                       "k3 : place(0 12 R0)\nk1 : place(0 6 R0)\n") ==
        std::vector<std::string>{
            "s.sol:6: error: k1 is placed twice (first at line 3)",
            "s.sol:5: error: k3 is placed but not defined"});
  CHECK(errorsOf(std::string(Definitions) + two +
                 "k1 : place(0 0 R0)\nk2 : place(10 0 R0)\n"
                 "k3 : place(0 12 R0)\n") ==
        std::vector<std::string>{
            "s.sol:4: error: k1 is defined twice (first at line 1)",
            "s.sol:5: error: k2 is defined twice (first at line 2)"});
  CHECK(errorsOf(std::string(Definitions) +
                 "k1 : place(0 0 R0)\nk2 : place(10 0 R0)\n"
                 "k3 : place(0 12 R0)\nk0 : place(0 0 R0)\n"
                 "k9 : place(0 0 R0)\n") ==
        std::vector<std::string>{
            "s.sol:7: error: k0 is an input node, which is not placed",
            "s.sol:8: error: 'k9' names no node of the graph"});
}

TEST_CASE("definitions must match the graph's kernels", "[checker]") {
  std::string places = "k1 : place(0 0 R0)\nk2 : place(10 0 R0)\n"
                       "k3 : place(0 12 R0)\n";
  std::string rest =
      "k2 = conv(H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 h'=2 w'=2 c'=1 k'=1)\n"
      "k3 = dblock(f=4 h=2 w=2 h'=1 w'=1 c'=[4 1 1] k'=[1 1 4])\n";
  CHECK(errorsOf("k1 = dblock(f=4 h=2 w=2 h'=1 w'=1 c'=[1 1 1] k'=[1 1 "
                 "1])\n" +
                 rest + places)
            .front() == "s.sol:1: error: k1 is a conv in the graph, not a "
                        "dblock");
  CHECK(errorsOf("k1 = conv(H=4 W=5 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 "
                 "k'=2)\n" +
                 rest + places)
            .front() == "s.sol:1: error: k1: 'W' must be 4 as in the graph");
  CHECK(errorsOf("k1 = conv(H=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 k'=2)\n" +
                 rest + places)
            .front() == "s.sol:1: error: k1 lacks the formal argument 'W'");
  CHECK(errorsOf("k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 w'=2 c'=2 k'=2)\n" +
                 rest + places)
            .front() ==
        "s.sol:1: error: k1 lacks the execution parameter 'h''");
  CHECK(errorsOf("k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=0 w'=2 c'=2 "
                 "k'=2)\n" +
                 rest + places)
            .front() == "s.sol:1: error: k1: 'h'' must be positive");
  CHECK(errorsOf("k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 "
                 "k'=2 z=1)\n" +
                 rest + places)
            .front() == "s.sol:1: error: k1: unknown argument 'z'");
  CHECK(errorsOf("k1 = conv(H=4 W=4 R=1 S=1 C=2 K=4 T=1 h'=1 w'=2 c'=2 "
                 "k'=2)\n"
                 "k2 = conv(H=4 W=4 R=3 S=3 C=4 K=4 T=1 U=1 h'=2 w'=2 c'=1 "
                 "k'=1)\n"
                 "k3 = dblock(f=4 h=2 w=2 h'=1 w'=1 c'=[4 1] k'=[1 1 4])\n" +
                 places)
            .front() == "s.sol:3: error: k3: 'c'' must be a list of 3 "
                        "numbers, one per convolution");
}

TEST_CASE("malformed solution text gets file and line", "[checker]") {
  auto firstError = [](const std::string &text) {
    std::vector<std::string> errors = errorsOf(text);
    REQUIRE(errors.size() == 1);
    return errors[0];
  };
  CHECK(firstError("k1 : place(0 0 R45)\n") ==
        "s.sol:1: error: expected R0 or R90, found 'R45'");
  CHECK(firstError("\nk1 : place(0 x R0)\n") ==
        "s.sol:2: error: expected a number for the row, found 'x'");
  CHECK(firstError("k1 : put(0 0 R0)\n") ==
        "s.sol:1: error: expected 'place' after ':', found 'put'");
  CHECK(firstError("k1 : place(0 0 R0) extra\n") ==
        "s.sol:1: error: unexpected 'extra' after the placement of k1");
  CHECK(firstError("k1 - place(0 0 R0)\n") ==
        "s.sol:1: error: expected '=' or ':' after 'k1', found '-'");
  CHECK(firstError("k1 = conv(H=4 W=4\n") ==
        "s.sol:1: error: expected ')' to close the arguments of k1");
  CHECK(firstError("k1 = conv(H=4 H=4)\n") ==
        "s.sol:1: error: k1 sets 'H' twice");
  CHECK(firstError("k1 = conv(c'=[1 2\n") ==
        "s.sol:1: error: expected ']' to close the list of 'c''");
  CHECK(firstError("k1 : place(-12345678901 0 R0)\n") ==
        "s.sol:1: error: the column is -12345678901, outside the supported "
        "range -1000000000..1000000000");
}
