//===- PlacerTest.cpp - placements that the checker accepts ---------------===//

#include "tessera/Placement/Placer.h"
#include "tessera/Placement/Checker.h"
#include "tessera/Placement/DeltaT.h"
#include "tessera/Placement/KernelGraphParser.h"
#include "tessera/Placement/LinearArrangement.h"
#include "tessera/Placement/RowPlanner.h"
#include "tessera/Placement/RowSearch.h"
#include "tessera/Placement/Solution.h"
#include "tessera/Placement/StripPacker.h"
#include "tessera/Placement/Traversal.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>

using namespace tessera::placement;

namespace {

std::string header(int side, int memLimit, int weightLength = 1) {
  return "(*\nwidth=" + std::to_string(side) +
         "\nheight=" + std::to_string(side) +
         "\nwdeltat=1\nwlength=" + std::to_string(weightLength) +
         "\nwadapter=0\nmemlimit=" + std::to_string(memLimit) + "\n*)\n";
}

KernelGraph parse(const std::string &text) {
  GraphOrError result = parseKernelGraph(text, "g.kgraph");
  INFO(result.error);
  REQUIRE(result.graph);
  return *result.graph;
}

/// Places `graph`, checks the written solution and that the checker's
/// numbers are the placer's.
PlacerResult placeAndCheck(const KernelGraph &graph, double timeLimit = 2,
                           PlacerObjective objective = PlacerObjective::Score) {
  PlacerOptions options;
  options.timeLimit = timeLimit;
  options.objective = objective;
  PlacerResult result = placeKernelGraph(graph, options);
  INFO(result.error);
  REQUIRE(result.solution);
  std::ostringstream text;
  writeSolution(text, graph, *result.solution);
  CheckReport report = checkSolution(graph, text.str(), "s.sol");
  for (const std::string &error : report.errors)
    UNSCOPED_INFO(error);
  CHECK(report.isLegal());
  CHECK(report.kernels == int(graph.kernels().size()));
  CHECK(report.deltaT == result.deltaT);
  CHECK(report.wireLength == double(result.doubledWireLength) / 2);
  CHECK(report.score == result.score);
  CHECK(report.utilisation == Approx(result.utilisation));
  CHECK(result.deltaT >= result.deltaTBound);
  return result;
}

} // namespace

TEST_CASE("a chain of convolutions is placed legally", "[placer]") {
  KernelGraph graph =
      parse(header(80, 4000) + "input[0] n=[16 16 8]\n"
                               "conv[1] H=16 W=16 R=3 S=3 C=8 K=16 T=1\n"
                               "conv[2] H=16 W=16 R=3 S=3 C=16 K=16 T=2\n"
                               "conv[3] H=8 W=8 R=1 S=1 C=16 K=32 T=1\n"
                               "conv[4] H=8 W=8 R=3 S=3 C=32 K=32 T=1\n"
                               "output[5] n=[8 8 32]\n"
                               "input[0]:_ -> conv[1]:x, shape:[16][16][8]\n"
                               "conv[1]:y -> conv[2]:x, shape:[16][16][16]\n"
                               "conv[2]:y -> conv[3]:x, shape:[8][8][16]\n"
                               "conv[3]:y -> conv[4]:x, shape:[8][8][32]\n"
                               "conv[4]:y -> output[5]:_, shape:[8][8][32]\n");
  PlacerResult result = placeAndCheck(graph);
  CHECK(result.solution->kernels.size() == 4);
}

TEST_CASE("blocks and branches are placed legally", "[placer]") {
  KernelGraph graph = parse(header(120, 6000, 10) +
                            "input[0] n=[8 8 16]\n"
                            "dblock[1] f=32 h=8 w=8\n"
                            "cblock[2] f=64 h=8 w=8\n"
                            "conv[3] H=4 W=4 R=1 S=1 C=64 K=64 T=1\n"
                            "conv[4] H=4 W=4 R=3 S=3 C=64 K=64 T=1\n"
                            "dblock[5] f=64 h=4 w=4\n"
                            "output[6] n=[4 4 64]\n"
                            "input[0]:_ -> dblock[1]:x, shape:[8][8][16]\n"
                            "dblock[1]:y -> cblock[2]:x, shape:[8][8][32]\n"
                            "cblock[2]:y -> conv[3]:x, shape:[4][4][64]\n"
                            "cblock[2]:y -> conv[4]:x, shape:[4][4][64]\n"
                            "conv[3]:y -> dblock[5]:x, shape:[4][4][64]\n"
                            "conv[4]:y -> dblock[5]:x, shape:[4][4][64]\n"
                            "dblock[5]:y -> output[6]:_, shape:[4][4][64]\n");
  placeAndCheck(graph);
}

TEST_CASE("minimising the wire length keeps δT within the cap", "[placer]") {
  KernelGraph graph =
      parse(header(90, 4000) + "dblock[1] f=32 h=8 w=8\n"
                               "conv[2] H=8 W=8 R=3 S=3 C=32 K=32 T=1\n"
                               "conv[3] H=8 W=8 R=1 S=1 C=32 K=32 T=1\n"
                               "dblock[4] f=32 h=8 w=8\n"
                               "dblock[1]:y -> conv[2]:x, shape:[8][8][32]\n"
                               "dblock[1]:y -> conv[3]:x, shape:[8][8][32]\n"
                               "conv[2]:y -> dblock[4]:x, shape:[8][8][32]\n"
                               "conv[3]:y -> dblock[4]:x, shape:[8][8][32]\n");
  PlacerResult result = placeAndCheck(graph, 2, PlacerObjective::WireLength);
  CHECK(result.deltaT <= 1.08 * double(result.deltaTBound));
}

TEST_CASE("one kernel, and no kernel at all", "[placer]") {
  PlacerResult one = placeAndCheck(
      parse(header(40, 1000) + "conv[1] H=4 W=4 R=1 S=1 C=4 K=4 T=1\n"));
  CHECK(one.doubledWireLength == 0);
  // Nothing to place: δT and wire length are 0.
  PlacerResult none = placeAndCheck(
      parse(header(40, 1000) + "input[0] n=[1]\noutput[1] n=[1]\n"
                               "input[0]:_ -> output[1]:_, shape:[1]\n"));
  CHECK(none.solution->kernels.empty());
  CHECK(none.deltaT == 0);
  CHECK(none.score == 0);
}

TEST_CASE("graphs that cannot be placed say why", "[placer]") {
  // Every variant needs at least C/c' K/k' R S + ... > 10 words.
  PlacerOptions options;
  options.timeLimit = 1;
  PlacerResult memory = placeKernelGraph(
      parse(header(40, 10) + "conv[1] H=4 W=4 R=3 S=3 C=4 K=4 T=1\n"), options);
  CHECK_FALSE(memory.solution);
  CHECK(memory.error == "no time per sample lets every kernel fit the grid "
                        "and the memory limit");
  // Sixteen kernels of at least 2 x 3 tiles each do not fit 8 x 8 tiles.
  std::string many = header(8, 1000);
  for (int i = 1; i <= 16; ++i)
    many += "conv[" + std::to_string(i) + "] H=1 W=1 R=1 S=1 C=1 K=1 T=1\n";
  PlacerResult area = placeKernelGraph(parse(many), options);
  CHECK_FALSE(area.solution);
  CHECK(area.error == memory.error);
}

TEST_CASE("the traversal goes depth first in topological order", "[placer]") {
  // 1 -> 2 -> 3 and 1 -> 4 -> 3: 3 waits for 4.
  KernelGraph graph =
      parse(header(100, 1000) + "conv[1] H=1 W=1 R=1 S=1 C=1 K=1 T=1\n"
                                "conv[3] H=1 W=1 R=1 S=1 C=1 K=1 T=1\n"
                                "conv[2] H=1 W=1 R=1 S=1 C=1 K=1 T=1\n"
                                "conv[4] H=1 W=1 R=1 S=1 C=1 K=1 T=1\n"
                                "conv[1]:y -> conv[2]:x, shape:[1]\n"
                                "conv[2]:y -> conv[3]:x, shape:[1]\n"
                                "conv[1]:y -> conv[4]:x, shape:[1]\n"
                                "conv[4]:y -> conv[3]:x, shape:[1]\n");
  std::vector<int> order = getTraversalOrder(graph);
  std::vector<int> ids;
  for (int node : order)
    ids.push_back(graph.nodes[node].id);
  CHECK(ids == std::vector<int>{1, 2, 4, 3});
}

TEST_CASE("the strip packer finds the lowest rows", "[placer]") {
  // Each kernel is 10 x 4 (or 4 x 10 turned); the grid is 12 wide.
  Shape shape{10, 4, 1, 1, 1, 0};
  KernelMenu menu({shape}, 12, 30);
  std::vector<const KernelMenu *> menus(5, &menu);
  StripPacker packer(menus, 12, 30);
  CHECK(packer.getRowHeight(0, 3) == 10); // Three upright: 12 wide.
  CHECK(packer.getRowHeight(0, 4) == 31); // Four do not fit a row.
  CHECK(packer.getRowHeight(0, 1) == 4);  // One lies down: 10 wide.
  std::optional<std::vector<Row>> rows = packer.packLowest();
  REQUIRE(rows);
  int64_t total = 0;
  for (const Row &row : *rows)
    total += row.height;
  CHECK(total == 18); // Three upright (10) and two lying (4 + 4).
  StripPacker tooLow(menus, 12, 17);
  CHECK_FALSE(tooLow.packLowest());
}

TEST_CASE("stacked slots hold two kernels one above the other", "[placer]") {
  // The 10 x 4 kernels again: four upright need 16 columns; a slot of two
  // stacked needs a row of 20 but only 4 columns.
  Shape shape{10, 4, 1, 1, 1, 0};
  KernelMenu menu({shape}, 12, 30);
  StackCache stacks(12, 30);
  const StackedPair &pair = stacks.get(&menu, &menu);
  CHECK(pair.extent[20] == 4);
  CHECK(pair.split[20] == 10);
  CHECK(pair.extent[19] == 10); // One of the two lies down.
  CHECK(pair.extent[1] == 13);  // No room for two.
  CHECK(&stacks.get(&menu, &menu) == &pair);
  StripPacker packer(std::vector<const KernelMenu *>(4, &menu), 12, 30,
                     &stacks);
  CHECK(packer.getRowWidth(0, 4, 20) == 8);
  CHECK(packer.getRowHeight(0, 4) == 20);
  // The layout stacks only as much as the width needs: one slot of two.
  std::vector<RowItem> items = packer.layoutRow(0, 4, 20);
  REQUIRE(items.size() == 4);
  CHECK((items[0].x == 0 && items[0].y == 0 && items[0].slot == 0));
  CHECK((items[0].bandTop == 0 && items[0].bandHeight == 10));
  CHECK((items[1].x == 0 && items[1].y == 10 && items[1].slot == 0));
  CHECK((items[1].bandTop == 10 && items[1].bandHeight == 10));
  CHECK((items[2].x == 4 && items[2].y == 5 && items[2].slot == 1));
  CHECK((items[3].x == 8 && items[3].slot == 2));
  CHECK((items[3].sizeX == 4 && items[3].sizeY == 10));
}

TEST_CASE("rows are planned and annealed for short wires", "[placer]") {
  // Six 10 x 4 kernels in a chain on a 30 x 30 grid: all six fit one row
  // upright (24 columns), where each wire is 4 long; the lowest packing
  // would use two rows of three.
  Shape shape{10, 4, 1, 1, 1, 0};
  std::vector<KernelMenu> menus(6, KernelMenu({shape}, 30, 30));
  std::vector<std::pair<int, int>> wires = {
      {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}};
  RowSearch search(menus, wires, 30, 30, 1, 1, /*stacking=*/false);
  std::vector<int> order = {0, 1, 2, 3, 4, 5};
  StripPacker packer = search.getPacker(order);
  std::optional<std::vector<Row>> rows =
      planRows(packer, search.getPositionWires(order), false);
  REQUIRE(rows);
  REQUIRE(rows->size() == 1);
  CHECK(((*rows)[0].begin == 0 && (*rows)[0].end == 6 &&
         (*rows)[0].height == 10));
  std::optional<PlanEvaluation> evaluation =
      search.evaluate(RowPlan{order, *rows}, true);
  REQUIRE(evaluation);
  CHECK(evaluation->doubledLength == 2 * 5 * 4);
  CHECK(evaluation->deltaT == 0); // The hand-made shapes take no time.
  // Annealing from a scrambled order in two rows finds the chain again.
  RowPlan scrambled{{3, 0, 5, 1, 4, 2}, {{0, 3, 10}, {3, 6, 10}}};
  double before = search.evaluate(scrambled, false)->score;
  RowPlan annealed = search.anneal(
      scrambled, 20000,
      std::chrono::steady_clock::now() + std::chrono::hours(1), 1);
  double after = search.evaluate(annealed, false)->score;
  CHECK(after < before);
  CHECK(after == 20);
}

TEST_CASE("annealing one row keeps it one row", "[placer]") {
  // Eight 10 x 4 kernels in a chain on a 20 x 20 grid: one row of eight
  // upright needs 32 columns, so it fits only with four slots of two
  // stacked (16 columns); the search from one row may only reorder.
  Shape shape{10, 4, 1, 1, 1, 0};
  std::vector<KernelMenu> menus(8, KernelMenu({shape}, 20, 20));
  std::vector<std::pair<int, int>> wires = {{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                            {4, 5}, {5, 6}, {6, 7}};
  RowSearch search(menus, wires, 20, 20, 0, 1, /*stacking=*/true);
  RowPlan start{{5, 2, 7, 0, 3, 6, 1, 4}, {{0, 8, 20}}};
  std::optional<PlanEvaluation> before = search.evaluate(start, false);
  REQUIRE(before);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  RowPlan annealed = search.anneal(start, 20000, deadline, 3,
                                   /*keepRows=*/true);
  REQUIRE(annealed.rows.size() == 1);
  CHECK((annealed.rows[0].begin == 0 && annealed.rows[0].end == 8));
  std::vector<int> sorted = annealed.order;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  std::optional<PlanEvaluation> after = search.evaluate(annealed, false);
  REQUIRE(after);
  CHECK(after->score <= before->score);
  // The same seed gives the same plan.
  RowPlan again = search.anneal(start, 20000, deadline, 3, /*keepRows=*/true);
  CHECK(again.order == annealed.order);
  // Without keepRows the search may split the row.
  RowPlan free = search.anneal(start, 20000, deadline, 3);
  CHECK(search.evaluate(free, false)->score <= before->score);
}

TEST_CASE("the linear arrangement folds skip connections", "[placer]") {
  // A U: 0-1-2-3-4-5 with skips 0-5 and 1-4, all items 1 wide.
  std::vector<std::pair<int, int>> wires = {{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                            {4, 5}, {0, 5}, {1, 4}};
  std::vector<int64_t> widths(6, 1);
  std::vector<int> chain = {0, 1, 2, 3, 4, 5};
  // Along the chain: 5 wires of 1, skips of 5 and 3 (doubled).
  CHECK(getLineLength(chain, widths, wires) == 2 * (5 + 5 + 3));
  std::vector<int> folded = arrangeLinearly(chain, widths, wires, 20000, 1);
  std::vector<int> sorted = folded;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == chain);
  // The best fold, 0 5 1 4 2 3 or its mirror image, has length 11 (by
  // trying all 720 orders).
  CHECK(getLineLength(folded, widths, wires) == 2 * 11);
}

#ifdef TESSERA_ISPD2020_DIR
TEST_CASE("benchmark A is placed legally within 1.08 of the bound",
          "[placer][ispd2020]") {
  GraphOrError result =
      readKernelGraph(std::string(TESSERA_ISPD2020_DIR) + "/A.kgraph");
  REQUIRE(result.graph);
  PlacerResult placed = placeAndCheck(*result.graph, 4);
  CHECK(placed.deltaTBound == 33152);
  CHECK(placed.deltaT <= 1.08 * 33152);
  // CU.POKer's published wire length for A.
  CHECK(double(placed.doubledWireLength) / 2 <= 1314);
}
#endif
