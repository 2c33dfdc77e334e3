//===- cslc.cpp - the Tessera CSL compiler driver -------------------------===//
//
// Reads the command line (compatible with the Cerebras SDK's cslc), loads the
// top-level source file and runs the compile pipeline as far as it goes.
//
//===----------------------------------------------------------------------===//

#include "tessera/Driver/CslcOptions.h"
#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/CSLPrinter.h"
#include "tessera/Frontend/Parser.h"
#include "tessera/Version.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tessera;
using namespace tessera::driver;

namespace {

int reportError(const llvm::Twine &message) {
  llvm::errs() << "cslc: error: " << message << "\n";
  return 1;
}

void printVersion(llvm::raw_ostream &os) {
  os << "cslc (Tessera) " << TESSERA_VERSION_STRING << "\n"
     << "built with LLVM/MLIR " << TESSERA_LLVM_VERSION_STRING << "\n"
     << "targets: wse2, wse3\n";
}

int compile(const CslcOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.inputFile,
                                                   /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return reportError("cannot read '" + options.inputFile +
                       "': " + ec.message());

  llvm::SourceMgr sourceMgr;
  sourceMgr.setIncludeDirs(options.importPaths);
  unsigned bufferID =
      sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());

  frontend::ParseResult parsed =
      frontend::parseSourceFile(sourceMgr, bufferID, llvm::errs());
  if (parsed.numErrors > 0)
    return 1;
  if (options.emit == EmitKind::AST) {
    frontend::printAST(*parsed.file, sourceMgr, llvm::outs());
    return 0;
  }
  if (options.emit == EmitKind::CSL) {
    frontend::printCSL(*parsed.file, llvm::outs());
    return 0;
  }

  // The stages after parsing are not built yet; say so plainly rather than
  // produce output that looks like a compiled program.
  std::string stage = options.emit == EmitKind::Binary
                          ? "writing PE binaries to '" + options.outputDir + "'"
                          : "'--emit=" + getEmitKindName(options.emit).str() + "'";
  return reportError(stage +
                     " is not supported yet: this cslc stops after parsing '" +
                     options.inputFile + "'");
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::vector<std::string> args(argv + 1, argv + argc);

  llvm::Expected<CslcOptions> options = parseCslcArguments(args);
  if (!options) {
    reportError(llvm::toString(options.takeError()));
    llvm::errs() << "cslc: run 'cslc --help' for usage\n";
    return 1;
  }
  if (options->showHelp) {
    printCslcHelp(llvm::outs());
    return 0;
  }
  if (options->showVersion) {
    printVersion(llvm::outs());
    return 0;
  }
  return compile(*options);
}
