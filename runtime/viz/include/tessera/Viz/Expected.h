//===- Expected.h - errors as values in tessera::viz ------------*- C++ -*-===//
//
// The shared Error, Expected<T> and Status (tessera/Support/Expected.h),
// named where this library's code and users look for them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_EXPECTED_H
#define TESSERA_VIZ_EXPECTED_H

#include "tessera/Support/Expected.h"

namespace tessera::viz {

using tessera::Error;
using tessera::Expected;
using tessera::Status;

} // namespace tessera::viz

#endif // TESSERA_VIZ_EXPECTED_H
