//===- cslc.cpp - the Tessera CSL compiler driver -------------------------===//
//
// Reads the command line (compatible with the Cerebras SDK's cslc), loads the
// top-level source file and runs the compile pipeline as far as it goes.
//
//===----------------------------------------------------------------------===//

#include "TopLevelParams.h"
#include "tessera/Driver/CslcOptions.h"
#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/CSLPrinter.h"
#include "tessera/Frontend/Elaboration/ConnectionResolver.h"
#include "tessera/Frontend/Elaboration/FabricGen.h"
#include "tessera/Frontend/Elaboration/LayoutBuiltins.h"
#include "tessera/Frontend/Elaboration/ModuleLoader.h"
#include "tessera/Frontend/Elaboration/RegionPlacement.h"
#include "tessera/Frontend/MLIRGen/ProgramGen.h"
#include "tessera/Frontend/Parser.h"
#include "tessera/InitAllDialects.h"
#include "tessera/Pipelines/Backend.h"
#include "tessera/Target/PEBinary/Dump.h"
#include "tessera/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
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

frontend::sema::InterpreterOptions
getInterpreterOptions(const CslcOptions &options) {
  using frontend::sema::FloatFormat;
  frontend::sema::InterpreterOptions result;
  result.arch = options.arch;
  result.memcpy = options.memcpy;
  switch (options.fp16Format) {
  case Fp16Format::IEEE:
    result.fp16Format = FloatFormat::F16;
    break;
  case Fp16Format::CB16:
    result.fp16Format = FloatFormat::CB16;
    break;
  case Fp16Format::BF16:
    result.fp16Format = FloatFormat::BF16;
    break;
  }
  if (options.maxInlinedIterations)
    result.maxSteps = *options.maxInlinedIterations;
  if (options.comptimeFuncDepthLimit)
    result.maxCallDepth = *options.comptimeFuncDepthLimit;
  return result;
}

/// Checks, allocates and lowers the verified module, then writes the output
/// directory (or with --emit=pe prints each binary and the fabric file).
const char *getDirectionName(frontend::elaboration::Direction direction) {
  using frontend::elaboration::Direction;
  switch (direction) {
  case Direction::West:
    return "west";
  case Direction::East:
    return "east";
  case Direction::North:
    return "north";
  case Direction::South:
    return "south";
  case Direction::Ramp:
    return "ramp";
  }
  return "ramp";
}

int runBackend(const CslcOptions &options, mlir::ModuleOp module,
               llvm::SourceMgr &sourceMgr,
               const frontend::elaboration::LayoutDescription &layout) {
  // Backend errors and their notes print like the frontend's, with the
  // source line; with --warnings-as-errors a warning is an error.
  mlir::SourceMgrDiagnosticHandler sourceHandler(sourceMgr,
                                                 module->getContext());
  bool upgradedWarning = false;
  mlir::ScopedDiagnosticHandler handler(
      module->getContext(), [&](mlir::Diagnostic &diag) {
        mlir::DiagnosticSeverity severity = diag.getSeverity();
        std::string message = diag.str();
        if (options.warningsAsErrors &&
            severity == mlir::DiagnosticSeverity::Warning) {
          severity = mlir::DiagnosticSeverity::Error;
          message += " [--warnings-as-errors]";
          upgradedWarning = true;
        }
        sourceHandler.emitDiagnostic(diag.getLocation(), message, severity);
        for (mlir::Diagnostic &note : diag.getNotes())
          sourceHandler.emitDiagnostic(note.getLocation(), note.str(),
                                       note.getSeverity());
        return mlir::success();
      });
  auto stage = [&](const llvm::Twine &what) {
    if (options.verbose)
      llvm::errs() << "cslc: " << what << "\n";
  };
  mlir::PassManager pm(module->getContext());
  // The module was verified after generation; the passes keep it valid
  // (tessera-opt runs them with verification), so do not verify it again.
  pm.enableVerifier(false);
  pipelines::BackendOptions backend;
  backend.memcpy = options.memcpy;
  pipelines::buildBackendPipeline(pm, backend);
  if (mlir::failed(pm.run(module)) || upgradedWarning)
    return 1;
  stage("checked routes and resources, allocated memory");
  pipelines::CompiledFabric compiled;
  if (mlir::failed(pipelines::lowerModule(module, compiled)) || upgradedWarning)
    return 1;
  size_t instances = 0;
  for (pipelines::CompiledProgram &program : compiled.programs) {
    instances += program.instances.size();
    // -g0: no line table, file names or variables.
    if (!options.debugInfo) {
      program.binary.lines.clear();
      program.binary.files.clear();
      program.binary.variables.clear();
    }
  }
  stage("lowered " + llvm::Twine(instances) + " program instances to " +
        llvm::Twine(compiled.programs.size()) + " PE binaries");
  if (options.emit == EmitKind::PE) {
    for (const pipelines::CompiledProgram &program : compiled.programs)
      llvm::outs() << "program " << program.symbol << " (" << program.fileName
                   << ", " << program.numPEs << " PEs, stack "
                   << program.stackBytes << " bytes)\n"
                   << pe::dumpProgram(program.binary) << "\n";
    llvm::outs() << pe::dumpFabric(compiled.fabric);
    return 0;
  }
  pipelines::OutputMetadata metadata;
  for (const NamedValue &p : options.params)
    metadata.params.push_back({p.name, p.value});
  for (const NamedValue &c : options.colors)
    metadata.colors.push_back({c.name, c.value});
  if (options.outputJson)
    metadata.jsonPath = *options.outputJson;
  for (const auto &color : layout.symbolicColors)
    metadata.symbolicColors.push_back({color.name, *color.physical});
  for (const auto &region : layout.regions)
    metadata.regions.push_back({region.name, region.origin->first,
                                region.origin->second, region.width,
                                region.height, region.placedByCompiler});
  for (const auto &stream : layout.hostStreams)
    metadata.hostStreams.push_back(
        {stream.name,
         stream.direction == frontend::elaboration::StreamDirection::In,
         stream.edgePE.first, stream.edgePE.second,
         getDirectionName(stream.edgePort), stream.physicalColor});
  std::string error =
      pipelines::writeOutputDirectory(compiled, metadata, options.outputDir);
  if (!error.empty())
    return reportError(error);
  stage("wrote '" + options.outputDir + "'");
  if (options.outRoutes)
    llvm::outs() << pe::dumpRoutes(compiled.fabric);
  return 0;
}

/// Compiles every program instance of the layout into a csl.program linked
/// from its fabric.instance, verifies the whole and prints the programs, then
/// the fabric.
int generatePrograms(const CslcOptions &options, llvm::SourceMgr &sourceMgr,
                     mlir::MLIRContext &context,
                     frontend::sema::Interpreter &interp,
                     frontend::mlirgen::ProgramBuiltins &builtins,
                     frontend::elaboration::LayoutBuilder &layoutBuilder,
                     frontend::elaboration::LayoutDescription &layout,
                     const frontend::elaboration::FabricOptions &fabricOptions,
                     mlir::OwningOpRef<fabric::FabricOp> fabricOp) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  mlir::OpBuilder builder(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto instances = fabricOp->getBody().front().getOps<fabric::InstanceOp>();
  bool failed = false;
  llvm::SmallVector<mlir::FlatSymbolRefAttr> programs;
  for (auto [index, program, instance] :
       llvm::enumerate(layout.programs, instances)) {
    layoutBuilder.setCurrentProgram(index);
    auto programOp = frontend::mlirgen::generateProgram(
        builder, interp, builtins, *program.module, instance.getSymName(),
        instance.getFileAttr(), instance.getParamsAttr());
    layoutBuilder.setCurrentProgram(std::nullopt);
    if (mlir::failed(programOp)) {
      failed = true;
      continue;
    }
    programs.push_back(
        mlir::FlatSymbolRefAttr::get(programOp->getSymNameAttr()));
  }
  // An error reported without failing generation (a warning taken as an
  // error) still stops the compile.
  if (failed || interp.getDiagnostics().getNumErrors() > 0)
    return 1;
  // Tile programs may have added routes (@set_local_color_config): the
  // fabric is generated again from the completed layout.
  auto completed =
      frontend::elaboration::generateFabric(context, layout, fabricOptions);
  if (!completed) {
    llvm::errs() << "cslc: internal error: "
                 << llvm::toString(completed.takeError()) << "\n";
    return 1;
  }
  fabricOp = std::move(*completed);
  for (auto [program, instance] : llvm::zip(
           programs, fabricOp->getBody().front().getOps<fabric::InstanceOp>()))
    instance.setProgramAttr(program);
  module->getBody()->push_back(fabricOp.release());
  // Verification and the backend work program by program in parallel, on
  // at most --max-parallelism threads; generation above stays on one
  // thread, where MLIR's uniquing needs no locks.
  std::optional<llvm::DefaultThreadPool> threads;
  if (!options.maxParallelism || *options.maxParallelism > 1) {
    threads.emplace(llvm::hardware_concurrency(
        options.maxParallelism ? *options.maxParallelism : 0));
    context.setThreadPool(*threads);
  }
  llvm::scope_exit noThreads([&] {
    if (threads)
      context.disableMultithreading();
  });
  // Every user error is reported before; a verifier failure is a bug.
  std::string message;
  llvm::raw_string_ostream os(message);
  auto handlerID =
      context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
        os << diag;
        for (mlir::Diagnostic &note : diag.getNotes())
          os << "; note: " << note;
      });
  if (mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "cslc: internal error: " << message << "\n";
    return 1;
  }
  if (options.emit == EmitKind::Binary || options.emit == EmitKind::PE) {
    if (options.verbose)
      llvm::errs() << "cslc: elaborated the layout and generated "
                   << programs.size() << " program instances\n";
    context.getDiagEngine().eraseHandler(handlerID);
    return runBackend(options, *module, sourceMgr, layout);
  }
  if (options.emit != EmitKind::MLIR)
    return 0;
  // The module was verified above; each program prints on its own (local
  // scope), so printing stays linear in the number of programs.
  mlir::OpPrintingFlags flags;
  flags.assumeVerified().useLocalScope();
  for (mlir::Operation &op : module->getBody()->getOperations()) {
    op.print(llvm::outs(), flags);
    llvm::outs() << "\n";
  }
  return 0;
}

/// Runs the top-level file's comptime blocks and layout and prints the
/// fabric module (docs/Elaboration.md); with `--emit=mlir` also compiles
/// each program instance into a csl.program printed before it
/// (docs/MLIRGen.md).
int elaborate(const CslcOptions &options, llvm::SourceMgr &sourceMgr,
              unsigned bufferID,
              std::unique_ptr<frontend::ast::SourceFile> ast) {
  namespace sema = frontend::sema;
  namespace elab = frontend::elaboration;
  sema::TypeContext types;
  sema::DiagnosticEngine diags(sourceMgr, llvm::errs());
  diags.setWarningsAsErrors(options.warningsAsErrors);
  sema::Interpreter interp(types, diags, llvm::outs(),
                           getInterpreterOptions(options));
  elab::ModuleLoader loader(sourceMgr, interp, llvm::errs(),
                            {options.importPaths, TESSERA_CSL_LIBRARY_DIR});
  loader.install();
  elab::LayoutDescription layout;
  elab::LayoutBuilder layoutBuilder(interp, loader, layout);
  layoutBuilder.install();
  frontend::mlirgen::ProgramBuiltins programBuiltins(interp);
  programBuiltins.install();

  elab::LoadedFile &top =
      loader.addParsedFile(options.inputFile, bufferID, std::move(ast));
  sema::ModuleInstance *module = createTopLevelModule(options, interp, top);
  if (!module)
    return 1;
  auto failed = [&] {
    return diags.getNumErrors() + loader.getNumSyntaxErrors() > 0;
  };
  if (failed() || !interp.runComptimeBlocks(*module) || failed() ||
      !layoutBuilder.run(*module) || failed())
    return 1;
  if (!elab::placeLayoutRegions(layout, diags) || failed())
    return 1;
  if (!elab::resolveConnections(layout, types, diags,
                                {options.arch, options.memcpy}) ||
      failed())
    return 1;

  elab::FabricOptions fabricOptions;
  fabricOptions.arch = options.arch;
  if (options.fabricDims)
    fabricOptions.dims = {options.fabricDims->x, options.fabricDims->y};
  if (options.fabricOffsets)
    fabricOptions.offsets = {options.fabricOffsets->x,
                             options.fabricOffsets->y};
  fabricOptions.memcpy = options.memcpy;
  fabricOptions.channels = options.channels;
  fabricOptions.westBuffer = options.widthWestBuf;
  fabricOptions.eastBuffer = options.widthEastBuf;
  fabricOptions.sourceMgr = &sourceMgr;
  fabricOptions.hostStreams = !layout.hostStreams.empty();
  auto [width, height] = *layout.rectangle;
  if (llvm::Error error =
          elab::computeGeometry(width, height, fabricOptions).takeError())
    return reportError(llvm::toString(std::move(error)));

  // Generation is single-threaded, and MLIR's uniquing is cheaper without
  // locks: threads are turned on after it (generatePrograms).
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics point at the layout's source lines; the op's generic form
  // would only repeat them in MLIR syntax.
  context.printOpOnDiagnostic(false);
  auto fabricOp = elab::generateFabric(context, layout, fabricOptions);
  if (!fabricOp) {
    llvm::errs() << "cslc: internal error: "
                 << llvm::toString(fabricOp.takeError()) << "\n";
    return 1;
  }
  if (options.emit == EmitKind::Fabric) {
    (*fabricOp)->print(llvm::outs());
    return 0;
  }
  return generatePrograms(options, sourceMgr, context, interp, programBuiltins,
                          layoutBuilder, layout, fabricOptions,
                          std::move(*fabricOp));
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
  return elaborate(options, sourceMgr, bufferID, std::move(parsed.file));
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
