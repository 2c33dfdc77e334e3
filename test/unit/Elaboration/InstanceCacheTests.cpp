//===- InstanceCacheTests.cpp - Instances keyed by file and param values --===//

#include "tessera/Frontend/Elaboration/InstanceCache.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;
using sema::Value;

TEST_CASE("equal param values find the cached instance") {
  sema::TypeContext types;
  InstanceCache cache;
  sema::ParamMap a;
  a["width"] = Value::getComptimeInt(types, 4);
  a["name"] = Value::getString(types, "x");
  cache.insert("/p/pe.csl", a, 7);

  sema::ParamMap same;
  same["name"] = Value::getString(types, "x");
  same["width"] = Value::getComptimeInt(types, 4);
  CHECK(cache.find("/p/pe.csl", same) == 7u);
  CHECK(cache.size() == 1);
}

TEST_CASE("different values, names or files miss") {
  sema::TypeContext types;
  InstanceCache cache;
  sema::ParamMap a;
  a["width"] = Value::getComptimeInt(types, 4);
  cache.insert("/p/pe.csl", a, 0);

  sema::ParamMap other;
  other["width"] = Value::getComptimeInt(types, 5);
  CHECK_FALSE(cache.find("/p/pe.csl", other));
  CHECK_FALSE(cache.find("/p/other.csl", a));
  CHECK_FALSE(cache.find("/p/pe.csl", {}));
  sema::ParamMap extra = a;
  extra["height"] = Value::getComptimeInt(types, 1);
  CHECK_FALSE(cache.find("/p/pe.csl", extra));

  cache.insert("/p/pe.csl", other, 1);
  CHECK(cache.find("/p/pe.csl", other) == 1u);
  CHECK(cache.find("/p/pe.csl", a) == 0u);
  CHECK(cache.size() == 2);
}
