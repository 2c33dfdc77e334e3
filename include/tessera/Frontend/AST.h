//===- AST.h - CSL abstract syntax tree -------------------------*- C++ -*-===//
//
// The syntax tree produced by the CSL parser. Nodes live in the bump allocator
// owned by their SourceFile and are never destroyed individually, so every
// node type must be trivially destructible: names and literal spellings are
// StringRefs into the source buffer (which must outlive the tree), and child
// lists are ArrayRefs into the same allocator.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_AST_H
#define TESSERA_FRONTEND_AST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <type_traits>

namespace tessera::frontend::ast {

class Expr;
class Stmt;
class BlockStmt;

/// A name with the location of its spelling.
struct Name {
  llvm::StringRef text;
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(text.data()); }
  bool empty() const { return text.empty(); }
};

class Node {
public:
  enum class Kind : uint8_t {
    SourceFile,
    FnDecl,
    LayoutBlock,
    ParamDecl,
    FieldDecl,
    EnumMember,
    SwitchProng,
    FieldInit,
    Capture,
    // Statements.
    VarDecl,
    ComptimeBlock,
    BlockStmt,
    ExprStmt,
    AssignStmt,
    IfStmt,
    WhileStmt,
    ForStmt,
    ReturnStmt,
    BreakStmt,
    ContinueStmt,
    // Expressions.
    IntegerLiteral,
    FloatLiteral,
    CharLiteral,
    StringLiteral,
    BoolLiteral,
    VoidLiteral,
    Identifier,
    EnumLiteral,
    BuiltinCall,
    CallExpr,
    FieldAccess,
    DerefExpr,
    IndexExpr,
    UnaryExpr,
    BinaryExpr,
    ParenExpr,
    IfExpr,
    SwitchExpr,
    StructLiteral,
    TupleLiteral,
    ArrayLiteral,
    TensorAccess,
    ComptimeExpr,
    BlockExpr,
    PointerType,
    ArrayType,
    OptionalType,
    FnType,
    ContainerType,
    EnumType,
    FirstStmt = VarDecl,
    LastStmt = ContinueStmt,
    FirstExpr = IntegerLiteral,
    LastExpr = EnumType,
  };

  /// The largest height a node records (see getHeight); the parser keeps
  /// trees lower than this.
  static constexpr unsigned kMaxHeight = (1u << 24) - 1;

  Kind getKind() const { return kind; }
  /// Half-open range: from the first character of the node's first token to
  /// one past the last character of its last token.
  llvm::SMRange getRange() const {
    return llvm::SMRange(llvm::SMLoc::getFromPointer(start),
                         llvm::SMLoc::getFromPointer(start + length));
  }
  llvm::SMLoc getLoc() const { return llvm::SMLoc::getFromPointer(start); }
  void setRange(llvm::SMRange r) {
    start = r.Start.getPointer();
    size_t n = r.End.getPointer() - start;
    length = n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
  }
  /// Number of nodes on the longest path down from this one (a leaf is 1).
  /// The parser bounds it, so recursive walks over the tree are safe.
  unsigned getHeight() const { return height; }
  void setHeight(unsigned h) { height = h > kMaxHeight ? kMaxHeight : h; }

protected:
  explicit Node(Kind kind) : kind(kind), height(1) {}

private:
  // 16 bytes: a big file has millions of nodes, and every byte saved here is
  // memory the parser does not have to touch. The range is stored as its
  // start and a 32-bit length (no node spans 4 GiB of source).
  const char *start = nullptr;
  uint32_t length = 0;
  Kind kind;
  unsigned height : 24;
};
static_assert(sizeof(Node) == 16, "keep the node header small");

/// Returns the node kind as printed by --emit=ast ("VarDecl", ...).
llvm::StringRef getKindName(Node::Kind kind);

/// Calls `fn` on each non-null direct child of `n`, in source order.
void forEachChild(const Node *n, llvm::function_ref<void(const Node *)> fn);

class Stmt : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= Kind::FirstStmt && n->getKind() <= Kind::LastStmt;
  }

protected:
  using Node::Node;
};

class Expr : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= Kind::FirstExpr && n->getKind() <= Kind::LastExpr;
  }

protected:
  using Node::Node;
};

/// Helper for the classof of leaf classes.
template <Node::Kind K, typename Base> class NodeOf : public Base {
public:
  static constexpr Node::Kind kKind = K;
  static bool classof(const Node *n) { return n->getKind() == K; }

protected:
  NodeOf() : Base(K) {}
};

//===----------------------------------------------------------------------===//
// Declarations and other named pieces
//===----------------------------------------------------------------------===//

enum class VarKind : uint8_t { Const, Var, Param };
llvm::StringRef getVarKindName(VarKind kind);

/// `param`/`const`/`var` at top level or in a block.
class VarDecl : public NodeOf<Node::Kind::VarDecl, Stmt> {
public:
  VarKind varKind = VarKind::Var;
  bool isExport = false;
  bool isExtern = false;
  bool isComptime = false; // `comptime var`
  Name name;
  Expr *type = nullptr;        // optional
  Expr *align = nullptr;       // optional `align(N)`
  Expr *linkSection = nullptr; // optional `linksection("...")`
  Expr *init = nullptr;        // optional
};

/// A function or task parameter, also the parameters of a function type
/// (whose names are optional there).
class ParamDecl : public NodeOf<Node::Kind::ParamDecl, Node> {
public:
  bool isComptime = false;
  Name name; // may be empty in a function type
  Expr *type = nullptr;
};

/// `fn` or `task` with a body; `extern fn` may have no body.
class FnDecl : public NodeOf<Node::Kind::FnDecl, Node> {
public:
  bool isTask = false;
  bool isExport = false;
  bool isExtern = false;
  bool isInline = false;
  bool isNoInline = false;
  Name name;
  llvm::ArrayRef<ParamDecl *> params;
  Expr *returnType = nullptr;
  BlockStmt *body = nullptr; // null for a body-less extern declaration
};

/// `layout { ... }`.
class LayoutBlock : public NodeOf<Node::Kind::LayoutBlock, Node> {
public:
  BlockStmt *body = nullptr;
};

/// A field of a struct or union type: `name: T = default`.
class FieldDecl : public NodeOf<Node::Kind::FieldDecl, Node> {
public:
  Name name;
  Expr *type = nullptr;
  Expr *defaultValue = nullptr;
};

/// A member of an enum type: `name = value`.
class EnumMember : public NodeOf<Node::Kind::EnumMember, Node> {
public:
  Name name;
  Expr *value = nullptr;
};

/// One prong of a switch: `a, b => body` or `else => body`. The body is an
/// ExprStmt, AssignStmt, BlockStmt, ReturnStmt, BreakStmt or ContinueStmt.
class SwitchProng : public NodeOf<Node::Kind::SwitchProng, Node> {
public:
  bool isElse = false;
  llvm::ArrayRef<Expr *> values;
  Stmt *body = nullptr;
};

/// `.name = value` inside an anonymous struct literal.
class FieldInit : public NodeOf<Node::Kind::FieldInit, Node> {
public:
  Name name;
  Expr *value = nullptr;
};

/// A loop capture `|x|` / `|*x|`, or an index variable of a tensor access.
class Capture : public NodeOf<Node::Kind::Capture, Node> {
public:
  bool isPointer = false;
  Name name;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Top-level `comptime { ... }`, also allowed as a statement.
class ComptimeBlock : public NodeOf<Node::Kind::ComptimeBlock, Stmt> {
public:
  BlockStmt *body = nullptr;
};

class BlockStmt : public NodeOf<Node::Kind::BlockStmt, Stmt> {
public:
  Name label; // optional `label: { ... }`
  llvm::ArrayRef<Stmt *> stmts;
};

class ExprStmt : public NodeOf<Node::Kind::ExprStmt, Stmt> {
public:
  Expr *expr = nullptr;
};

enum class AssignOp : uint8_t {
  Assign,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  And,
  Or,
  Xor
};
/// "=", "+=", ...
llvm::StringRef getSpelling(AssignOp op);

class AssignStmt : public NodeOf<Node::Kind::AssignStmt, Stmt> {
public:
  AssignOp op = AssignOp::Assign;
  Expr *target = nullptr;
  Expr *value = nullptr;
};

class IfStmt : public NodeOf<Node::Kind::IfStmt, Stmt> {
public:
  Expr *cond = nullptr;
  Stmt *thenStmt = nullptr;
  Stmt *elseStmt = nullptr; // optional
};

class WhileStmt : public NodeOf<Node::Kind::WhileStmt, Stmt> {
public:
  Name label;
  bool isInline = false;
  Expr *cond = nullptr;
  Stmt *continueStmt = nullptr; // optional `: (i += 1)`
  Stmt *body = nullptr;
};

class ForStmt : public NodeOf<Node::Kind::ForStmt, Stmt> {
public:
  Name label;
  bool isInline = false;
  Expr *iterable = nullptr;
  llvm::ArrayRef<Capture *> captures; // value, then optional index
  Stmt *body = nullptr;
};

class ReturnStmt : public NodeOf<Node::Kind::ReturnStmt, Stmt> {
public:
  Expr *value = nullptr; // optional
};

class BreakStmt : public NodeOf<Node::Kind::BreakStmt, Stmt> {
public:
  Name label;            // optional
  Expr *value = nullptr; // optional
};

class ContinueStmt : public NodeOf<Node::Kind::ContinueStmt, Stmt> {
public:
  Name label; // optional
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class IntegerLiteral : public NodeOf<Node::Kind::IntegerLiteral, Expr> {
public:
  llvm::StringRef spelling; // as written, including prefix and underscores
  uint64_t value = 0;       // valid unless `overflows`
  bool overflows = false;   // the value needs more than 64 bits
};

class FloatLiteral : public NodeOf<Node::Kind::FloatLiteral, Expr> {
public:
  llvm::StringRef spelling;
  double value = 0;
};

class CharLiteral : public NodeOf<Node::Kind::CharLiteral, Expr> {
public:
  llvm::StringRef spelling; // with quotes
  uint32_t value = 0;       // the Unicode code point
};

class StringLiteral : public NodeOf<Node::Kind::StringLiteral, Expr> {
public:
  llvm::StringRef spelling; // with quotes and escapes
  llvm::StringRef value;    // decoded
};

class BoolLiteral : public NodeOf<Node::Kind::BoolLiteral, Expr> {
public:
  bool value = false;
};

/// `{}`, the value of type void.
class VoidLiteral : public NodeOf<Node::Kind::VoidLiteral, Expr> {};

class Identifier : public NodeOf<Node::Kind::Identifier, Expr> {
public:
  Name name;
};

/// `.name` (an enum literal).
class EnumLiteral : public NodeOf<Node::Kind::EnumLiteral, Expr> {
public:
  Name name;
};

/// `@name(args)`; `name` excludes the `@`.
class BuiltinCall : public NodeOf<Node::Kind::BuiltinCall, Expr> {
public:
  Name name;
  llvm::ArrayRef<Expr *> args;
};

class CallExpr : public NodeOf<Node::Kind::CallExpr, Expr> {
public:
  Expr *callee = nullptr;
  llvm::ArrayRef<Expr *> args;
};

class FieldAccess : public NodeOf<Node::Kind::FieldAccess, Expr> {
public:
  Expr *base = nullptr;
  Name field;
};

/// `p.*`
class DerefExpr : public NodeOf<Node::Kind::DerefExpr, Expr> {
public:
  Expr *base = nullptr;
};

/// `a[i]` or `a[i, j]`.
class IndexExpr : public NodeOf<Node::Kind::IndexExpr, Expr> {
public:
  Expr *base = nullptr;
  llvm::ArrayRef<Expr *> indices;
};

enum class UnaryOp : uint8_t { Neg, Not, BitNot, AddressOf };
llvm::StringRef getSpelling(UnaryOp op);

class UnaryExpr : public NodeOf<Node::Kind::UnaryExpr, Expr> {
public:
  UnaryOp op = UnaryOp::Neg;
  Expr *operand = nullptr;
};

/// Binary operators; the order within a precedence level is irrelevant.
enum class BinaryOp : uint8_t {
  Or,
  And,
  Eq,
  Ne,
  Lt,
  Gt,
  Le,
  Ge,
  BitAnd,
  BitXor,
  BitOr,
  Shl,
  Shr,
  Add,
  Sub,
  Mul,
  Div,
  Rem
};
llvm::StringRef getSpelling(BinaryOp op);
/// Binding strength: `or` 1, `and` 2, comparisons 3, `& ^ |` 4, shifts 5,
/// `+ -` 6, `* / %` 7. All levels are left-associative except comparisons,
/// which do not associate.
unsigned getPrecedence(BinaryOp op);
bool isComparison(BinaryOp op);

class BinaryExpr : public NodeOf<Node::Kind::BinaryExpr, Expr> {
public:
  BinaryOp op = BinaryOp::Add;
  Expr *lhs = nullptr;
  Expr *rhs = nullptr;
};

class ParenExpr : public NodeOf<Node::Kind::ParenExpr, Expr> {
public:
  Expr *inner = nullptr;
};

class IfExpr : public NodeOf<Node::Kind::IfExpr, Expr> {
public:
  Expr *cond = nullptr;
  Expr *thenExpr = nullptr;
  Expr *elseExpr = nullptr; // optional: the value is void when absent
};

class SwitchExpr : public NodeOf<Node::Kind::SwitchExpr, Expr> {
public:
  Expr *subject = nullptr;
  llvm::ArrayRef<SwitchProng *> prongs;
};

/// `.{ .a = 1, .b = 2 }`; `.{}` is an empty StructLiteral.
class StructLiteral : public NodeOf<Node::Kind::StructLiteral, Expr> {
public:
  llvm::ArrayRef<FieldInit *> fields;
};

/// `.{ 1, 2 }`
class TupleLiteral : public NodeOf<Node::Kind::TupleLiteral, Expr> {
public:
  llvm::ArrayRef<Expr *> elements;
};

/// `[5]u16{ 1, 2, 3, 4, 5 }`; `type` is the ArrayType before the braces.
class ArrayLiteral : public NodeOf<Node::Kind::ArrayLiteral, Expr> {
public:
  Expr *type = nullptr;
  llvm::ArrayRef<Expr *> elements;
};

/// `|i, j|{M, N} -> A[i * N + j]`
class TensorAccess : public NodeOf<Node::Kind::TensorAccess, Expr> {
public:
  llvm::ArrayRef<Capture *> indices;
  llvm::ArrayRef<Expr *> extents;
  Expr *body = nullptr;
};

/// `comptime expr`
class ComptimeExpr : public NodeOf<Node::Kind::ComptimeExpr, Expr> {
public:
  Expr *operand = nullptr;
};

/// A labelled block used as a value: `blk: { ...; break :blk v; }`.
class BlockExpr : public NodeOf<Node::Kind::BlockExpr, Expr> {
public:
  BlockStmt *block = nullptr;
};

/// `*T`, `*const T`, `[*]T`, `[*]const T`.
class PointerType : public NodeOf<Node::Kind::PointerType, Expr> {
public:
  bool isMany = false;
  bool isConst = false;
  Expr *pointee = nullptr;
};

/// `[N]T`, `[N, M]T`, `[_]T`.
class ArrayType : public NodeOf<Node::Kind::ArrayType, Expr> {
public:
  llvm::ArrayRef<Expr *> dims;
  Expr *element = nullptr;
};

/// `?T`
class OptionalType : public NodeOf<Node::Kind::OptionalType, Expr> {
public:
  Expr *child = nullptr;
};

/// `fn (i16, f32) void` or `task () void`.
class FnType : public NodeOf<Node::Kind::FnType, Expr> {
public:
  bool isTask = false;
  llvm::ArrayRef<ParamDecl *> params;
  Expr *returnType = nullptr;
};

enum class ContainerLayout : uint8_t { Auto, Extern, Packed };

/// `struct { ... }` or `union { ... }` with optional `extern`/`packed`.
class ContainerType : public NodeOf<Node::Kind::ContainerType, Expr> {
public:
  bool isUnion = false;
  ContainerLayout layout = ContainerLayout::Auto;
  llvm::ArrayRef<FieldDecl *> fields;
  llvm::ArrayRef<Node *> decls; // VarDecl and FnDecl members
};

/// `enum(u16) { a, b = 2 }`
class EnumType : public NodeOf<Node::Kind::EnumType, Expr> {
public:
  Expr *tagType = nullptr; // optional
  llvm::ArrayRef<EnumMember *> members;
};

//===----------------------------------------------------------------------===//
// The file
//===----------------------------------------------------------------------===//

/// Supplies the slabs of a SourceFile's arena. A large file builds many
/// megabytes of nodes (about eight bytes per byte of source), and faulting
/// them in 4 KiB at a time costs more than building them; slabs of 2 MiB
/// and more are therefore 2 MiB aligned and ask for transparent huge pages
/// where the system offers them. Smaller slabs come from malloc.
class SlabAllocator : public llvm::AllocatorBase<SlabAllocator> {
public:
  void *Allocate(size_t size, size_t alignment);
  void Deallocate(const void *ptr, size_t size, size_t alignment);
  using AllocatorBase<SlabAllocator>::Allocate;
  using AllocatorBase<SlabAllocator>::Deallocate;
};

/// Slabs start at 64 KiB (a small file needs one or two) and double every
/// two slabs, so a big file soon gets huge-page slabs.
using NodeAllocator =
    llvm::BumpPtrAllocatorImpl<SlabAllocator, 64 * 1024, 64 * 1024, 2>;

/// One parsed buffer. Owns every node of its tree.
class SourceFile : public NodeOf<Node::Kind::SourceFile, Node> {
public:
  SourceFile() = default;
  SourceFile(const SourceFile &) = delete;
  SourceFile &operator=(const SourceFile &) = delete;

  unsigned bufferID = 0;
  /// VarDecl, FnDecl, ComptimeBlock and LayoutBlock, in source order.
  llvm::ArrayRef<Node *> decls;

  template <typename T> T *create() {
    static_assert(std::is_trivially_destructible_v<T>,
                  "AST nodes are never destroyed");
    return new (allocator.Allocate<T>()) T();
  }
  template <typename T> llvm::ArrayRef<T> copyArray(llvm::ArrayRef<T> items) {
    if (items.empty())
      return {};
    T *mem = allocator.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), mem);
    return llvm::ArrayRef<T>(mem, items.size());
  }
  llvm::StringRef copyString(llvm::StringRef s) {
    char *mem = allocator.Allocate<char>(s.size());
    std::copy(s.begin(), s.end(), mem);
    return llvm::StringRef(mem, s.size());
  }

private:
  NodeAllocator allocator;
};

} // namespace tessera::frontend::ast

#endif // TESSERA_FRONTEND_AST_H
