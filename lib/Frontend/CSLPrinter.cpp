//===- CSLPrinter.cpp - Print the AST back as CSL source ------------------===//
//
// Source-faithful where the tree records the source (parentheses are
// ParenExpr nodes, literals keep their spelling), canonical elsewhere
// (spacing, indentation, trailing commas). Parentheses are added only for
// trees that the parser cannot produce, so that the output still parses.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/CSLPrinter.h"

#include "llvm/Support/Casting.h"

using namespace tessera::frontend;
using namespace tessera::frontend::ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

class Writer {
public:
  explicit Writer(llvm::raw_ostream &os) : os(os) {}

  void file(const SourceFile &f);

private:
  llvm::raw_ostream &os;
  unsigned indent = 0;
  /// Set when a statement continues the current line (`else if`).
  bool continueLine = false;

  void line() {
    if (!continueLine)
      os.indent(indent);
    continueLine = false;
  }
  void topDecl(const Node *n);
  void varDecl(const VarDecl *v);
  void fnDecl(const FnDecl *f);
  void block(const BlockStmt *b);
  void stmt(const Stmt *s);
  /// A statement used as the body of if/while/for: blocks and compound
  /// statements print as usual, simple ones get `;` unless `else` follows.
  void body(const Stmt *s, bool elseFollows);
  /// A simple statement without its `;`.
  void simple(const Stmt *s);
  void expr(const Expr *e);
  void exprList(llvm::ArrayRef<Expr *> list);
  void params(llvm::ArrayRef<ParamDecl *> list);
  void binaryOperand(const Expr *e, unsigned minPrec, bool isLeft);
  void postfixBase(const Expr *e);
  void label(const Name &name) {
    if (!name.empty())
      os << name.text << ": ";
  }
};

bool isSimple(const Stmt *s) {
  return isa<ExprStmt, AssignStmt, ReturnStmt, BreakStmt, ContinueStmt>(s) &&
         !(isa<ExprStmt>(s) && isa<SwitchExpr>(cast<ExprStmt>(s)->expr));
}

void Writer::file(const SourceFile &f) {
  for (const Node *n : f.decls)
    topDecl(n);
}

void Writer::topDecl(const Node *n) {
  if (auto *v = dyn_cast<VarDecl>(n))
    return varDecl(v);
  if (auto *f = dyn_cast<FnDecl>(n))
    return fnDecl(f);
  line();
  if (auto *c = dyn_cast<ComptimeBlock>(n)) {
    os << "comptime ";
    block(c->body);
  } else {
    os << "layout ";
    block(cast<LayoutBlock>(n)->body);
  }
  os << '\n';
}

void Writer::varDecl(const VarDecl *v) {
  line();
  if (v->isExport)
    os << "export ";
  if (v->isExtern)
    os << "extern ";
  if (v->isComptime)
    os << "comptime ";
  os << getVarKindName(v->varKind) << ' ' << v->name.text;
  if (v->type) {
    os << ": ";
    expr(v->type);
  }
  if (v->align) {
    os << " align(";
    expr(v->align);
    os << ')';
  }
  if (v->linkSection) {
    os << " linksection(";
    expr(v->linkSection);
    os << ')';
  }
  if (v->init) {
    os << " = ";
    expr(v->init);
  }
  os << ";\n";
}

void Writer::fnDecl(const FnDecl *f) {
  line();
  if (f->isExport)
    os << "export ";
  if (f->isExtern)
    os << "extern ";
  if (f->isInline)
    os << "inline ";
  if (f->isNoInline)
    os << "noinline ";
  os << (f->isTask ? "task " : "fn ") << f->name.text << '(';
  params(f->params);
  os << ") ";
  expr(f->returnType);
  if (f->body) {
    os << ' ';
    block(f->body);
    os << '\n';
  } else {
    os << ";\n";
  }
}

void Writer::params(llvm::ArrayRef<ParamDecl *> list) {
  bool first = true;
  for (const ParamDecl *p : list) {
    if (!first)
      os << ", ";
    first = false;
    if (p->isComptime)
      os << "comptime ";
    if (!p->name.empty())
      os << p->name.text << ": ";
    expr(p->type);
  }
}

void Writer::block(const BlockStmt *b) {
  label(b->label);
  os << "{\n";
  indent += 2;
  for (const Stmt *s : b->stmts)
    stmt(s);
  indent -= 2;
  line();
  os << '}';
}

void Writer::simple(const Stmt *s) {
  switch (s->getKind()) {
  case Node::Kind::ExprStmt:
    return expr(cast<ExprStmt>(s)->expr);
  case Node::Kind::AssignStmt: {
    auto *a = cast<AssignStmt>(s);
    expr(a->target);
    os << ' ' << getSpelling(a->op) << ' ';
    return expr(a->value);
  }
  case Node::Kind::ReturnStmt:
    os << "return";
    if (auto *v = cast<ReturnStmt>(s)->value) {
      os << ' ';
      expr(v);
    }
    return;
  case Node::Kind::BreakStmt: {
    auto *b = cast<BreakStmt>(s);
    os << "break";
    if (!b->label.empty())
      os << " :" << b->label.text;
    if (b->value) {
      os << ' ';
      expr(b->value);
    }
    return;
  }
  case Node::Kind::ContinueStmt:
    os << "continue";
    if (!cast<ContinueStmt>(s)->label.empty())
      os << " :" << cast<ContinueStmt>(s)->label.text;
    return;
  default:
    return;
  }
}

void Writer::body(const Stmt *s, bool elseFollows) {
  if (isSimple(s)) {
    simple(s);
    if (!elseFollows)
      os << ";\n";
    return;
  }
  continueLine = true;
  stmt(s);
}

void Writer::stmt(const Stmt *s) {
  if (!s)
    return;
  switch (s->getKind()) {
  case Node::Kind::VarDecl:
    return varDecl(cast<VarDecl>(s));
  case Node::Kind::ComptimeBlock:
    line();
    os << "comptime ";
    block(cast<ComptimeBlock>(s)->body);
    os << '\n';
    return;
  case Node::Kind::BlockStmt:
    line();
    block(cast<BlockStmt>(s));
    os << '\n';
    return;
  case Node::Kind::IfStmt: {
    auto *i = cast<IfStmt>(s);
    line();
    os << "if (";
    expr(i->cond);
    os << ") ";
    if (auto *b = dyn_cast<BlockStmt>(i->thenStmt)) {
      block(b);
      if (i->elseStmt)
        os << ' ';
      else
        os << '\n';
    } else if (isSimple(i->thenStmt)) {
      body(i->thenStmt, i->elseStmt != nullptr);
      if (i->elseStmt)
        os << ' ';
    } else {
      // A compound then-branch ends its own line; put else on the next.
      continueLine = true;
      stmt(i->thenStmt);
      if (i->elseStmt)
        line();
    }
    if (i->elseStmt) {
      os << "else ";
      continueLine = true;
      stmt(i->elseStmt);
    }
    return;
  }
  case Node::Kind::WhileStmt: {
    auto *w = cast<WhileStmt>(s);
    line();
    label(w->label);
    if (w->isInline)
      os << "inline ";
    os << "while (";
    expr(w->cond);
    os << ')';
    if (w->continueStmt) {
      os << " : (";
      simple(w->continueStmt);
      os << ')';
    }
    os << ' ';
    if (auto *b = dyn_cast<BlockStmt>(w->body)) {
      block(b);
      os << '\n';
    } else {
      body(w->body, false);
    }
    return;
  }
  case Node::Kind::ForStmt: {
    auto *f = cast<ForStmt>(s);
    line();
    label(f->label);
    if (f->isInline)
      os << "inline ";
    os << "for (";
    expr(f->iterable);
    os << ") |";
    bool first = true;
    for (const Capture *c : f->captures) {
      if (!first)
        os << ", ";
      first = false;
      if (c->isPointer)
        os << '*';
      os << c->name.text;
    }
    os << "| ";
    if (auto *b = dyn_cast<BlockStmt>(f->body)) {
      block(b);
      os << '\n';
    } else {
      body(f->body, false);
    }
    return;
  }
  case Node::Kind::ExprStmt:
    if (auto *sw = dyn_cast<SwitchExpr>(cast<ExprStmt>(s)->expr)) {
      line();
      expr(sw);
      os << '\n';
      return;
    }
    [[fallthrough]];
  default:
    line();
    simple(s);
    os << ";\n";
    return;
  }
}

void Writer::exprList(llvm::ArrayRef<Expr *> list) {
  bool first = true;
  for (const Expr *e : list) {
    if (!first)
      os << ", ";
    first = false;
    expr(e);
  }
}

/// True if `e` ends with an expression that extends as far right as it can
/// (`if`, `comptime`, a tensor access): anything printed after it would be
/// absorbed into it.
bool endsOpen(const Expr *e) {
  if (isa<IfExpr, ComptimeExpr, TensorAccess>(e))
    return true;
  if (auto *u = dyn_cast<UnaryExpr>(e))
    return endsOpen(u->operand);
  if (auto *b = dyn_cast<BinaryExpr>(e))
    return endsOpen(b->rhs);
  return false;
}

/// Parenthesises an operand that would otherwise bind differently; parsed
/// trees carry their parentheses as ParenExpr already, so this only changes
/// trees built by hand.
void Writer::binaryOperand(const Expr *e, unsigned minPrec, bool isLeft) {
  bool wrap = isLeft && endsOpen(e);
  if (auto *b = dyn_cast<BinaryExpr>(e))
    wrap |= getPrecedence(b->op) < minPrec;
  if (wrap)
    os << '(';
  expr(e);
  if (wrap)
    os << ')';
}

void Writer::postfixBase(const Expr *e) {
  bool wrap = isa<BinaryExpr, UnaryExpr>(e) || endsOpen(e);
  if (wrap)
    os << '(';
  expr(e);
  if (wrap)
    os << ')';
}

void Writer::expr(const Expr *e) {
  if (!e)
    return;
  switch (e->getKind()) {
  case Node::Kind::IntegerLiteral:
    os << cast<IntegerLiteral>(e)->spelling;
    return;
  case Node::Kind::FloatLiteral:
    os << cast<FloatLiteral>(e)->spelling;
    return;
  case Node::Kind::CharLiteral:
    os << cast<CharLiteral>(e)->spelling;
    return;
  case Node::Kind::StringLiteral:
    os << cast<StringLiteral>(e)->spelling;
    return;
  case Node::Kind::BoolLiteral:
    os << (cast<BoolLiteral>(e)->value ? "true" : "false");
    return;
  case Node::Kind::VoidLiteral:
    os << "{}";
    return;
  case Node::Kind::Identifier:
    os << cast<Identifier>(e)->name.text;
    return;
  case Node::Kind::EnumLiteral:
    os << '.' << cast<EnumLiteral>(e)->name.text;
    return;
  case Node::Kind::BuiltinCall:
    os << '@' << cast<BuiltinCall>(e)->name.text << '(';
    exprList(cast<BuiltinCall>(e)->args);
    os << ')';
    return;
  case Node::Kind::CallExpr:
    postfixBase(cast<CallExpr>(e)->callee);
    os << '(';
    exprList(cast<CallExpr>(e)->args);
    os << ')';
    return;
  case Node::Kind::FieldAccess:
    postfixBase(cast<FieldAccess>(e)->base);
    os << '.' << cast<FieldAccess>(e)->field.text;
    return;
  case Node::Kind::DerefExpr:
    postfixBase(cast<DerefExpr>(e)->base);
    os << ".*";
    return;
  case Node::Kind::IndexExpr:
    postfixBase(cast<IndexExpr>(e)->base);
    os << '[';
    exprList(cast<IndexExpr>(e)->indices);
    os << ']';
    return;
  case Node::Kind::UnaryExpr: {
    auto *u = cast<UnaryExpr>(e);
    os << getSpelling(u->op);
    bool wrap = isa<BinaryExpr>(u->operand);
    if (wrap)
      os << '(';
    expr(u->operand);
    if (wrap)
      os << ')';
    return;
  }
  case Node::Kind::BinaryExpr: {
    auto *b = cast<BinaryExpr>(e);
    unsigned prec = getPrecedence(b->op);
    // Left-associative: the right operand must bind tighter.
    binaryOperand(b->lhs, isComparison(b->op) ? prec + 1 : prec, true);
    os << ' ' << getSpelling(b->op) << ' ';
    binaryOperand(b->rhs, prec + 1, false);
    return;
  }
  case Node::Kind::ParenExpr:
    os << '(';
    expr(cast<ParenExpr>(e)->inner);
    os << ')';
    return;
  case Node::Kind::IfExpr: {
    auto *i = cast<IfExpr>(e);
    os << "if (";
    expr(i->cond);
    os << ") ";
    expr(i->thenExpr);
    if (i->elseExpr) {
      os << " else ";
      expr(i->elseExpr);
    }
    return;
  }
  case Node::Kind::SwitchExpr: {
    auto *sw = cast<SwitchExpr>(e);
    os << "switch (";
    expr(sw->subject);
    os << ") {\n";
    indent += 2;
    for (const SwitchProng *p : sw->prongs) {
      line();
      if (p->isElse)
        os << "else";
      else
        exprList(p->values);
      os << " => ";
      if (auto *b = dyn_cast<BlockStmt>(p->body))
        block(b);
      else if (p->body)
        simple(p->body);
      os << ",\n";
    }
    indent -= 2;
    line();
    os << '}';
    return;
  }
  case Node::Kind::StructLiteral: {
    auto *s = cast<StructLiteral>(e);
    if (s->fields.empty()) {
      os << ".{}";
      return;
    }
    os << ".{ ";
    bool first = true;
    for (const FieldInit *f : s->fields) {
      if (!first)
        os << ", ";
      first = false;
      os << '.' << f->name.text << " = ";
      expr(f->value);
    }
    os << " }";
    return;
  }
  case Node::Kind::TupleLiteral:
    os << ".{ ";
    exprList(cast<TupleLiteral>(e)->elements);
    os << " }";
    return;
  case Node::Kind::ArrayLiteral:
    expr(cast<ArrayLiteral>(e)->type);
    os << '{';
    exprList(cast<ArrayLiteral>(e)->elements);
    os << '}';
    return;
  case Node::Kind::TensorAccess: {
    auto *t = cast<TensorAccess>(e);
    os << '|';
    bool first = true;
    for (const Capture *c : t->indices) {
      if (!first)
        os << ", ";
      first = false;
      os << c->name.text;
    }
    os << "|{";
    exprList(t->extents);
    os << "} -> ";
    expr(t->body);
    return;
  }
  case Node::Kind::ComptimeExpr:
    os << "comptime ";
    expr(cast<ComptimeExpr>(e)->operand);
    return;
  case Node::Kind::BlockExpr:
    block(cast<BlockExpr>(e)->block);
    return;
  case Node::Kind::PointerType: {
    auto *p = cast<PointerType>(e);
    os << (p->isMany ? "[*]" : "*");
    if (p->isConst)
      os << "const ";
    expr(p->pointee);
    return;
  }
  case Node::Kind::ArrayType:
    os << '[';
    exprList(cast<ArrayType>(e)->dims);
    os << ']';
    expr(cast<ArrayType>(e)->element);
    return;
  case Node::Kind::OptionalType:
    os << '?';
    expr(cast<OptionalType>(e)->child);
    return;
  case Node::Kind::FnType: {
    auto *f = cast<FnType>(e);
    os << (f->isTask ? "task (" : "fn (");
    params(f->params);
    os << ") ";
    expr(f->returnType);
    return;
  }
  case Node::Kind::ContainerType: {
    auto *t = cast<ContainerType>(e);
    if (t->layout == ContainerLayout::Extern)
      os << "extern ";
    else if (t->layout == ContainerLayout::Packed)
      os << "packed ";
    os << (t->isUnion ? "union {\n" : "struct {\n");
    indent += 2;
    for (const FieldDecl *f : t->fields) {
      line();
      os << f->name.text << ": ";
      expr(f->type);
      if (f->defaultValue) {
        os << " = ";
        expr(f->defaultValue);
      }
      os << ",\n";
    }
    for (const Node *d : t->decls)
      topDecl(d);
    indent -= 2;
    line();
    os << '}';
    return;
  }
  case Node::Kind::EnumType: {
    auto *t = cast<EnumType>(e);
    os << "enum";
    if (t->tagType) {
      os << '(';
      expr(t->tagType);
      os << ')';
    }
    os << " { ";
    bool first = true;
    for (const EnumMember *m : t->members) {
      if (!first)
        os << ", ";
      first = false;
      os << m->name.text;
      if (m->value) {
        os << " = ";
        expr(m->value);
      }
    }
    os << " }";
    return;
  }
  default:
    return;
  }
}

} // namespace

void tessera::frontend::printCSL(const SourceFile &file,
                                 llvm::raw_ostream &os) {
  Writer(os).file(file);
}
