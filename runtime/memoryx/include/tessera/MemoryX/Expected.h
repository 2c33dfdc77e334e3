//===- Expected.h - errors as values in tessera::memoryx --------*- C++ -*-===//
//
// The shared Error, Expected<T> and Status (tessera/Support/Expected.h),
// named where this library's code and users look for them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_EXPECTED_H
#define TESSERA_MEMORYX_EXPECTED_H

#include "tessera/Support/Expected.h"

namespace tessera::memoryx {

using tessera::Error;
using tessera::Expected;
using tessera::Status;

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_EXPECTED_H
