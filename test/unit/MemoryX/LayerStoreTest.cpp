//===- LayerStoreTest.cpp - one layer's parameters ------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/LayerStore.h"
#include "tessera/MemoryX/WeightStore.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tessera;
using namespace tessera::memoryx;
using namespace memoryxtest;

TEST_CASE("a new layer is zero, dense and fully requested") {
  Expected<LayerStore> layer =
      LayerStore::create({"fc1", 3, 5, OptimizerKind::Adam});
  REQUIRE(layer);
  CHECK(layer->name() == "fc1");
  CHECK(layer->rows() == 3);
  CHECK(layer->cols() == 5);
  CHECK(layer->steps() == 0);
  CHECK(layer->weightMask() == Mask(3, 5, true));
  CHECK(layer->gradientMask() == Mask(3, 5, true));
  CHECK(layer->sparse().nonzeroCount() == 15);
  CHECK(layer->gradientStream().nonzeroCount() == 15);
  CHECK(layer->optimizerState(0).size() == 15);
  CHECK(layer->optimizerState(1).size() == 15);
  CHECK(layer->optimizerState(2).empty());
  for (float w : layer->master())
    CHECK(w == 0.0f);
  CHECK(layer->isSparseCurrent());

  Expected<LayerStore> sgd = LayerStore::create({"fc2", 2, 2});
  REQUIRE(sgd);
  CHECK(sgd->optimizerState(0).empty());
  CHECK(optimizerStateCount(OptimizerKind::Momentum) == 1);
  CHECK(optimizerName(OptimizerKind::Momentum) == "momentum");
}

TEST_CASE("bad layer specs are refused with a message") {
  auto error = [](LayerSpec spec) { return LayerStore::create(spec).error(); };
  CHECK(error({"", 2, 2}) == "layer name is empty");
  CHECK(error({std::string(1025, 'x'), 2, 2}) ==
        "layer name of 1025 bytes is longer than 1024");
  CHECK(error({"fc1", 0, 4}) == "layer 'fc1' has an empty shape 0x4");
  CHECK(error({"fc1", 4, 0}) == "layer 'fc1' has an empty shape 4x0");
  CHECK(error({"fc1", 65536, 32769}) ==
        "layer 'fc1' of 65536x32769 has 2147549184 weights, more than "
        "2147483648");
  CHECK(error({"fc1", 2, 2, static_cast<OptimizerKind>(7)}) ==
        "layer 'fc1' has unknown optimizer kind 7");
  CHECK(LayerStore::create({std::string(1024, 'x'), 1, 1}));
}

TEST_CASE("masks and masters of the wrong shape are refused") {
  Expected<LayerStore> layer = LayerStore::create({"fc1", 4, 8});
  REQUIRE(layer);
  CHECK(layer->setWeightMask(Mask(8, 4)).error() ==
        "layer 'fc1' is 4x8, the weight mask is 8x4");
  CHECK(layer->setGradientMask(Mask(4, 9)).error() ==
        "layer 'fc1' is 4x8, the gradient-request mask is 4x9");
  CHECK(layer->setMaster(std::vector<float>(31)).error() ==
        "layer 'fc1' has 32 weights, got 31");
  // Nothing changed.
  CHECK(layer->weightMask() == Mask(4, 8, true));
  CHECK(layer->gradientMask() == Mask(4, 8, true));
}

TEST_CASE("the sparse copy follows the master and the weight mask") {
  Expected<LayerStore> layer = LayerStore::create({"fc1", 2, 3});
  REQUIRE(layer);
  REQUIRE(layer->setMaster(std::vector<float>{0.1f, 1, 2, 3, 4, 65520}));
  Mask mask(2, 3, true);
  mask.set(0, 1, false);
  REQUIRE(layer->setWeightMask(mask));
  std::vector<uint16_t> halves;
  layer->sparse().forEachForward(
      [&](uint32_t, uint32_t, uint16_t half) { halves.push_back(half); });
  CHECK(halves ==
        std::vector<uint16_t>{0x2E66, 0x4000, 0x4200, 0x4400, 0x7C00});

  // Direct writes mark the copy stale until rebuild().
  layer->mutableMaster()[0] = 1.0f;
  CHECK_FALSE(layer->isSparseCurrent());
  REQUIRE(layer->rebuild());
  CHECK(layer->isSparseCurrent());
  halves.clear();
  layer->sparse().forEachForward(
      [&](uint32_t, uint32_t, uint16_t half) { halves.push_back(half); });
  CHECK(halves.front() == 0x3C00);

  // The request stream follows its own mask.
  Mask requested(2, 3);
  requested.set(1, 2);
  REQUIRE(layer->setGradientMask(requested));
  CHECK(layer->gradientStream().nonzeroCount() == 1);
}

TEST_CASE("a store's layer names are unique") {
  WeightStore store;
  Expected<LayerStore *> first = store.addLayer({"fc1", 2, 2});
  REQUIRE(first);
  CHECK(store.addLayer({"fc1", 3, 3}).error() ==
        "the store already has a layer 'fc1'");
  CHECK(store.addLayer({"", 3, 3}).error() == "layer name is empty");
  REQUIRE(store.addLayer({"fc2", 3, 3}));
  CHECK(store.layerCount() == 2);
  CHECK(store.findLayer("fc1") == *first);
  CHECK(store.findLayer("fc3") == nullptr);
}

TEST_CASE("running out of memory is an error, not a crash") {
  // In a child, so that the address-space limit binds only there.
  int channel[2];
  REQUIRE(pipe(channel) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      close(channel[0]);
      // What the process maps now, plus 256 MiB: far below the 4 GiB layer.
      long pages = 0;
      if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld", &pages) != 1)
          pages = 0;
        std::fclose(statm);
      }
      rlim_t bytes =
          rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(256) << 20);
      rlimit limit{bytes, bytes};
      setrlimit(RLIMIT_AS, &limit);
      WeightStore store;
      Expected<LayerStore *> layer = store.addLayer({"big", 32768, 32768});
      std::string message = layer ? "no error" : layer.error();
      ssize_t written = write(channel[1], message.data(), message.size());
      _exit(written == ssize_t(message.size()) ? 0 : 1);
    } catch (...) {
      _exit(5);
    }
  }
  close(channel[1]);
  std::string message;
  char buffer[256];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof(buffer))) > 0;)
    message.append(buffer, size_t(got));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(message == "out of memory allocating layer 'big' of 32768x32768");
}
