//===- ASTPrinter.cpp - Textual dump of the CSL AST -----------------------===//
//
// One line per node: `role: Kind details <L:C-L:C>`. The role is printed for
// children whose position alone does not say what they are (an `if` has
// cond/then/else). Null children (only in partial trees) are skipped.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/ASTPrinter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"

using namespace tessera::frontend;
using namespace tessera::frontend::ast;
using llvm::cast;

namespace {

class Printer {
public:
  Printer(const llvm::SourceMgr &sm, unsigned bufferID, llvm::raw_ostream &os,
          const ASTPrintOptions &options)
      : sm(sm), bufferID(bufferID), os(os), options(options) {}

  void print(const Node *n, llvm::StringRef role = {});

private:
  const llvm::SourceMgr &sm;
  unsigned bufferID;
  llvm::raw_ostream &os;
  const ASTPrintOptions &options;
  unsigned indent = 0;

  void printLoc(llvm::SMLoc loc) {
    auto [line, col] = sm.getLineAndColumn(loc, bufferID);
    os << line << ':' << col;
  }
  void header(const Node *n, llvm::StringRef role);
  void details(const Node *n);
  void children(const Node *n);
  template <typename T>
  void each(llvm::ArrayRef<T *> list, llvm::StringRef role = {}) {
    for (const T *item : list)
      print(item, role);
  }
};

void printName(llvm::raw_ostream &os, const Name &name) {
  os << " '" << name.text << "'";
}

void Printer::print(const Node *n, llvm::StringRef role) {
  if (!n)
    return;
  header(n, role);
  indent += 2;
  children(n);
  indent -= 2;
}

void Printer::header(const Node *n, llvm::StringRef role) {
  os.indent(indent);
  if (!role.empty())
    os << role << ": ";
  os << getKindName(n->getKind());
  details(n);
  if (options.locations) {
    os << " <";
    printLoc(n->getRange().Start);
    os << '-';
    printLoc(n->getRange().End);
    os << '>';
  }
  os << '\n';
}

void Printer::details(const Node *n) {
  switch (n->getKind()) {
  case Node::Kind::VarDecl: {
    auto *v = cast<VarDecl>(n);
    os << ' ' << getVarKindName(v->varKind);
    printName(os, v->name);
    if (v->isExport)
      os << " export";
    if (v->isExtern)
      os << " extern";
    if (v->isComptime)
      os << " comptime";
    break;
  }
  case Node::Kind::FnDecl: {
    auto *f = cast<FnDecl>(n);
    os << (f->isTask ? " task" : " fn");
    printName(os, f->name);
    if (f->isExport)
      os << " export";
    if (f->isExtern)
      os << " extern";
    if (f->isInline)
      os << " inline";
    if (f->isNoInline)
      os << " noinline";
    break;
  }
  case Node::Kind::ParamDecl: {
    auto *p = cast<ParamDecl>(n);
    if (!p->name.empty())
      printName(os, p->name);
    if (p->isComptime)
      os << " comptime";
    break;
  }
  case Node::Kind::FieldDecl:
    printName(os, cast<FieldDecl>(n)->name);
    break;
  case Node::Kind::EnumMember:
    printName(os, cast<EnumMember>(n)->name);
    break;
  case Node::Kind::SwitchProng:
    if (cast<SwitchProng>(n)->isElse)
      os << " else";
    break;
  case Node::Kind::FieldInit:
    printName(os, cast<FieldInit>(n)->name);
    break;
  case Node::Kind::Capture: {
    auto *c = cast<Capture>(n);
    printName(os, c->name);
    if (c->isPointer)
      os << " pointer";
    break;
  }
  case Node::Kind::BlockStmt:
    if (!cast<BlockStmt>(n)->label.empty()) {
      os << " label";
      printName(os, cast<BlockStmt>(n)->label);
    }
    break;
  case Node::Kind::AssignStmt:
    os << " '" << getSpelling(cast<AssignStmt>(n)->op) << "'";
    break;
  case Node::Kind::WhileStmt: {
    auto *w = cast<WhileStmt>(n);
    if (w->isInline)
      os << " inline";
    if (!w->label.empty()) {
      os << " label";
      printName(os, w->label);
    }
    break;
  }
  case Node::Kind::ForStmt: {
    auto *f = cast<ForStmt>(n);
    if (f->isInline)
      os << " inline";
    if (!f->label.empty()) {
      os << " label";
      printName(os, f->label);
    }
    break;
  }
  case Node::Kind::BreakStmt:
    if (!cast<BreakStmt>(n)->label.empty()) {
      os << " label";
      printName(os, cast<BreakStmt>(n)->label);
    }
    break;
  case Node::Kind::ContinueStmt:
    if (!cast<ContinueStmt>(n)->label.empty()) {
      os << " label";
      printName(os, cast<ContinueStmt>(n)->label);
    }
    break;
  case Node::Kind::IntegerLiteral: {
    auto *i = cast<IntegerLiteral>(n);
    os << ' ' << i->spelling;
    if (i->overflows)
      os << " value=overflow";
    else
      os << " value=" << i->value;
    break;
  }
  case Node::Kind::FloatLiteral:
    os << ' ' << cast<FloatLiteral>(n)->spelling;
    break;
  case Node::Kind::CharLiteral:
    os << ' ' << cast<CharLiteral>(n)->spelling
       << " value=" << cast<CharLiteral>(n)->value;
    break;
  case Node::Kind::StringLiteral:
    // The decoded value with non-printable bytes as \XX hex escapes.
    os << ' ' << cast<StringLiteral>(n)->spelling << " value=\"";
    llvm::printEscapedString(cast<StringLiteral>(n)->value, os);
    os << '"';
    break;
  case Node::Kind::BoolLiteral:
    os << (cast<BoolLiteral>(n)->value ? " true" : " false");
    break;
  case Node::Kind::Identifier:
    printName(os, cast<Identifier>(n)->name);
    break;
  case Node::Kind::EnumLiteral:
    printName(os, cast<EnumLiteral>(n)->name);
    break;
  case Node::Kind::BuiltinCall:
    os << " '@" << cast<BuiltinCall>(n)->name.text << "'";
    break;
  case Node::Kind::FieldAccess:
    printName(os, cast<FieldAccess>(n)->field);
    break;
  case Node::Kind::UnaryExpr:
    os << " '" << getSpelling(cast<UnaryExpr>(n)->op) << "'";
    break;
  case Node::Kind::BinaryExpr:
    os << " '" << getSpelling(cast<BinaryExpr>(n)->op) << "'";
    break;
  case Node::Kind::PointerType: {
    auto *p = cast<PointerType>(n);
    os << (p->isMany ? " many" : " single");
    if (p->isConst)
      os << " const";
    break;
  }
  case Node::Kind::FnType:
    os << (cast<FnType>(n)->isTask ? " task" : " fn");
    break;
  case Node::Kind::ContainerType: {
    auto *t = cast<ContainerType>(n);
    os << (t->isUnion ? " union" : " struct");
    if (t->layout == ContainerLayout::Extern)
      os << " extern";
    else if (t->layout == ContainerLayout::Packed)
      os << " packed";
    break;
  }
  default:
    break;
  }
}

void Printer::children(const Node *n) {
  switch (n->getKind()) {
  case Node::Kind::SourceFile:
    each(cast<SourceFile>(n)->decls);
    break;
  case Node::Kind::VarDecl: {
    auto *v = cast<VarDecl>(n);
    print(v->type, "type");
    print(v->align, "align");
    print(v->linkSection, "linksection");
    print(v->init, "init");
    break;
  }
  case Node::Kind::FnDecl: {
    auto *f = cast<FnDecl>(n);
    each(f->params);
    print(f->returnType, "returns");
    print(f->body, "body");
    break;
  }
  case Node::Kind::LayoutBlock:
    print(cast<LayoutBlock>(n)->body);
    break;
  case Node::Kind::ParamDecl:
    print(cast<ParamDecl>(n)->type, "type");
    break;
  case Node::Kind::FieldDecl:
    print(cast<FieldDecl>(n)->type, "type");
    print(cast<FieldDecl>(n)->defaultValue, "default");
    break;
  case Node::Kind::EnumMember:
    print(cast<EnumMember>(n)->value, "value");
    break;
  case Node::Kind::SwitchProng:
    each(cast<SwitchProng>(n)->values, "value");
    print(cast<SwitchProng>(n)->body, "body");
    break;
  case Node::Kind::FieldInit:
    print(cast<FieldInit>(n)->value);
    break;
  case Node::Kind::ComptimeBlock:
    print(cast<ComptimeBlock>(n)->body);
    break;
  case Node::Kind::BlockStmt:
    each(cast<BlockStmt>(n)->stmts);
    break;
  case Node::Kind::ExprStmt:
    print(cast<ExprStmt>(n)->expr);
    break;
  case Node::Kind::AssignStmt:
    print(cast<AssignStmt>(n)->target, "target");
    print(cast<AssignStmt>(n)->value, "value");
    break;
  case Node::Kind::IfStmt: {
    auto *s = cast<IfStmt>(n);
    print(s->cond, "cond");
    print(s->thenStmt, "then");
    print(s->elseStmt, "else");
    break;
  }
  case Node::Kind::WhileStmt: {
    auto *w = cast<WhileStmt>(n);
    print(w->cond, "cond");
    print(w->continueStmt, "continue");
    print(w->body, "body");
    break;
  }
  case Node::Kind::ForStmt: {
    auto *f = cast<ForStmt>(n);
    print(f->iterable, "iterable");
    each(f->captures);
    print(f->body, "body");
    break;
  }
  case Node::Kind::ReturnStmt:
    print(cast<ReturnStmt>(n)->value);
    break;
  case Node::Kind::BreakStmt:
    print(cast<BreakStmt>(n)->value);
    break;
  case Node::Kind::BuiltinCall:
    each(cast<BuiltinCall>(n)->args);
    break;
  case Node::Kind::CallExpr:
    print(cast<CallExpr>(n)->callee, "callee");
    each(cast<CallExpr>(n)->args, "arg");
    break;
  case Node::Kind::FieldAccess:
    print(cast<FieldAccess>(n)->base);
    break;
  case Node::Kind::DerefExpr:
    print(cast<DerefExpr>(n)->base);
    break;
  case Node::Kind::IndexExpr:
    print(cast<IndexExpr>(n)->base, "base");
    each(cast<IndexExpr>(n)->indices, "index");
    break;
  case Node::Kind::UnaryExpr:
    print(cast<UnaryExpr>(n)->operand);
    break;
  case Node::Kind::BinaryExpr:
    print(cast<BinaryExpr>(n)->lhs, "lhs");
    print(cast<BinaryExpr>(n)->rhs, "rhs");
    break;
  case Node::Kind::ParenExpr:
    print(cast<ParenExpr>(n)->inner);
    break;
  case Node::Kind::IfExpr: {
    auto *e = cast<IfExpr>(n);
    print(e->cond, "cond");
    print(e->thenExpr, "then");
    print(e->elseExpr, "else");
    break;
  }
  case Node::Kind::SwitchExpr:
    print(cast<SwitchExpr>(n)->subject, "subject");
    each(cast<SwitchExpr>(n)->prongs);
    break;
  case Node::Kind::StructLiteral:
    each(cast<StructLiteral>(n)->fields);
    break;
  case Node::Kind::TupleLiteral:
    each(cast<TupleLiteral>(n)->elements);
    break;
  case Node::Kind::ArrayLiteral:
    print(cast<ArrayLiteral>(n)->type, "type");
    each(cast<ArrayLiteral>(n)->elements, "element");
    break;
  case Node::Kind::TensorAccess: {
    auto *t = cast<TensorAccess>(n);
    each(t->indices);
    each(t->extents, "extent");
    print(t->body, "body");
    break;
  }
  case Node::Kind::ComptimeExpr:
    print(cast<ComptimeExpr>(n)->operand);
    break;
  case Node::Kind::BlockExpr:
    print(cast<BlockExpr>(n)->block);
    break;
  case Node::Kind::PointerType:
    print(cast<PointerType>(n)->pointee);
    break;
  case Node::Kind::ArrayType:
    each(cast<ArrayType>(n)->dims, "dim");
    print(cast<ArrayType>(n)->element, "element");
    break;
  case Node::Kind::OptionalType:
    print(cast<OptionalType>(n)->child);
    break;
  case Node::Kind::FnType:
    each(cast<FnType>(n)->params);
    print(cast<FnType>(n)->returnType, "returns");
    break;
  case Node::Kind::ContainerType:
    each(cast<ContainerType>(n)->fields);
    each(cast<ContainerType>(n)->decls);
    break;
  case Node::Kind::EnumType:
    print(cast<EnumType>(n)->tagType, "tag");
    each(cast<EnumType>(n)->members);
    break;
  default:
    break;
  }
}

} // namespace

void tessera::frontend::printAST(const SourceFile &file,
                                 const llvm::SourceMgr &sm,
                                 llvm::raw_ostream &os,
                                 const ASTPrintOptions &options) {
  Printer(sm, file.bufferID, os, options).print(&file);
}

void tessera::frontend::printAST(const SourceFile &file,
                                 const llvm::SourceMgr &sm,
                                 llvm::raw_ostream &os) {
  printAST(file, sm, os, ASTPrintOptions());
}
