//===- LazyTests.cpp - Lazy globals, cycles, branches, shadowing ----------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("top-level declarations are order-independent", "[sema][lazy]") {
  auto s = load("const a = b * 2;\nconst b = c + 1;\nconst c = f(3);\n"
                "fn f(x: u16) u16 { return x * N; }\nconst N = 10;\n");
  CHECK(s->str("a") == "62");
  CHECK(s->diagText.empty());
}

TEST_CASE("only referenced declarations are analysed", "[sema][lazy]") {
  auto s = load("const good = 1;\nconst bad = undefined_thing();\n"
                "fn broken() void { initialSwitchPosition(1, 2, 3); }\n"
                "var used: [4]u16 = @zeros([4]u16);\nvar unused: [10240]u32;\n"
                "const p = &used;\n");
  CHECK(s->str("good") == "1");
  CHECK(s->str("p") == "run-time value of type '*[4]u16'");
  CHECK(s->diagText.empty());
  std::vector<const tessera::frontend::ast::VarDecl *> vars =
      s->module->getReferencedVars();
  REQUIRE(vars.size() == 1);
  CHECK(vars[0]->name.text == "used");
  const GlobalSlot *used = s->module->findGlobal("used");
  CHECK(used->initialValue.str() == "[4]u16{ 0, 0, 0, 0 }");
  CHECK_FALSE(s->module->isReferenced(s->module->findGlobal("unused")->decl));
}

TEST_CASE("untaken comptime branches are not analysed", "[sema][lazy]") {
  const char *src =
      "const x = if (@is_arch(\"wse3\")) undefined_thing() else 2;\n"
      "comptime {\n  if (@is_arch(\"wse3\")) { undefined_thing(); }\n"
      "  if (false and missing()) {}\n  if (true or missing()) {}\n}\n"
      "fn f(pattern: u16) u16 {\n"
      "  if (pattern == 2) { return g(1, 2, 3); }\n  return 0;\n}\n"
      "fn g(a: u16, b: u16) u16 { return a + b; }\nconst y = f(5);\n"
      "fn h() u16 { return 1; @comptime_assert(false); }\nconst z = h();\n";
  auto s = load(src);
  CHECK(s->str("x") == "2");
  CHECK(s->interp->runComptimeBlocks(*s->module));
  CHECK(s->str("y") == "0");
  CHECK(s->str("z") == "1");
  CHECK(s->diagText.empty());

  InterpreterOptions wse3;
  wse3.arch = tessera::target::Arch::WSE3;
  auto t = load(src, {}, wse3);
  CHECK(t->str("x") == "<error>");
  CHECK(t->firstError() ==
        "test.csl:1:33: error: use of undeclared identifier 'undefined_thing'");
}

TEST_CASE("dependency cycles name the chain", "[sema][lazy]") {
  auto s = load("const a = b + 1;\nconst b = c;\nconst c = a;\n"
                "const self = self;\n");
  CHECK(s->str("a") == "<error>");
  CHECK(s->str("b") == "<error>");
  CHECK(s->str("self") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:3:11: error: dependency cycle: a -> b -> c -> a",
            "test.csl:1:7: note: 'a' declared here",
            "test.csl:4:14: error: dependency cycle: self -> self",
            "test.csl:4:7: note: 'self' declared here"});
}

TEST_CASE("params: supplied, defaulted, missing", "[sema][params]") {
  const char *src = "param width: u16;\nparam height: u16 = width * 2;\n"
                    "param unused: u16;\nparam c = @get_color(1);\n"
                    "param small: u8;\nconst area = width * height;\n";
  auto s = load(src, [](TypeContext &ctx, ParamMap &p) {
    p["width"] = Value::getComptimeInt(ctx, 3);
    p["small"] = Value::getComptimeInt(ctx, 1000);
  });
  CHECK(s->str("area") == "18");
  CHECK(s->str("c") == "color(1)");
  CHECK(s->str("small") == "<error>");
  CHECK(s->firstError() ==
        "test.csl:5:1: error: value 1000 does not fit in 'u8'");

  auto m = load(src);
  CHECK(m->str("area") == "<error>");
  CHECK(
      m->messages() ==
      std::vector<std::string>{
          "test.csl:6:14: error: param 'width' is used but was given no value",
          "test.csl:1:7: note: 'width' declared here"});
}

TEST_CASE("shadowing: locals may shadow globals and outer locals",
          "[sema][scope]") {
  auto s = load("param srcZ: u16 = 1;\n"
                "fn f() u16 {\n  const srcZ = 40;\n  var r: u16 = srcZ;\n"
                "  { const srcZ = 2; r += srcZ; }\n  return r + srcZ;\n}\n"
                "const v = f();\nconst w = srcZ;\n");
  CHECK(s->str("v") == "82");
  CHECK(s->str("w") == "1");
  CHECK(s->diagText.empty());
}

TEST_CASE("redefinition in one scope is an error with a note",
          "[sema][scope]") {
  auto s = load("const a = 1;\nvar a: u16 = 2;\n"
                "fn f() void { const x = 1; var x = 2; }\nconst y = f();\n");
  CHECK(s->str("y") == "<error>");
  CHECK(s->messages() == std::vector<std::string>{
                             "test.csl:2:5: error: redefinition of 'a'",
                             "test.csl:1:7: note: 'a' first defined here",
                             "test.csl:3:32: error: redefinition of 'x'",
                             "test.csl:3:15: note: 'x' first defined here"});
}

TEST_CASE("assignment rules", "[sema][scope]") {
  auto s = load(
      "const k = 1;\nvar g: u16 = 0;\n"
      "fn a() void { const c = 1; c = 2; }\n"
      "fn b() void { k = 2; }\nfn c() void { g = 2; }\n"
      "fn d() u16 { var x: u16 = 1; x = 70000; return x; }\n"
      "const ra = a();\nconst rb = b();\nconst rc = c();\nconst rd = d();\n");
  CHECK(s->str("ra") == "<error>");
  CHECK(s->str("rb") == "<error>");
  CHECK(s->str("rc") == "<error>");
  CHECK(s->str("rd") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:3:28: error: cannot assign to constant 'c'",
            "test.csl:4:15: error: cannot assign to constant 'k'",
            "test.csl:5:15: error: cannot assign to run-time variable 'g' at "
            "comptime",
            "test.csl:6:34: error: value 70000 does not fit in 'u16'"});
}

TEST_CASE("comptime vars in layout-style blocks", "[sema][scope]") {
  auto s = load("const P = 4;\ncomptime {\n  var x = 0;\n  var acc = .{};\n"
                "  while (x < P) : (x += 1) {\n"
                "    acc = @concat_structs(acc, .{ x * x });\n  }\n"
                "  @comptime_print(x, acc);\n}\n");
  CHECK(s->interp->runComptimeBlocks(*s->module));
  CHECK(s->printed == "4 .{ 0, 1, 4, 9 }\n");
  CHECK(s->diagText.empty());
}

TEST_CASE("module instances are independent", "[sema][lazy]") {
  auto s = load("param n: u16;\nconst twice = n * 2;\n");
  ParamMap p1, p2;
  p1["n"] = Value::getComptimeInt(s->types, 3);
  p2["n"] = Value::getComptimeInt(s->types, 5);
  ModuleInstance &m1 = s->interp->createModule(s->parsed.file(), "a", p1);
  ModuleInstance &m2 = s->interp->createModule(s->parsed.file(), "b", p2);
  CHECK(s->interp->getGlobal(m1, "twice", {})->str() == "6");
  CHECK(s->interp->getGlobal(m2, "twice", {})->str() == "10");
}

TEST_CASE("global var initializers: comptime values or addresses",
          "[sema][lazy]") {
  auto s = load("var A: [4]f32;\nvar ptr_A: [*]f32 = &A;\nvar n: u16 = 3;\n"
                "var bad: u16 = n;\nconst use = .{ ptr_A, bad };\n");
  CHECK(s->str("ptr_A") == "run-time value of type '[*]f32'");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:4:16: error: initializer of global var 'bad' is not "
            "comptime-known"});
  CHECK(s->module->findGlobal("ptr_A")->initialValue.str() ==
        "run-time value of type '[*]f32'");
}

TEST_CASE("the public API: evaluate, evaluateType, call", "[sema][api]") {
  auto s = load("fn add(a: u16, b: u16) u16 { return a + b; }\n"
                "const T = [2]u16;\nconst e = add(1, 2);\n");
  auto &decl = *llvm::cast<tessera::frontend::ast::VarDecl>(
      s->module->findGlobal("e")->decl);
  std::optional<Value> v = s->interp->evaluate(*s->module, *decl.init);
  REQUIRE(v);
  CHECK(v->str() == "3");
  auto &tdecl = *llvm::cast<tessera::frontend::ast::VarDecl>(
      s->module->findGlobal("T")->decl);
  const Type *t = s->interp->evaluateType(*s->module, *tdecl.init);
  REQUIRE(t);
  CHECK(t->str() == "[2]u16");
  std::optional<Value> fn = s->get("add");
  REQUIRE(fn);
  CHECK(fn->getType()->str() == "fn(u16, u16) u16");
  std::optional<Value> r = s->interp->call(
      *fn,
      {Value::getComptimeInt(s->types, 40), Value::getComptimeInt(s->types, 2)},
      {});
  REQUIRE(r);
  CHECK(r->str() == "42");
  CHECK(r->getType()->str() == "u16");
  std::optional<Value> c = s->interp->convert(
      Value::getComptimeInt(s->types, -1), s->types.getInt(8, true), {});
  REQUIRE(c);
  CHECK(c->str() == "-1");
}

TEST_CASE("named structs: anonymous literals coerce", "[sema][struct]") {
  auto s = load("const Point = struct { x: i16, y: i16 };\n"
                "const p: Point = .{ .y = 2, .x = -1 };\nconst px = p.x;\n"
                "const q: Point = .{ .x = 1 };\n"
                "const r: Point = .{ .x = 1, .y = 2, .z = 3 };\n"
                "const t = @type_of(p);\n");
  CHECK(s->str("p") == ".{ .x = -1, .y = 2 }");
  CHECK(s->str("px") == "-1");
  CHECK(s->str("t") == "Point");
  CHECK(s->str("q") == "<error>");
  CHECK(s->str("r") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:4:18: error: missing field 'y' for struct 'Point'",
            "test.csl:5:18: error: struct 'Point' has no field named 'z'"});
}

TEST_CASE("trial calls leave no trace when they fail", "[sema][lazy]") {
  auto s = load("var x: u16 = 3;\nconst broken = missing();\n"
                "fn pure(a: u16) u16 { return a * 2; }\n"
                "fn reads() u16 { return x + 1; }\n"
                "fn uses_broken() u16 { return broken; }\n");
  auto fn = [&](const char *name) { return *s->get(name); };
  TypeContext &types = s->interp->getTypes();
  Value two = Value::getInt(types.getInt(16, false), llvm::APSInt::get(2));
  std::optional<Value> folded =
      s->interp->tryCall(fn("pure"), {two}, llvm::SMLoc());
  REQUIRE(folded);
  CHECK(folded->str() == "4");
  // Reading a run-time var, or a global that fails, is not comptime work;
  // neither prints anything.
  CHECK_FALSE(s->interp->tryCall(fn("reads"), {}, llvm::SMLoc()));
  CHECK_FALSE(s->interp->tryCall(fn("uses_broken"), {}, llvm::SMLoc()));
  CHECK(s->diagText.empty());
  CHECK(s->diags->getNumErrors() == 0);
  // The failed global is evaluated again, with its error, when used.
  CHECK(s->str("broken") == "<error>");
  CHECK(s->firstError() ==
        "test.csl:2:16: error: use of undeclared identifier 'missing'");
}
