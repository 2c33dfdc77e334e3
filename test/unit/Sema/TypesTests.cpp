//===- TypesTests.cpp - Type uniquing and spelling ------------------------===//

#include "tessera/Frontend/Sema/Types.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;

TEST_CASE("types are uniqued: equal structure, equal pointer",
          "[sema][types]") {
  TypeContext ctx;
  CHECK(ctx.getInt(16, true) == ctx.getInt(16, true));
  CHECK(ctx.getInt(16, true) != ctx.getInt(16, false));
  const Type *f32 = ctx.getFloat(FloatFormat::F32);
  CHECK(ctx.getArray({4}, f32) == ctx.getArray({4}, f32));
  CHECK(ctx.getArray({4}, f32) != ctx.getArray({2, 2}, f32));
  CHECK(ctx.getPointer(f32, true, true) == ctx.getPointer(f32, true, true));
  CHECK(ctx.getFunction({ctx.getInt(16, true)}, ctx.getVoid(), false) ==
        ctx.getFunction({ctx.getInt(16, true)}, ctx.getVoid(), false));
  CHECK(ctx.getFunction({}, ctx.getVoid(), false) !=
        ctx.getFunction({}, ctx.getVoid(), true));
  CHECK(ctx.getComptimeInt() == ctx.get(Type::Kind::ComptimeInt));
}

TEST_CASE("named structs and enums are nominal", "[sema][types]") {
  TypeContext ctx;
  const Type *u16 = ctx.getInt(16, false);
  const StructType *a = ctx.createStruct("P", {{"x", u16}}, nullptr);
  const StructType *b = ctx.createStruct("P", {{"x", u16}}, nullptr);
  CHECK(a != b);
  CHECK(a->str() == "P");
  CHECK(a->findField("x") == 0u);
  CHECK_FALSE(a->findField("y"));
  const EnumType *e =
      ctx.createEnum("mode", ctx.getInt(16, false),
                     {{"send", llvm::APSInt::getUnsigned(0)},
                      {"receive", llvm::APSInt::getUnsigned(1)}});
  CHECK(e->str() == "mode");
  CHECK(e->findMember("receive") == 1u);
}

TEST_CASE("types print as CSL spells them", "[sema][types]") {
  TypeContext ctx;
  const Type *i16 = ctx.getInt(16, true);
  const Type *f32 = ctx.getFloat(FloatFormat::F32);
  const Type *u32 = ctx.getInt(32, false);
  CHECK(i16->str() == "i16");
  CHECK(ctx.getInt(7, false)->str() == "u7");
  CHECK(ctx.getArray({4}, f32)->str() == "[4]f32");
  CHECK(ctx.getArray({2, 3}, f32)->str() == "[2, 3]f32");
  CHECK(ctx.getPointer(u32, true, true)->str() == "[*]const u32");
  CHECK(ctx.getPointer(u32, true, false)->str() == "[*]u32");
  CHECK(ctx.getPointer(ctx.getArray({8}, f32), false, false)->str() ==
        "*[8]f32");
  CHECK(ctx.getPointer(f32, false, true)->str() == "*const f32");
  CHECK(ctx.getFunction({i16}, ctx.getVoid(), false)->str() == "fn(i16) void");
  CHECK(ctx.getFunction({i16, f32}, u32, false)->str() == "fn(i16, f32) u32");
  CHECK(ctx.getFunction({}, ctx.getVoid(), true)->str() == "task() void");
  CHECK(ctx.getComptimeInt()->str() == "comptime_int");
  CHECK(ctx.getComptimeFloat()->str() == "comptime_float");
  CHECK(ctx.getTypeType()->str() == "type");
  CHECK(ctx.getComptimeStruct()->str() == "comptime_struct");
  CHECK(ctx.get(Type::Kind::Color)->str() == "color");
  CHECK(ctx.get(Type::Kind::LocalTaskID)->str() == "local_task_id");
  CHECK(ctx.getDSD(DSDKind::FabinDSD)->str() == "fabin_dsd");
  CHECK(ctx.getFloat(FloatFormat::F16)->str() == "f16");
}

TEST_CASE("predeclared type names", "[sema][types]") {
  TypeContext ctx;
  CHECK(ctx.lookupBuiltinTypeName("i16") == ctx.getInt(16, true));
  CHECK(ctx.lookupBuiltinTypeName("u64") == ctx.getInt(64, false));
  CHECK(ctx.lookupBuiltinTypeName("u24") == ctx.getInt(24, false));
  CHECK(ctx.lookupBuiltinTypeName("f32") == ctx.getFloat(FloatFormat::F32));
  CHECK(ctx.lookupBuiltinTypeName("color") == ctx.get(Type::Kind::Color));
  CHECK(ctx.lookupBuiltinTypeName("mem1d_dsd") == ctx.getDSD(DSDKind::Mem1d));
  CHECK(ctx.lookupBuiltinTypeName("comptime_struct") ==
        ctx.getComptimeStruct());
  CHECK(ctx.lookupBuiltinTypeName("i016") == nullptr);
  CHECK(ctx.lookupBuiltinTypeName("u99999999") == nullptr);
  CHECK(ctx.lookupBuiltinTypeName("ix") == nullptr);
  CHECK(ctx.lookupBuiltinTypeName("foo") == nullptr);
}

TEST_CASE("integer type ranges", "[sema][types]") {
  TypeContext ctx;
  CHECK(ctx.getInt(16, true)->getMinValue().getExtValue() == -32768);
  CHECK(ctx.getInt(16, true)->getMaxValue().getExtValue() == 32767);
  CHECK(ctx.getInt(16, false)->getMaxValue().getZExtValue() == 65535);
  CHECK(ctx.getFloat(FloatFormat::F16)->getPrecision() == 11);
  CHECK(ctx.getArray({2, 3, 4}, ctx.getBool())->getNumElements() == 24);
}
