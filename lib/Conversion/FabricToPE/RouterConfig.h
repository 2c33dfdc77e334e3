//===- RouterConfig.h - a color_config in the file's terms ------*- C++ -*-===//
#ifndef TESSERA_LIB_CONVERSION_FABRICTOPE_ROUTERCONFIG_H
#define TESSERA_LIB_CONVERSION_FABRICTOPE_ROUTERCONFIG_H

#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Target/PEBinary/Binary.h"

namespace tessera {

/// The router configuration `config` sets on each PE of its range. Fails,
/// with a diagnostic at the op, on a filter value the file's 16-bit fields
/// cannot hold.
mlir::FailureOr<pe::RouterConfig> toRouterConfig(fabric::ColorConfigOp config);

} // namespace tessera

#endif // TESSERA_LIB_CONVERSION_FABRICTOPE_ROUTERCONFIG_H
