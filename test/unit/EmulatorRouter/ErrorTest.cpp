//===- ErrorTest.cpp - every error the network reports
//---------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

std::vector<std::string> messages(const Network &net) {
  std::vector<std::string> out;
  for (const RouteError &error : net.getErrors())
    out.push_back(error.message);
  return out;
}

} // namespace

TEST_CASE("a wavelet sent into a PE that does not route its color waits") {
  Fabric f(2, 1);
  f.route(0, 0, 2, routes(R, E));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(2, 0x55)));
  h.run(4);
  REQUIRE(h.net.getErrors().size() == 1);
  const RouteError &error = h.net.getErrors()[0];
  CHECK(error.kind == RouteErrorKind::UnconfiguredColor);
  CHECK(error.cycle == 0);
  CHECK(error.pe == PECoord{1, 0});
  CHECK(error.color == 2);
  CHECK(error.port == pe::Port::West);
  CHECK(error.waveletId == 1);
  CHECK(error.message == "PE (1, 0) does not route color 2, but wavelet 1 "
                         "arrived from the west on it");
  CHECK(h.net.listBuffered() ==
        std::vector<BufferedWavelet>{
            {{1, 0}, 2, false, pe::Port::West, 0, got(2, 0x55, 1), 0}});
  CHECK_FALSE(h.net.isIdle());
  CHECK(h.net.getLastStepMoves() == 0);
  CHECK(h.net.getCounters().waitCycles == 3);
}

TEST_CASE("a route off the rectangle holds the wavelet, reported once") {
  Fabric f(2, 1);
  f.route(0, 0, 2, routes(R, W | E));
  f.route(1, 0, 2, routes(W, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(2, 1)));
  h.run(3);
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "PE (0, 0) color 2: wavelet 1 is sent west, off the 2x1 "
            "rectangle"});
  CHECK(h.net.getErrors()[0].kind == RouteErrorKind::LeavesRectangle);
  CHECK(h.net.getErrors()[0].port == pe::Port::West);
  // Multicast: east did not get a copy either.
  CHECK(h.net.getDeliveredCount(1, 0, 2) == 0);
  CHECK(h.net.getWaveletsInFlight() == 1);
  // Rerouted, it moves on.
  REQUIRE(h.net.setColorConfigWord(0, 0, 2, R << 5 | E));
  h.run(2);
  CHECK(h.net.getDeliveredCount(1, 0, 2) == 1);
}

TEST_CASE("arrivals on a port no position receives from are reported") {
  Fabric f(2, 1);
  f.route(0, 0, 3, routes(W, E)); // the CE injects, but rx lacks RAMP
  f.route(1, 0, 3, routes(N, R));
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(3, 1)));
  REQUIRE(h.net.setColorConfigWord(0, 0, 3, (W | R) << 5 | E));
  h.run(3);
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "PE (0, 0) color 3: its CE injected wavelet 1, but no switch "
            "position of the color receives from the ramp",
            "PE (1, 0) color 3: wavelet 1 arrived from the west, but no "
            "switch position of the color receives from the west"});
  CHECK(h.net.getErrors()[0].kind == RouteErrorKind::PortNotInRx);
  CHECK(h.net.getErrors()[1].cycle == 0);
  // A switch position that receives from the west would take it.
  REQUIRE(h.net.setSwitchConfigWord(1, 0, 3, 0x558 | 1u << 13));
  h.net.step();
  CHECK(h.net.getDeliveredCount(1, 0, 3) == 1);
}

TEST_CASE("a wavelet waits for the switch position that receives it") {
  // Position 1 receives from the west; position 0 only from the north.
  pe::RouterConfig config = routes(N, R);
  config.positions[0] = rxPos(pe::Port::West);
  Fabric f(2, 1);
  f.route(0, 0, 3, routes(R, E));
  f.route(1, 0, 3, config);
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(3, 1)));
  h.run(3);
  CHECK(h.net.getErrors().empty());
  CHECK(h.net.getDeliveredCount(1, 0, 3) == 0);
  REQUIRE(h.net.advanceSwitch(1, 0, 3));
  h.net.step();
  CHECK(h.net.getDeliveredCount(1, 0, 3) == 1);
}

TEST_CASE("the CE injecting on a color its PE does not route is reported") {
  Fabric f(1, 1);
  Harness h(f);
  REQUIRE(h.net.inject(0, 0, data(7, 1)));
  CHECK(messages(h.net) ==
        std::vector<std::string>{"PE (0, 0) does not route color 7, but its "
                                 "CE injected wavelet 1 on it"});
  CHECK(h.net.getErrors()[0].port == pe::Port::Ramp);
  h.run(2);
  CHECK(h.net.getWaveletsInFlight() == 1);
}

TEST_CASE("calls naming a PE outside the rectangle do nothing") {
  Fabric f(2, 1);
  f.route(0, 0, 0, routes(R, R));
  Harness h(f);
  CHECK_FALSE(h.net.inject(2, 0, data(0, 1)));
  CHECK_FALSE(h.net.pollDelivered(0, 1, 0));
  CHECK_FALSE(h.net.advanceSwitch(70000, 0, 0));
  CHECK_FALSE(h.net.exitTeardown(5, 5, 0));
  CHECK_FALSE(h.net.setDeliveryQueueDepth(2, 1, 0, 4));
  CHECK_FALSE(h.net.setColorConfigWord(3, 0, 0, 0));
  CHECK_FALSE(h.net.setSwitchConfigWord(0, 9, 0, 0));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "inject: PE (2, 0) is outside the 2x1 rectangle",
            "pollDelivered: PE (0, 1) is outside the 2x1 rectangle",
            "advanceSwitch: PE (70000, 0) is outside the 2x1 rectangle",
            "exitTeardown: PE (5, 5) is outside the 2x1 rectangle",
            "setDeliveryQueueDepth: PE (2, 1) is outside the 2x1 rectangle",
            "setColorConfigWord: PE (3, 0) is outside the 2x1 rectangle",
            "setSwitchConfigWord: PE (0, 9) is outside the 2x1 rectangle"});
  for (const RouteError &error : h.net.getErrors())
    CHECK(error.kind == RouteErrorKind::OutsideRectangle);
  CHECK(h.net.getErrors()[2].pe == PECoord{0xFFFF, 0}); // clamped
  // Queries answer nothing.
  CHECK(h.net.getInjectSpace(2, 0, 0) == 0);
  CHECK(h.net.getDeliveredCount(2, 0, 0) == 0);
  CHECK(h.net.peekDelivered(2, 0, 0) == std::nullopt);
  CHECK_FALSE(h.net.isInTeardown(2, 0, 0));
  CHECK(h.net.getLinkBusyCycles(2, 0, pe::Port::East) == 0);
  CHECK(h.net.getLinkBusyCycles(0, 0, pe::Port(7)) == 0);
  CHECK(h.net.getCounters().injected == 0);
}

TEST_CASE("calls naming an unroutable color do nothing") {
  Fabric f(1, 1, target::Arch::WSE3);
  Harness h(f);
  CHECK_FALSE(h.net.inject(0, 0, data(24, 1)));
  CHECK_FALSE(h.net.pollDelivered(0, 0, 31));
  CHECK_FALSE(h.net.advanceSwitch(0, 0, 200));
  CHECK_FALSE(h.net.exitTeardown(0, 0, 24));
  CHECK_FALSE(h.net.setDeliveryQueueDepth(0, 0, 24, 4));
  CHECK_FALSE(h.net.setColorConfigWord(0, 0, 24, 0));
  CHECK_FALSE(h.net.setSwitchConfigWord(0, 0, 1000, 0));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "inject: color 24 is not routable on wse3 (colors 0 to 23)",
            "pollDelivered: color 31 is not routable on wse3 (colors 0 to 23)",
            "advanceSwitch: color 200 is not routable on wse3 (colors 0 to "
            "23)",
            "exitTeardown: color 24 is not routable on wse3 (colors 0 to 23)",
            "setDeliveryQueueDepth: color 24 is not routable on wse3 (colors "
            "0 to 23)",
            "setColorConfigWord: color 24 is not routable on wse3 (colors 0 "
            "to 23)",
            "setSwitchConfigWord: color 1000 is not routable on wse3 (colors "
            "0 to 23)"});
  for (const RouteError &error : h.net.getErrors())
    CHECK(error.kind == RouteErrorKind::BadColor);
  CHECK(h.net.getInjectSpace(0, 0, 24) == 0);
  CHECK(h.net.getDeliveredCount(0, 0, 24) == 0);
}

TEST_CASE("switch and teardown calls need a color the PE routes") {
  Fabric f(1, 1);
  f.route(0, 0, 1, routes(R, R));
  Harness h(f);
  CHECK_FALSE(h.net.advanceSwitch(0, 0, 9));
  CHECK_FALSE(h.net.exitTeardown(0, 0, 9));
  CHECK(h.net.advanceSwitch(0, 0, 1));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "advanceSwitch: PE (0, 0) does not route color 9",
            "exitTeardown: PE (0, 0) does not route color 9"});
  CHECK(h.net.getErrors()[0].kind == RouteErrorKind::UnconfiguredColor);
}

TEST_CASE("bad buffer depths are reported") {
  Fabric f(1, 1);
  f.route(0, 0, 1, routes(R, R));
  Harness h(f, NetworkOptions{0, 65, 3});
  CHECK(h.net.getOptions().linkBufferDepth == 2);
  CHECK(h.net.getOptions().injectBufferDepth == 2);
  CHECK(h.net.getOptions().deliveryQueueDepth == 3);
  CHECK_FALSE(h.net.setDeliveryQueueDepth(0, 0, 1, 0));
  CHECK_FALSE(h.net.setDeliveryQueueDepth(0, 0, 1, 65));
  REQUIRE(h.net.inject(0, 0, data(1, 1)));
  REQUIRE(h.net.inject(0, 0, data(1, 2)));
  h.run(2);
  CHECK_FALSE(h.net.setDeliveryQueueDepth(0, 0, 1, 1));
  CHECK(h.net.setDeliveryQueueDepth(0, 0, 1, 2));
  CHECK(messages(h.net) ==
        std::vector<std::string>{
            "link buffer depth 0 is not between 1 and 64; using 2",
            "inject buffer depth 65 is not between 1 and 64; using 2",
            "setDeliveryQueueDepth: depth 0 for PE (0, 0) color 1 is not "
            "between 1 and 64",
            "setDeliveryQueueDepth: depth 65 for PE (0, 0) color 1 is not "
            "between 1 and 64",
            "setDeliveryQueueDepth: depth 1 for PE (0, 0) color 1 is below "
            "the 2 wavelets its delivery queue holds"});
  for (const RouteError &error : h.net.getErrors())
    CHECK(error.kind == RouteErrorKind::BadDepth);
  CHECK(payloads(h.drain(0, 0, 1)) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("an empty fabric answers every call without crashing") {
  FabricLayout layout;
  Network net(layout, target::TargetModel::get(target::Arch::WSE2));
  CHECK_FALSE(net.inject(0, 0, data(0, 1)));
  net.step();
  CHECK(net.isIdle());
  CHECK(net.listBuffered().empty());
  CHECK(messages(net) == std::vector<std::string>{
                             "inject: PE (0, 0) is outside the 0x0 rectangle"});
}
