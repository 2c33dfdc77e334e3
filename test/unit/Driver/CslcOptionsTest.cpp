//===- CslcOptionsTest.cpp - cslc command-line parsing --------------------===//

#include "tessera/Driver/CslcOptions.h"

#include <catch2/catch.hpp>

using namespace tessera::driver;
using tessera::target::Arch;

namespace {

CslcOptions parseOK(std::vector<std::string> args) {
  auto options = parseCslcArguments(args);
  if (!options) {
    FAIL("unexpected error: " << llvm::toString(options.takeError()));
  }
  return std::move(*options);
}

std::string parseError(std::vector<std::string> args) {
  auto options = parseCslcArguments(args);
  if (options)
    return "<no error>";
  return llvm::toString(options.takeError());
}

} // namespace

TEST_CASE("defaults match the SDK's cslc", "[driver]") {
  CslcOptions o = parseOK({"layout.csl"});
  CHECK(o.inputFile == "layout.csl");
  CHECK(o.outputDir == "out");
  CHECK(o.arch == Arch::WSE2);
  CHECK_FALSE(o.fabricDims.has_value());
  CHECK_FALSE(o.memcpy);
  CHECK(o.channels == 1);
  CHECK(o.fp16Format == Fp16Format::IEEE);
  CHECK(o.debugInfo);
  CHECK(o.emit == EmitKind::Binary);
  CHECK_FALSE(o.outputJson.has_value());
}

TEST_CASE("the common SDK command line", "[driver]") {
  // As the public examples' commands_wse3.sh write it.
  CslcOptions o = parseOK({"--arch=wse3", "./layout.csl", "--fabric-offsets=4,1",
                           "--fabric-dims=11,6", "--params=kernel_rows:4,kernel_cols:4",
                           "-o", "out", "--memcpy", "--channels=1",
                           "--width-west-buf=0", "--width-east-buf=0"});
  CHECK(o.arch == Arch::WSE3);
  CHECK(o.inputFile == "./layout.csl");
  CHECK(o.fabricOffsets == Extent{4, 1});
  CHECK(o.fabricDims == Extent{11, 6});
  CHECK(o.params == std::vector<NamedValue>{{"kernel_rows", 4}, {"kernel_cols", 4}});
  CHECK(o.outputDir == "out");
  CHECK(o.memcpy);
  CHECK(o.channels == 1);
  CHECK(o.widthWestBuf == 0);
  CHECK(o.widthEastBuf == 0);
}

TEST_CASE("space-separated and attached values are equivalent", "[driver]") {
  CslcOptions spaced = parseOK({"--arch", "wse3", "--channels", "2", "-o",
                                "out_code", "--fabric-dims", "8,3", "x.csl"});
  CslcOptions attached = parseOK({"--arch=wse3", "--channels=2", "-o=out_code",
                                  "--fabric-dims=8,3", "x.csl"});
  CHECK(spaced.arch == attached.arch);
  CHECK(spaced.channels == 2);
  CHECK(attached.channels == 2);
  CHECK(spaced.outputDir == "out_code");
  CHECK(attached.outputDir == "out_code");
  CHECK(spaced.fabricDims == attached.fabricDims);
}

TEST_CASE("repeated --params and --colors concatenate in order", "[driver]") {
  CslcOptions o =
      parseOK({"--params=width:5,height:5", "--params=C0_ID:0", "--params",
               "MAX_ZDIM:0x10", "--colors=x_in:1,ax_out:3", "--colors=b_in:4",
               "layout.csl"});
  CHECK(o.params == std::vector<NamedValue>{{"width", 5},
                                            {"height", 5},
                                            {"C0_ID", 0},
                                            {"MAX_ZDIM", 16}});
  CHECK(o.colors ==
        std::vector<NamedValue>{{"x_in", 1}, {"ax_out", 3}, {"b_in", 4}});
}

TEST_CASE("a repeated scalar flag keeps the last value", "[driver]") {
  CslcOptions o = parseOK({"--arch=wse3", "--arch=wse2", "a.csl"});
  CHECK(o.arch == Arch::WSE2);
}

TEST_CASE("the remaining SDK flags", "[driver]") {
  CslcOptions o = parseOK(
      {"--fp16-format=bf16", "--import-path", "lib", "--import-path=more",
       "--output-json", "--out-routes", "--max-inlined-iterations=100",
       "--comptime-func-depth-limit=64", "--max-parallelism=2", "-g0",
       "--warnings-as-errors", "--verbose", "--emit=ast", "a.csl"});
  CHECK(o.fp16Format == Fp16Format::BF16);
  CHECK(o.importPaths == std::vector<std::string>{"lib", "more"});
  CHECK(o.outputJson == std::optional<std::string>(""));
  CHECK(o.outRoutes);
  CHECK(o.maxInlinedIterations == 100u);
  CHECK(o.comptimeFuncDepthLimit == 64u);
  CHECK(o.maxParallelism == 2u);
  CHECK_FALSE(o.debugInfo);
  CHECK(o.warningsAsErrors);
  CHECK(o.verbose);
  CHECK(o.emit == EmitKind::AST);

  // --output-json takes its path only when attached with '='.
  CslcOptions withPath = parseOK({"--output-json=meta.json", "a.csl"});
  CHECK(withPath.outputJson == std::optional<std::string>("meta.json"));
  CslcOptions notAPath = parseOK({"--output-json", "a.csl"});
  CHECK(notAPath.inputFile == "a.csl");
}

TEST_CASE("a double dash ends the options", "[driver]") {
  CslcOptions o = parseOK({"--", "--weird-name.csl"});
  CHECK(o.inputFile == "--weird-name.csl");
}

TEST_CASE("--help and --version need no input file", "[driver]") {
  CHECK(parseOK({"--help"}).showHelp);
  CHECK(parseOK({"-h"}).showHelp);
  CHECK(parseOK({"--version"}).showVersion);
}

TEST_CASE("malformed command lines name the flag and what was expected",
          "[driver]") {
  CHECK(parseError({"--arch=wse1", "a.csl"}) ==
        "invalid value 'wse1' for '--arch': expected one of wse2, wse3");
  CHECK(parseError({"--fabric-dims=8,3,1", "a.csl"}) ==
        "invalid value '8,3,1' for '--fabric-dims': expected two integers W,H "
        "(e.g. 8,3)");
  CHECK(parseError({"--fabric-dims=8,", "a.csl"}) ==
        "invalid value '8,' for '--fabric-dims': expected two integers W,H "
        "(e.g. 8,3)");
  CHECK(parseError({"--params=1x:3", "a.csl"}) ==
        "invalid entry '1x:3' in '--params': expected NAME:VALUE with NAME an "
        "identifier");
  CHECK(parseError({"--params=x:-3", "a.csl"}) ==
        "invalid value '-3' for 'x' in '--params': expected an unsigned "
        "integer");
  CHECK(parseError({"--params=x:010", "a.csl"}) ==
        "invalid value '010' for 'x' in '--params': expected an unsigned "
        "integer");
  CHECK(parseError({"--params=x:99999999999999999999", "a.csl"}) ==
        "invalid value '99999999999999999999' for 'x' in '--params': expected "
        "an unsigned integer");
  CHECK(parseError({"--channels=4294967296", "a.csl"}) ==
        "invalid value '4294967296' for '--channels': expected a positive "
        "integer");
  CHECK(parseError({"--colors=c:3", "--colors=c:3", "a.csl"}) ==
        "'c' is given twice in '--colors' (3 and 3)");
  CHECK(parseError({"--colors=c:23", "a.csl"}) == "<no error>");
  CHECK(parseError({"--verbose=1", "a.csl"}) ==
        "option '--verbose' does not take a value");
  CHECK(parseError({"-O2", "a.csl"}) == "unknown option '-O2'");
  CHECK(parseError({"--param=x:1", "a.csl"}) ==
        "unknown option '--param'; did you mean '--params'?");
  CHECK(parseError({"-o"}) == "missing value for '-o' (expected DIR)");
  CHECK(parseError({}) == "no input file");
  CHECK(parseError({"a.csl", "b.csl", "c.csl"}) ==
        "more than one input file: 'a.csl', 'b.csl', 'c.csl'");
}
