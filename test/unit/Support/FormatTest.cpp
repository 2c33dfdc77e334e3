//===- FormatTest.cpp - numbers as diagnostics print them -----------------===//

#include "tessera/Support/Format.h"

#include <catch2/catch.hpp>

#include <cstdint>

using tessera::formatThousands;

TEST_CASE("counts group their digits by thousands", "[format]") {
  CHECK(formatThousands(0) == "0");
  CHECK(formatThousands(999) == "999");
  CHECK(formatThousands(1000) == "1,000");
  CHECK(formatThousands(49152) == "49,152");
  CHECK(formatThousands(745499) == "745,499");
  CHECK(formatThousands(1234567) == "1,234,567");
  CHECK(formatThousands(UINT64_MAX) == "18,446,744,073,709,551,615");
}
