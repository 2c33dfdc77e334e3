//===- KernelGraphParserTest.cpp - kgraph files and their errors ----------===//

#include "tessera/Placement/KernelGraphParser.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tessera::placement;

namespace {

const char *Header = "(*\n"
                     "test=tiny\n"
                     "width=633\n"
                     "height=633\n"
                     "wdeltat=1\n"
                     "wlength=4\n"
                     "wadapter=0\n"
                     "memlimit=24576\n"
                     "*)\n";

/// The message for `body` after the header (whose 9 lines come first).
std::string errorOf(const std::string &body) {
  GraphOrError result = parseKernelGraph(Header + body, "g.kgraph");
  CHECK_FALSE(result.graph);
  return result.error;
}

} // namespace

TEST_CASE("a kgraph gives its header, nodes and connections", "[kgraph]") {
  std::string text = std::string(Header) +
                     "(* Node Definitions *)\n"
                     "input[0] n=[ 14 14 64 ] name='x' name='k0'\n"
                     "conv[1] W=14 H=12 R=3 S=1 C=64 K=128 T=2 U=2 name='k1'\n"
                     "dblock[ 2] f=256 h=56 w=28 name='k2'\n"
                     "cblock[3] f=512 h=28 w=14\n"
                     "output[4] n=[7 7 512] name='k4'\n"
                     "\n"
                     "(* Connectivity *)\n"
                     "input[0]:_\t->\tconv[1]:x, shape:[14][14][64]\n"
                     "conv[1]:y -> dblock[ 2]:x, shape:[14][14][128]\n"
                     "dblock[2]:y    ->  cblock[3]:x, shape:[56][28][256]\n"
                     "cblock[3]:y -> output[4]:_, shape:[7][7][512]\n";
  GraphOrError result = parseKernelGraph(text, "g.kgraph");
  REQUIRE(result.graph);
  const KernelGraph &graph = *result.graph;
  CHECK(result.error.empty());
  CHECK(graph.test == "tiny");
  CHECK(graph.gridWidth == 633);
  CHECK(graph.gridHeight == 633);
  CHECK(graph.memLimit == 24576);
  CHECK(graph.weightDeltaT == 1);
  CHECK(graph.weightLength == 4);
  CHECK(graph.weightAdapter == 0);
  REQUIRE(graph.nodes.size() == 5);
  CHECK(graph.nodes[0].kind == NodeKind::Input);
  CHECK(graph.nodes[0].name == "k0");
  CHECK(graph.nodes[0].dims == std::vector<int64_t>{14, 14, 64});
  const Node &conv = graph.nodes[1];
  CHECK(conv.kind == NodeKind::Conv);
  CHECK(conv.id == 1);
  CHECK(conv.line == 12);
  CHECK(conv.conv.H == 12);
  CHECK(conv.conv.W == 14);
  CHECK(conv.conv.R == 3);
  CHECK(conv.conv.S == 1);
  CHECK(conv.conv.C == 64);
  CHECK(conv.conv.K == 128);
  CHECK(conv.conv.T == 2);
  CHECK(conv.hasUnused);
  CHECK(conv.unused == 2);
  CHECK(graph.nodes[2].kind == NodeKind::DBlock);
  CHECK(graph.nodes[2].F == 256);
  CHECK(graph.nodes[2].H == 56);
  CHECK(graph.nodes[2].W == 28);
  CHECK(graph.nodes[3].kind == NodeKind::CBlock);
  CHECK(graph.nodes[3].label() == "k3");
  CHECK(graph.kernels() == std::vector<int>{1, 2, 3});
  CHECK(graph.findNode(3) == 3);
  CHECK(graph.findNode(9) == -1);
  REQUIRE(graph.connections.size() == 4);
  CHECK(graph.connections[1].from == 1);
  CHECK(graph.connections[1].to == 2);
  CHECK(graph.connections[1].fromPort == "y");
  CHECK(graph.connections[1].toPort == "x");
  CHECK(graph.connections[1].shape == std::vector<int64_t>{14, 14, 128});
  CHECK(graph.connections[1].line == 19);
}

TEST_CASE("connections may name nodes defined later; CRLF is fine",
          "[kgraph]") {
  std::string text = "(*\r\nwidth=10\r\nheight=20\r\nwdeltat=1\r\n"
                     "wlength=0.5\r\nwadapter=0\r\nmemlimit=100\r\n*)\r\n"
                     "conv[1]:y -> conv[2]:x, shape:[1]\r\n"
                     "conv[1] H=1 W=1 R=1 S=1 C=1 K=1 T=1\r\n"
                     "conv[2] H=1 W=1 R=1 S=1 C=1 K=1 T=1 (* two *)\r\n";
  GraphOrError result = parseKernelGraph(text, "g.kgraph");
  REQUIRE(result.graph);
  CHECK(result.graph->gridWidth == 10);
  CHECK(result.graph->gridHeight == 20);
  CHECK(result.graph->weightLength == 0.5);
  REQUIRE(result.graph->connections.size() == 1);
  CHECK(result.graph->connections[0].from == 0);
  CHECK(result.graph->connections[0].to == 1);
}

TEST_CASE("malformed kgraphs get one message with file and line", "[kgraph]") {
  CHECK(errorOf("pool[1] f=4 h=2 w=2\n") ==
        "g.kgraph:10: error: unknown node kind 'pool' (expected input, "
        "output, conv, dblock or cblock)");
  CHECK(errorOf("\n\nconv[1] H=1 W=1 R=1 S=1 C=1 T=1\n") ==
        "g.kgraph:12: error: conv[1] lacks the argument 'K'");
  CHECK(errorOf("conv[1] H=0 W=1 R=1 S=1 C=1 K=1 T=1\n") ==
        "g.kgraph:10: error: 'H' of conv[1] must be positive");
  CHECK(errorOf("conv[1] H=1 W=x R=1 S=1 C=1 K=1 T=1\n") ==
        "g.kgraph:10: error: expected a number for 'W', found 'x'");
  CHECK(errorOf("conv[1] H=1 W=12x R=1 S=1 C=1 K=1 T=1\n") ==
        "g.kgraph:10: error: expected a number for 'W', found '12x'");
  CHECK(errorOf("conv[1] H=1 W=99999999999 R=1 S=1 C=1 K=1 T=1\n") ==
        "g.kgraph:10: error: 'W' is 99999999999, more than the largest "
        "supported value 1000000000");
  CHECK(errorOf("conv[1] H=1 W=1 R=1 S=1 C=1 K=1 T=1 f=3\n") ==
        "g.kgraph:10: error: unknown argument 'f' for conv[1] (expected H, "
        "W, R, S, C, K, T, U, name)");
  CHECK(errorOf("dblock[1] f=4 h=2 w=2 h=3\n") ==
        "g.kgraph:10: error: dblock[1] sets 'h' twice");
  CHECK(errorOf("dblock[1] f=6 h=2 w=2\n") ==
        "g.kgraph:10: error: dblock[1]: f=6 is not a multiple of 4");
  CHECK(errorOf("cblock[1] f=8 h=3 w=2\n") ==
        "g.kgraph:10: error: cblock[1]: h=3 and w=2 must be even (the block "
        "halves them)");
  CHECK(errorOf("dblock[1] f=4 h=2 w=2\ndblock[1] f=4 h=2 w=2\n") ==
        "g.kgraph:11: error: node 1 is defined twice (first at line 10)");
  CHECK(errorOf("dblock[1 f=4 h=2 w=2\n") ==
        "g.kgraph:10: error: expected ']' after '1', found 'f'");
  CHECK(errorOf("dblock[a] f=4\n") ==
        "g.kgraph:10: error: expected a number for the node number, found "
        "'a'");
  CHECK(errorOf("dblock[1] f 4\n") ==
        "g.kgraph:10: error: expected '=' after 'f', found '4'");
  CHECK(errorOf("input[0] name='x\n") ==
        "g.kgraph:10: error: the name has no closing quote");
  CHECK(errorOf("input[0] n=[1 2\n") ==
        "g.kgraph:10: error: expected ']' to close the list of 'n'");
  CHECK(errorOf("= 3\n") == "g.kgraph:10: error: expected a node definition "
                            "or a connection, found '='");
}

TEST_CASE("malformed connections name what is wrong", "[kgraph]") {
  std::string nodes = "dblock[1] f=4 h=2 w=2\ndblock[2] f=4 h=2 w=2\n";
  CHECK(errorOf(nodes + "dblock[1]:y dblock[2]:x, shape:[1]\n") ==
        "g.kgraph:12: error: expected '->' after 'y', found 'dblock'");
  CHECK(errorOf(nodes + "dblock[1]:y -> dblock[2]:x shape:[1]\n") ==
        "g.kgraph:12: error: expected ',' after 'x', found 'shape'");
  CHECK(errorOf(nodes + "dblock[1]:y -> dblock[2]:x, shape:[1\n") ==
        "g.kgraph:12: error: expected ']' after '1', found the end of the "
        "line");
  CHECK(errorOf(nodes + "dblock[1]: -> dblock[2]:x, shape:[1]\n") ==
        "g.kgraph:12: error: expected a port name, found '-'");
  CHECK(errorOf(nodes + "dblock[1]:y -> dblock[7]:x, shape:[1]\n") ==
        "g.kgraph:12: error: the connection names dblock[7], but no node 7 "
        "is defined");
  CHECK(errorOf(nodes + "dblock[1]:y -> conv[2]:x, shape:[1]\n") ==
        "g.kgraph:12: error: the connection names conv[2], but node 2 is a "
        "dblock (line 11)");
}

TEST_CASE("the header must set every value once", "[kgraph]") {
  GraphOrError missing = parseKernelGraph(
      "(*\nwidth=633\nheight=633\nwdeltat=1\nwlength=1\nwadapter=0\n*)\n",
      "g.kgraph");
  CHECK(missing.error ==
        "g.kgraph:1: error: the header does not set 'memlimit'");
  CHECK(errorOf("(* width=5 *)\n") ==
        "g.kgraph:10: error: the header sets 'width' twice");
  CHECK(parseKernelGraph("(*\nwidth=-3\n*)\n", "g.kgraph").error ==
        "g.kgraph:2: error: expected a number for 'width', found '-'");
  CHECK(parseKernelGraph("(*\nheight=0\n*)\n", "g.kgraph").error ==
        "g.kgraph:2: error: expected a positive integer for 'height', found "
        "'0'");
  CHECK(parseKernelGraph("(*\nheight=20000\n*)\n", "g.kgraph").error ==
        "g.kgraph:2: error: 'height' is 20000, more than the largest "
        "supported grid side 10000");
  CHECK(parseKernelGraph("(*\nwlength=two\n*)\n", "g.kgraph").error ==
        "g.kgraph:2: error: expected a non-negative number for 'wlength', "
        "found 'two'");
  CHECK(parseKernelGraph("(*\nwidth=633\n", "g.kgraph").error ==
        "g.kgraph:1: error: unterminated comment: '(*' without '*)'");
  CHECK(errorOf("conv[1] *) H=1\n") == "g.kgraph:10: error: '*)' without '(*'");
}

TEST_CASE("reading a missing file says so", "[kgraph]") {
  GraphOrError result = readKernelGraph("/nonexistent/x.kgraph");
  CHECK_FALSE(result.graph);
  CHECK(result.error ==
        "cannot read '/nonexistent/x.kgraph': No such file or directory");
}

#ifdef TESSERA_ISPD2020_DIR
TEST_CASE("all twenty contest benchmarks parse", "[kgraph][ispd2020]") {
  // Placeable kernels and connections per benchmark.
  const std::pair<int, int> expected[] = {
      {16, 17}, {32, 33},  {100, 133}, {52, 69}, {16, 17}, {32, 33}, {100, 133},
      {52, 69}, {25, 26},  {79, 105},  {16, 17}, {52, 69}, {23, 28}, {26, 27},
      {25, 26}, {79, 105}, {16, 17},   {52, 69}, {23, 28}, {26, 27}};
  for (int i = 0; i < 20; ++i) {
    std::string name(1, char('A' + i));
    INFO("benchmark " << name);
    GraphOrError result = readKernelGraph(std::string(TESSERA_ISPD2020_DIR) +
                                          "/" + name + ".kgraph");
    REQUIRE(result.graph);
    CHECK(result.graph->gridWidth == 633);
    CHECK(result.graph->gridHeight == 633);
    CHECK(result.graph->memLimit == 24576);
    CHECK(int(result.graph->kernels().size()) == expected[i].first);
    CHECK(int(result.graph->connections.size()) == expected[i].second);
  }
}
#endif
