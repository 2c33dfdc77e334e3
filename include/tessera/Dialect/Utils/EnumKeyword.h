//===- EnumKeyword.h - enum attributes as bare keywords ---------*- C++ -*-===//
//
// The custom<EnumKeyword> directive prints an enum attribute as its bare
// keyword (`arch wse3`). Printing the attribute directly in an op format
// goes through its own printer, which adds a second leading space.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_UTILS_ENUMKEYWORD_H
#define TESSERA_DIALECT_UTILS_ENUMKEYWORD_H

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include <utility>

namespace tessera {

template <typename AttrT>
void printEnumKeyword(mlir::OpAsmPrinter &printer, mlir::Operation *,
                      AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}

template <typename AttrT>
mlir::ParseResult parseEnumKeyword(mlir::OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  mlir::FailureOr<EnumT> value = mlir::FieldParser<EnumT>::parse(parser);
  if (mlir::failed(value))
    return mlir::failure();
  attr = AttrT::get(parser.getContext(), *value);
  return mlir::success();
}

} // namespace tessera

#endif // TESSERA_DIALECT_UTILS_ENUMKEYWORD_H
