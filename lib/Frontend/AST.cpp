//===- AST.cpp - Names and operator tables of the CSL AST -----------------===//

#include "tessera/Frontend/AST.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemAlloc.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace tessera::frontend::ast;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
static constexpr size_t HugePageSize = 2 * 1024 * 1024;

void *SlabAllocator::Allocate(size_t size, size_t alignment) {
  if (size < HugePageSize || size % HugePageSize != 0)
    return llvm::allocate_buffer(size, alignment);
  // Over-allocate by one huge page and trim, so the slab is aligned.
  void *raw = mmap(nullptr, size + HugePageSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    llvm::report_bad_alloc_error("cannot map an AST slab");
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + HugePageSize - 1) & ~(HugePageSize - 1);
  if (aligned != start)
    munmap(raw, aligned - start);
  if (uintptr_t tail = start + size + HugePageSize - (aligned + size))
    munmap(reinterpret_cast<void *>(aligned + size), tail);
  // Only a hint: without huge pages the slab still works.
  madvise(reinterpret_cast<void *>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void *>(aligned);
}

void SlabAllocator::Deallocate(const void *ptr, size_t size, size_t alignment) {
  if (size < HugePageSize || size % HugePageSize != 0)
    return llvm::deallocate_buffer(const_cast<void *>(ptr), size, alignment);
  munmap(const_cast<void *>(ptr), size);
}
#else
void *SlabAllocator::Allocate(size_t size, size_t alignment) {
  return llvm::allocate_buffer(size, alignment);
}
void SlabAllocator::Deallocate(const void *ptr, size_t size, size_t alignment) {
  llvm::deallocate_buffer(const_cast<void *>(ptr), size, alignment);
}
#endif

llvm::StringRef tessera::frontend::ast::getKindName(Node::Kind kind) {
  switch (kind) {
#define KIND(K)                                                                \
  case Node::Kind::K:                                                          \
    return #K;
    KIND(SourceFile)
    KIND(FnDecl)
    KIND(LayoutBlock)
    KIND(ParamDecl)
    KIND(FieldDecl)
    KIND(EnumMember)
    KIND(SwitchProng)
    KIND(FieldInit)
    KIND(Capture)
    KIND(VarDecl)
    KIND(ComptimeBlock)
    KIND(BlockStmt)
    KIND(ExprStmt)
    KIND(AssignStmt)
    KIND(IfStmt)
    KIND(WhileStmt)
    KIND(ForStmt)
    KIND(ReturnStmt)
    KIND(BreakStmt)
    KIND(ContinueStmt)
    KIND(IntegerLiteral)
    KIND(FloatLiteral)
    KIND(CharLiteral)
    KIND(StringLiteral)
    KIND(BoolLiteral)
    KIND(VoidLiteral)
    KIND(Identifier)
    KIND(EnumLiteral)
    KIND(BuiltinCall)
    KIND(CallExpr)
    KIND(FieldAccess)
    KIND(DerefExpr)
    KIND(IndexExpr)
    KIND(UnaryExpr)
    KIND(BinaryExpr)
    KIND(ParenExpr)
    KIND(IfExpr)
    KIND(SwitchExpr)
    KIND(StructLiteral)
    KIND(TupleLiteral)
    KIND(ArrayLiteral)
    KIND(TensorAccess)
    KIND(ComptimeExpr)
    KIND(BlockExpr)
    KIND(PointerType)
    KIND(ArrayType)
    KIND(OptionalType)
    KIND(FnType)
    KIND(ContainerType)
    KIND(EnumType)
#undef KIND
  }
  llvm_unreachable("unknown node kind");
}

llvm::StringRef tessera::frontend::ast::getVarKindName(VarKind kind) {
  switch (kind) {
  case VarKind::Const:
    return "const";
  case VarKind::Var:
    return "var";
  case VarKind::Param:
    return "param";
  }
  llvm_unreachable("unknown var kind");
}

llvm::StringRef tessera::frontend::ast::getSpelling(AssignOp op) {
  static const char *const names[] = {
      "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="};
  return names[static_cast<unsigned>(op)];
}

llvm::StringRef tessera::frontend::ast::getSpelling(UnaryOp op) {
  static const char *const names[] = {"-", "!", "~", "&"};
  return names[static_cast<unsigned>(op)];
}

llvm::StringRef tessera::frontend::ast::getSpelling(BinaryOp op) {
  static const char *const names[] = {"or", "and", "==", "!=", "<", ">",
                                      "<=", ">=",  "&",  "^",  "|", "<<",
                                      ">>", "+",   "-",  "*",  "/", "%"};
  return names[static_cast<unsigned>(op)];
}

unsigned tessera::frontend::ast::getPrecedence(BinaryOp op) {
  switch (op) {
  case BinaryOp::Or:
    return 1;
  case BinaryOp::And:
    return 2;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
    return 3;
  case BinaryOp::BitAnd:
  case BinaryOp::BitXor:
  case BinaryOp::BitOr:
    return 4;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return 5;
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 6;
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    return 7;
  }
  llvm_unreachable("unknown binary operator");
}

bool tessera::frontend::ast::isComparison(BinaryOp op) {
  return getPrecedence(op) == 3;
}

namespace {
template <typename T>
void visitAll(llvm::ArrayRef<T *> list,
              llvm::function_ref<void(const Node *)> fn) {
  for (const T *item : list)
    if (item)
      fn(item);
}
} // namespace

void tessera::frontend::ast::forEachChild(
    const Node *n, llvm::function_ref<void(const Node *)> fn) {
  auto one = [&](const Node *child) {
    if (child)
      fn(child);
  };
  using llvm::cast;
  switch (n->getKind()) {
  case Node::Kind::SourceFile:
    return visitAll(cast<SourceFile>(n)->decls, fn);
  case Node::Kind::FnDecl: {
    auto *f = cast<FnDecl>(n);
    visitAll(f->params, fn);
    one(f->returnType);
    return one(f->body);
  }
  case Node::Kind::LayoutBlock:
    return one(cast<LayoutBlock>(n)->body);
  case Node::Kind::ParamDecl:
    return one(cast<ParamDecl>(n)->type);
  case Node::Kind::FieldDecl:
    one(cast<FieldDecl>(n)->type);
    return one(cast<FieldDecl>(n)->defaultValue);
  case Node::Kind::EnumMember:
    return one(cast<EnumMember>(n)->value);
  case Node::Kind::SwitchProng:
    visitAll(cast<SwitchProng>(n)->values, fn);
    return one(cast<SwitchProng>(n)->body);
  case Node::Kind::FieldInit:
    return one(cast<FieldInit>(n)->value);
  case Node::Kind::Capture:
    return;
  case Node::Kind::VarDecl: {
    auto *v = cast<VarDecl>(n);
    one(v->type);
    one(v->align);
    one(v->linkSection);
    return one(v->init);
  }
  case Node::Kind::ComptimeBlock:
    return one(cast<ComptimeBlock>(n)->body);
  case Node::Kind::BlockStmt:
    return visitAll(cast<BlockStmt>(n)->stmts, fn);
  case Node::Kind::ExprStmt:
    return one(cast<ExprStmt>(n)->expr);
  case Node::Kind::AssignStmt:
    one(cast<AssignStmt>(n)->target);
    return one(cast<AssignStmt>(n)->value);
  case Node::Kind::IfStmt:
    one(cast<IfStmt>(n)->cond);
    one(cast<IfStmt>(n)->thenStmt);
    return one(cast<IfStmt>(n)->elseStmt);
  case Node::Kind::WhileStmt:
    one(cast<WhileStmt>(n)->cond);
    one(cast<WhileStmt>(n)->continueStmt);
    return one(cast<WhileStmt>(n)->body);
  case Node::Kind::ForStmt:
    one(cast<ForStmt>(n)->iterable);
    visitAll(cast<ForStmt>(n)->captures, fn);
    return one(cast<ForStmt>(n)->body);
  case Node::Kind::ReturnStmt:
    return one(cast<ReturnStmt>(n)->value);
  case Node::Kind::BreakStmt:
    return one(cast<BreakStmt>(n)->value);
  case Node::Kind::ContinueStmt:
  case Node::Kind::IntegerLiteral:
  case Node::Kind::FloatLiteral:
  case Node::Kind::CharLiteral:
  case Node::Kind::StringLiteral:
  case Node::Kind::BoolLiteral:
  case Node::Kind::VoidLiteral:
  case Node::Kind::Identifier:
  case Node::Kind::EnumLiteral:
    return;
  case Node::Kind::BuiltinCall:
    return visitAll(cast<BuiltinCall>(n)->args, fn);
  case Node::Kind::CallExpr:
    one(cast<CallExpr>(n)->callee);
    return visitAll(cast<CallExpr>(n)->args, fn);
  case Node::Kind::FieldAccess:
    return one(cast<FieldAccess>(n)->base);
  case Node::Kind::DerefExpr:
    return one(cast<DerefExpr>(n)->base);
  case Node::Kind::IndexExpr:
    one(cast<IndexExpr>(n)->base);
    return visitAll(cast<IndexExpr>(n)->indices, fn);
  case Node::Kind::UnaryExpr:
    return one(cast<UnaryExpr>(n)->operand);
  case Node::Kind::BinaryExpr:
    one(cast<BinaryExpr>(n)->lhs);
    return one(cast<BinaryExpr>(n)->rhs);
  case Node::Kind::ParenExpr:
    return one(cast<ParenExpr>(n)->inner);
  case Node::Kind::IfExpr:
    one(cast<IfExpr>(n)->cond);
    one(cast<IfExpr>(n)->thenExpr);
    return one(cast<IfExpr>(n)->elseExpr);
  case Node::Kind::SwitchExpr:
    one(cast<SwitchExpr>(n)->subject);
    return visitAll(cast<SwitchExpr>(n)->prongs, fn);
  case Node::Kind::StructLiteral:
    return visitAll(cast<StructLiteral>(n)->fields, fn);
  case Node::Kind::TupleLiteral:
    return visitAll(cast<TupleLiteral>(n)->elements, fn);
  case Node::Kind::ArrayLiteral:
    one(cast<ArrayLiteral>(n)->type);
    return visitAll(cast<ArrayLiteral>(n)->elements, fn);
  case Node::Kind::TensorAccess:
    visitAll(cast<TensorAccess>(n)->indices, fn);
    visitAll(cast<TensorAccess>(n)->extents, fn);
    return one(cast<TensorAccess>(n)->body);
  case Node::Kind::ComptimeExpr:
    return one(cast<ComptimeExpr>(n)->operand);
  case Node::Kind::BlockExpr:
    return one(cast<BlockExpr>(n)->block);
  case Node::Kind::PointerType:
    return one(cast<PointerType>(n)->pointee);
  case Node::Kind::ArrayType:
    visitAll(cast<ArrayType>(n)->dims, fn);
    return one(cast<ArrayType>(n)->element);
  case Node::Kind::OptionalType:
    return one(cast<OptionalType>(n)->child);
  case Node::Kind::FnType:
    visitAll(cast<FnType>(n)->params, fn);
    return one(cast<FnType>(n)->returnType);
  case Node::Kind::ContainerType:
    visitAll(cast<ContainerType>(n)->fields, fn);
    return visitAll(cast<ContainerType>(n)->decls, fn);
  case Node::Kind::EnumType:
    one(cast<EnumType>(n)->tagType);
    return visitAll(cast<EnumType>(n)->members, fn);
  }
}
