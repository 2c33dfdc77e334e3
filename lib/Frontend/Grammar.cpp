//===- Grammar.cpp - The CSL grammar in Boost.Spirit X3 -------------------===//
//
// The grammar runs X3 directly over characters; Tokens.h supplies the token
// primitives and the skipper. Rules build AST nodes through semantic actions
// (a rule with actions does not propagate attributes, so each rule sets its
// own `_val`), and `tag(...)` gives the node a rule built its source range.
//
// Error handling: `expect(what)[p]` turns a failure of `p` into a syntax
// error "expected <what>, found <token>". The `statement` rule catches those
// errors, reports them and resynchronises, so one bad statement does not hide
// the errors of the next; the top-level loop in Parser.cpp does the same per
// declaration.
//
// Every recursive path passes through `nest[...]`, which bounds the depth.
//
//===----------------------------------------------------------------------===//

#include "Grammar.h"
#include "Tokens.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

#include <boost/fusion/include/at_c.hpp>

#include <vector>

using namespace tessera::frontend;
using namespace tessera::frontend::detail;
namespace fusion = boost::fusion;
using llvm::SMLoc;
using llvm::SMRange;

namespace {

//===----------------------------------------------------------------------===//
// Rule IDs and handlers
//===----------------------------------------------------------------------===//

/// The height of the tallest child of `n` (0 for a leaf). The kinds the
/// parser finishes most often are handled here without a callback per child.
unsigned maxChildHeight(const ast::Node *n) {
  auto h = [](const ast::Node *child) {
    return child ? child->getHeight() : 0u;
  };
  using K = ast::Node::Kind;
  using llvm::cast;
  switch (n->getKind()) {
  case K::Identifier:
  case K::EnumLiteral:
  case K::BoolLiteral:
  case K::VoidLiteral:
  case K::Capture:
    return 0;
  case K::BinaryExpr:
    return std::max(h(cast<ast::BinaryExpr>(n)->lhs),
                    h(cast<ast::BinaryExpr>(n)->rhs));
  case K::UnaryExpr:
    return h(cast<ast::UnaryExpr>(n)->operand);
  case K::FieldAccess:
    return h(cast<ast::FieldAccess>(n)->base);
  case K::FieldInit:
    return h(cast<ast::FieldInit>(n)->value);
  case K::ExprStmt:
    return h(cast<ast::ExprStmt>(n)->expr);
  case K::AssignStmt:
    return std::max(h(cast<ast::AssignStmt>(n)->target),
                    h(cast<ast::AssignStmt>(n)->value));
  default: {
    unsigned height = 0;
    ast::forEachChild(n, [&](const ast::Node *child) {
      height = std::max(height, child->getHeight());
    });
    return height;
  }
  }
}

/// Completes a node: sets its range and height, and rejects trees higher
/// than the limit (a chain of 100,000 `+` is not nested, but its tree is
/// 100,000 levels deep).
void finish(ParserState &state, ast::Node *n, const char *start,
            const char *end) {
  n->setRange(
      SMRange(SMLoc::getFromPointer(start), SMLoc::getFromPointer(end)));
  unsigned height = maxChildHeight(n);
  n->setHeight(height + 1);
  if (height + 1 > state.maxTreeHeight)
    throw SyntaxError(start, "expression is too deeply nested: its syntax "
                             "tree is more than " +
                                 std::to_string(state.maxTreeHeight) +
                                 " levels deep");
}

/// `tag(p)`: finishes the node that p built; it spans from p's first token
/// to the end of the last token p matched. (X3 hands on_success no attribute
/// for rules with semantic actions, hence an outer action over raw[].)
template <typename Subject> auto tag(Subject const &subject) {
  return x3::raw[subject][([](auto &c) {
    if (x3::_val(c))
      finish(getState(c), x3::_val(c), x3::_attr(c).begin(),
             getState(c).lastTokenEnd);
  })];
}

/// Statement-level recovery: report, skip to the end of the statement and
/// carry on with the next one.
struct Recovering {
  template <typename It, typename Exc, typename Ctx>
  x3::error_handler_result on_error(It &first, It const &last, Exc const &x,
                                    Ctx const &ctx) const {
    ParserState &state = getState(ctx);
    It resume = state.recover(first, x.where(), x.which(), /*topLevel=*/false);
    if (resume <= skipTrivia(first, last))
      return x3::error_handler_result::fail;
    first = resume;
    return x3::error_handler_result::accept;
  }
};

#define TAGGED_RULE(name, attr)                                                \
  struct name##_id {};                                                         \
  x3::rule<name##_id, attr> const name = #name;
#define PLAIN_RULE(name, attr)                                                 \
  struct name##_id {};                                                         \
  x3::rule<name##_id, attr> const name = #name;

/// List attributes live on the stack while their rule runs and are then
/// copied into the arena (toArray); most lists are short, so keep them off
/// the heap.
template <typename T> using List = llvm::SmallVector<T, 8>;
using ExprList = List<ast::Expr *>;

struct TypeChain {
  llvm::SmallVector<ast::Expr *, 4> prefixes;
  ast::Expr *base = nullptr;
};
struct ContainerHead {
  ast::ContainerLayout layout = ast::ContainerLayout::Auto;
  bool isUnion = false;
};
/// Declaration modifiers; `inlineLoc` locates a misplaced inline/noinline.
struct Modifiers {
  unsigned bits = 0;
  const char *inlineLoc = nullptr;
};
struct ContainerBody {
  List<ast::FieldDecl *> fields;
  List<ast::Node *> decls;
};

// Expressions.
PLAIN_RULE(expr, ast::Expr *)
PLAIN_RULE(postfix, ast::Expr *)
PLAIN_RULE(primary, ast::Expr *)
PLAIN_RULE(args, ExprList)
TAGGED_RULE(identifier, ast::Identifier *)
TAGGED_RULE(paren_expr, ast::ParenExpr *)
TAGGED_RULE(builtin_call, ast::BuiltinCall *)
TAGGED_RULE(bool_lit, ast::BoolLiteral *)
TAGGED_RULE(void_lit, ast::VoidLiteral *)
TAGGED_RULE(enum_lit, ast::EnumLiteral *)
TAGGED_RULE(anon_lit, ast::Expr *)
PLAIN_RULE(struct_fields, List<ast::FieldInit *>)
PLAIN_RULE(tuple_elems, ExprList)
TAGGED_RULE(field_init, ast::FieldInit *)
TAGGED_RULE(if_expr, ast::IfExpr *)
TAGGED_RULE(switch_expr, ast::SwitchExpr *)
PLAIN_RULE(prongs, List<ast::SwitchProng *>)
TAGGED_RULE(prong, ast::SwitchProng *)
PLAIN_RULE(prong_body, ast::Stmt *)
TAGGED_RULE(comptime_expr, ast::ComptimeExpr *)
TAGGED_RULE(block_expr, ast::BlockExpr *)
TAGGED_RULE(tensor_access, ast::TensorAccess *)
TAGGED_RULE(index_var, ast::Capture *)
PLAIN_RULE(prefix_type_expr, ast::Expr *)
PLAIN_RULE(array_elems, ExprList)
// Types.
PLAIN_RULE(type_expr, ast::Expr *)
PLAIN_RULE(type_chain, TypeChain)
TAGGED_RULE(type_prefix, ast::Expr *)
PLAIN_RULE(type_base, ast::Expr *)
PLAIN_RULE(type_name, ast::Expr *)
TAGGED_RULE(fn_type, ast::FnType *)
PLAIN_RULE(fn_type_params, List<ast::ParamDecl *>)
TAGGED_RULE(fn_type_param, ast::ParamDecl *)
TAGGED_RULE(container_type, ast::ContainerType *)
PLAIN_RULE(container_head, ContainerHead)
PLAIN_RULE(container_body, ContainerBody)
TAGGED_RULE(field_decl, ast::FieldDecl *)
PLAIN_RULE(member_decl, ast::Node *)
TAGGED_RULE(enum_type, ast::EnumType *)
PLAIN_RULE(enum_members, List<ast::EnumMember *>)
TAGGED_RULE(enum_member, ast::EnumMember *)
// Statements.
struct statement_id : Recovering {};
x3::rule<statement_id, ast::Stmt *> const statement = "statement";
TAGGED_RULE(block, ast::BlockStmt *)
PLAIN_RULE(stmt_list, List<ast::Stmt *>)
PLAIN_RULE(labeled_stmt, ast::Stmt *)
PLAIN_RULE(labelable, ast::Stmt *)
TAGGED_RULE(var_decl, ast::VarDecl *)
TAGGED_RULE(comptime_block_stmt, ast::ComptimeBlock *)
TAGGED_RULE(if_stmt, ast::IfStmt *)
PLAIN_RULE(if_then, ast::Stmt *)
TAGGED_RULE(while_stmt, ast::WhileStmt *)
TAGGED_RULE(for_stmt, ast::ForStmt *)
TAGGED_RULE(for_capture, ast::Capture *)
TAGGED_RULE(inline_loop, ast::Stmt *)
PLAIN_RULE(loop_after_inline, ast::Stmt *)
PLAIN_RULE(loop_body, ast::Stmt *)
TAGGED_RULE(switch_stmt, ast::ExprStmt *)
PLAIN_RULE(simple_core, ast::Stmt *)
TAGGED_RULE(return_core, ast::ReturnStmt *)
TAGGED_RULE(break_core, ast::BreakStmt *)
TAGGED_RULE(continue_core, ast::ContinueStmt *)
TAGGED_RULE(assign_core, ast::Stmt *)
// Declarations.
PLAIN_RULE(top_decl, ast::Node *)
TAGGED_RULE(decl_with_mods, ast::Node *)
PLAIN_RULE(modifiers, Modifiers)
PLAIN_RULE(decl_body, ast::Node *)
TAGGED_RULE(fn_decl, ast::FnDecl *)
PLAIN_RULE(fn_params, List<ast::ParamDecl *>)
TAGGED_RULE(param_decl, ast::ParamDecl *)
TAGGED_RULE(layout_block, ast::LayoutBlock *)
TAGGED_RULE(comptime_top, ast::ComptimeBlock *)

//===----------------------------------------------------------------------===//
// Semantic actions
//===----------------------------------------------------------------------===//

using x3::_attr;
using x3::_pass;
using x3::_val;

template <typename M> struct MemberOf;
template <typename C, typename T> struct MemberOf<T C::*> {
  using Class = C;
  using Type = T;
};

/// `_val = new T`.
template <typename T>
constexpr auto make =
    [](auto &c) { _val(c) = getState(c).file.template create<T>(); };

/// `_val->member = _attr`.
template <auto Member>
constexpr auto set = [](auto &c) {
  using Class = typename MemberOf<decltype(Member)>::Class;
  static_cast<Class *>(_val(c))->*Member = _attr(c);
};

/// `_val->flag = true`.
template <auto Member>
constexpr auto flag = [](auto &c) {
  using Class = typename MemberOf<decltype(Member)>::Class;
  static_cast<Class *>(_val(c))->*Member = true;
};

/// Copies a list attribute into an arena ArrayRef member, dropping
/// the null entries that error recovery leaves behind.
template <typename T, typename Vec>
llvm::ArrayRef<T> toArray(ParserState &state, const Vec &items) {
  llvm::SmallVector<T, 16> kept;
  for (auto *item : items)
    if (item)
      kept.push_back(item);
  return state.file.copyArray(llvm::ArrayRef<T>(kept));
}

template <auto Member>
constexpr auto setList = [](auto &c) {
  using Info = MemberOf<decltype(Member)>;
  using Elem = typename Info::Type::value_type;
  static_cast<typename Info::Class *>(_val(c))->*Member =
      toArray<Elem>(getState(c), _attr(c));
};

constexpr auto pass = [](auto &c) { _val(c) = _attr(c); };

const char *endOf(ast::Node *n) { return n->getRange().End.getPointer(); }
const char *startOf(ast::Node *n) { return n->getRange().Start.getPointer(); }

//===----------------------------------------------------------------------===//
// Custom parsers that need the rule's value
//===----------------------------------------------------------------------===//

/// The `;` ending a declaration, with a message naming the declaration kind.
struct DeclSemiParser : x3::parser<DeclSemiParser> {
  using attribute_type = x3::unused_type;
  [[maybe_unused]] static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &decl,
             Attr &attr) const {
    if (punct(";").parse(first, last, ctx, decl, attr))
      return true;
    switch (decl->varKind) {
    case ast::VarKind::Const:
      throwExpected("';' after const declaration", first, last);
    case ast::VarKind::Param:
      throwExpected("';' after param declaration", first, last);
    case ast::VarKind::Var:
      break;
    }
    throwExpected("';' after variable declaration", first, last);
  }
};
constexpr DeclSemiParser declSemi{};

/// The `;` ending a simple statement, which it adds to the statement's
/// range. When `required`, a missing `;` is an error naming the statement.
struct StmtSemiParser : x3::parser<StmtSemiParser> {
  bool required;
  constexpr explicit StmtSemiParser(bool required) : required(required) {}
  using attribute_type = x3::unused_type;
  [[maybe_unused]] static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &stmt,
             Attr &attr) const {
    if (punct(";").parse(first, last, ctx, stmt, attr)) {
      stmt->setRange(
          SMRange(stmt->getRange().Start, SMLoc::getFromPointer(first)));
      return true;
    }
    if (!required)
      return false;
    const char *what = "';' after expression";
    switch (stmt->getKind()) {
    case ast::Node::Kind::ReturnStmt:
      what = "';' after return statement";
      break;
    case ast::Node::Kind::BreakStmt:
      what = "';' after break statement";
      break;
    case ast::Node::Kind::ContinueStmt:
      what = "';' after continue statement";
      break;
    case ast::Node::Kind::AssignStmt:
      what = "';' after assignment";
      break;
    default:
      break;
    }
    throwExpected(what, first, last);
  }
};
constexpr StmtSemiParser stmtSemi{true};
constexpr StmtSemiParser optionalStmtSemi{false};

/// Operands with prefix operators, joined by binary operators with
/// precedence climbing. Iterative, so long operator chains use no stack.
struct ExprChainParser : x3::parser<ExprChainParser> {
  using attribute_type = ast::Expr *;
  [[maybe_unused]] static bool const has_attribute = true;

  template <typename It, typename Ctx>
  bool parseOperand(It &first, It const &last, Ctx const &ctx,
                    ast::Expr *&out) const {
    ParserState &state = getState(ctx);
    llvm::SmallVector<UnaryOpToken, 4> prefixes;
    UnaryOpToken op;
    while (unaryOp.parse(first, last, ctx, x3::unused, op))
      prefixes.push_back(op);
    ast::Expr *e = nullptr;
    if (!postfix.parse(first, last, ctx, x3::unused, e)) {
      if (prefixes.empty())
        return false;
      throwExpected(
          ("expression after '" + ast::getSpelling(prefixes.back().op) + "'")
              .str(),
          first, last);
    }
    for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
      auto *u = state.file.create<ast::UnaryExpr>();
      u->op = it->op;
      u->operand = e;
      finish(state, u, it->loc, endOf(e));
      e = u;
    }
    out = e;
    return true;
  }

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    ParserState &state = getState(ctx);
    ast::Expr *lhs = nullptr;
    if (!parseOperand(first, last, ctx, lhs))
      return false;
    llvm::SmallVector<ast::Expr *, 8> operands{lhs};
    llvm::SmallVector<BinaryOpToken, 8> ops;
    auto reduce = [&] {
      BinaryOpToken op = ops.pop_back_val();
      ast::Expr *rhs = operands.pop_back_val();
      ast::Expr *lhs = operands.pop_back_val();
      auto *b = state.file.create<ast::BinaryExpr>();
      b->op = op.op;
      b->lhs = lhs;
      b->rhs = rhs;
      finish(state, b, startOf(lhs), endOf(rhs));
      operands.push_back(b);
    };
    BinaryOpToken op;
    while (binaryOp.parse(first, last, ctx, x3::unused, op)) {
      unsigned prec = ast::getPrecedence(op.op);
      while (!ops.empty() && ast::getPrecedence(ops.back().op) >= prec) {
        if (ast::isComparison(op.op) && ast::isComparison(ops.back().op))
          state.error(op.loc, "comparison operators cannot be chained; use "
                              "parentheses");
        reduce();
      }
      ast::Expr *rhs = nullptr;
      if (!parseOperand(first, last, ctx, rhs))
        throwExpected(
            ("expression after '" + ast::getSpelling(op.op) + "'").str(), first,
            last);
      ops.push_back(op);
      operands.push_back(rhs);
    }
    while (!ops.empty())
      reduce();
    x3::traits::move_to(operands.front(), attr);
    return true;
  }
};
constexpr ExprChainParser exprChain{};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

auto const comma = punct(",");
auto const semi = punct(";");
auto const lparen = punct("(");
auto const rparen = punct(")");
auto const lbrace = punct("{");
auto const rbrace = punct("}");
auto const lbracket = punct("[");
auto const rbracket = punct("]");
auto const colon = punct(":");
auto const equal = punct("=", "=>");
/// `.` that is not the start of `.*` or `.{`.
auto const dot = punct(".", "*{");

auto const expr_def = nest[exprChain];

auto const wrapCall = [](auto &c) {
  auto *call = getState(c).file.template create<ast::CallExpr>();
  call->callee = _val(c);
  call->args = toArray<ast::Expr *>(getState(c), _attr(c));
  finish(getState(c), call, startOf(_val(c)), getState(c).lastTokenEnd);
  _val(c) = call;
};
auto const wrapIndex = [](auto &c) {
  auto *index = getState(c).file.template create<ast::IndexExpr>();
  index->base = _val(c);
  index->indices = toArray<ast::Expr *>(getState(c), _attr(c));
  finish(getState(c), index, startOf(_val(c)), getState(c).lastTokenEnd);
  _val(c) = index;
};
auto const wrapDeref = [](auto &c) {
  auto *deref = getState(c).file.template create<ast::DerefExpr>();
  deref->base = _val(c);
  finish(getState(c), deref, startOf(_val(c)), getState(c).lastTokenEnd);
  _val(c) = deref;
};
auto const wrapField = [](auto &c) {
  auto *field = getState(c).file.template create<ast::FieldAccess>();
  field->base = _val(c);
  field->field = _attr(c);
  finish(getState(c), field, startOf(_val(c)), getState(c).lastTokenEnd);
  _val(c) = field;
};

auto const call_suffix =
    (lparen >> args >> expect("')' after call arguments")[rparen])[wrapCall];
auto const index_suffix =
    (lbracket >> expect("index expression")[expr % comma] >>
     expect("']' after index")[rbracket])[wrapIndex];
auto const dot_suffix =
    punct(".*")[wrapDeref] |
    (dot >> expect("field name after '.'")[ident])[wrapField];

/// `primary (call | index | .* | .field)*`. Looks at the next character
/// before trying a suffix: after most operands there is none, and trying all
/// four in turn showed up in profiles.
struct PostfixParser : x3::parser<PostfixParser> {
  using attribute_type = ast::Expr *;
  [[maybe_unused]] static bool const has_attribute = true;

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &rctx,
             Attr &attr) const {
    if (!primary[pass].parse(first, last, ctx, rctx, x3::unused))
      return false;
    for (;;) {
      It p = skipTrivia(first, last);
      if (p == last)
        return true;
      bool matched;
      switch (*p) {
      case '(':
        matched = call_suffix.parse(first, last, ctx, rctx, x3::unused);
        break;
      case '[':
        matched = index_suffix.parse(first, last, ctx, rctx, x3::unused);
        break;
      case '.':
        matched = dot_suffix.parse(first, last, ctx, rctx, x3::unused);
        break;
      default:
        return true;
      }
      if (!matched)
        return true;
    }
  }
};
constexpr PostfixParser postfixLoop{};

auto const postfix_def = postfixLoop;

auto const args_def = -(expr % comma) >> -comma;

// The alternatives of a primary expression, grouped by the characters they
// can start with (in grammar order within each group):
//   block_expr identifier  - an identifier that is not a keyword
//   literal                - digit, '"', '\''
//   builtin_call           - '@'
//   anon_lit enum_lit      - '.'
//   paren_expr             - '('
//   bool_lit if_expr switch_expr comptime_expr fn_type container_type
//   enum_type              - a keyword
//   tensor_access          - '|'
//   prefix_type_expr       - '*', '[', '?'
//   void_lit               - '{'
auto const primary_label = block_expr[pass] | identifier[pass];
auto const primary_dot = anon_lit[pass] | enum_lit[pass];
auto const primary_keyword =
    bool_lit[pass] | if_expr[pass] | switch_expr[pass] | comptime_expr[pass] |
    fn_type[pass] | container_type[pass] | enum_type[pass];

/// `primary`: dispatches on the first character to the only alternatives
/// that can match there, rather than trying all seventeen in turn (every
/// operand is a primary). A plain identifier, the most common operand, is
/// scanned once and built here.
struct PrimaryParser : x3::parser<PrimaryParser> {
  using attribute_type = ast::Expr *;
  [[maybe_unused]] static bool const has_attribute = true;

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &rctx,
             Attr &attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last)
      return false;
    char c = *first;
    if (isIdentStart(c)) {
      It p = first + 1;
      while (p != last && isIdentChar(*p))
        ++p;
      llvm::StringRef word(first, p - first);
      if (isKeyword(word))
        return primary_keyword.parse(first, last, ctx, rctx, x3::unused);
      // Only `name: {` can be a labelled block.
      It q = skipTrivia(p, last);
      if (q != last && *q == ':')
        return primary_label.parse(first, last, ctx, rctx, x3::unused);
      ParserState &state = getState(ctx);
      auto *id = state.file.create<ast::Identifier>();
      id->name = ast::Name{word};
      state.lastTokenEnd = p;
      finish(state, id, first, p);
      first = p;
      rctx = id;
      return true;
    }
    switch (c) {
    case '"':
    case '\'':
      return literal[pass].parse(first, last, ctx, rctx, x3::unused);
    case '@':
      return builtin_call[pass].parse(first, last, ctx, rctx, x3::unused);
    case '.':
      return primary_dot.parse(first, last, ctx, rctx, x3::unused);
    case '(':
      return paren_expr[pass].parse(first, last, ctx, rctx, x3::unused);
    case '|':
      return tensor_access[pass].parse(first, last, ctx, rctx, x3::unused);
    case '*':
    case '[':
    case '?':
      return prefix_type_expr[pass].parse(first, last, ctx, rctx, x3::unused);
    case '{':
      return void_lit[pass].parse(first, last, ctx, rctx, x3::unused);
    default:
      if (isDigit(c))
        return literal[pass].parse(first, last, ctx, rctx, x3::unused);
      return false;
    }
  }
};
constexpr PrimaryParser primaryDispatch{};

auto const primary_def = primaryDispatch;

auto const identifier_def = tag(ident[([](auto &c) {
  auto *id = getState(c).file.template create<ast::Identifier>();
  id->name = _attr(c);
  _val(c) = id;
})]);

auto const paren_expr_def =
    tag(lparen[make<ast::ParenExpr>] >>
        expect("expression after '('")[expr][set<&ast::ParenExpr::inner>] >>
        expect("')'")[rparen]);

auto const builtin_call_def =
    tag(builtinName[make<ast::BuiltinCall>][set<&ast::BuiltinCall::name>] >>
        expect("'(' after builtin name")[lparen] >>
        args[setList<&ast::BuiltinCall::args>] >>
        expect("')' after builtin arguments")[rparen]);

auto const makeBool = [](bool value) {
  return [value](auto &c) {
    auto *b = getState(c).file.template create<ast::BoolLiteral>();
    b->value = value;
    _val(c) = b;
  };
};
auto const bool_lit_def =
    tag(kw("true")[makeBool(true)] | kw("false")[makeBool(false)]);

auto const void_lit_def = tag((lbrace >> rbrace)[make<ast::VoidLiteral>]);

auto const enum_lit_def =
    tag(dot >> ident[([](auto &c) {
          auto *e = getState(c).file.template create<ast::EnumLiteral>();
          e->name = _attr(c);
          _val(c) = e;
        })]);

auto const makeStruct = [](auto &c) {
  auto *s = getState(c).file.template create<ast::StructLiteral>();
  s->fields = toArray<ast::FieldInit *>(getState(c), _attr(c));
  _val(c) = s;
};
auto const makeTuple = [](auto &c) {
  auto *t = getState(c).file.template create<ast::TupleLiteral>();
  t->elements = toArray<ast::Expr *>(getState(c), _attr(c));
  _val(c) = t;
};
auto const anon_lit_def = tag(
    punct(".") >> lbrace >>
    (rbrace[make<ast::StructLiteral>] |
     (fieldInitAhead >> struct_fields)[makeStruct] | tuple_elems[makeTuple] |
     failWith("'.field = value' or an expression in anonymous literal")));
auto const
    struct_fields_def = (field_init % comma) >> -comma >>
                        expect("'}' after struct literal fields")[rbrace];
auto const tuple_elems_def = (expr % comma) >> -comma >>
                             expect("'}' after tuple elements")[rbrace];
auto const field_init_def =
    tag(dot[make<ast::FieldInit>] >>
        expect("field name after '.'")[ident][set<&ast::FieldInit::name>] >>
        expect("'=' after field name")[equal] >>
        expect("expression after '='")[expr][set<&ast::FieldInit::value>]);

auto const if_expr_def = tag(
    kw("if")[make<ast::IfExpr>] >> expect("'(' after 'if'")[lparen] >>
    expect("condition")[expr][set<&ast::IfExpr::cond>] >>
    expect("')' after if condition")[rparen] >>
    expect(
        "expression after if condition")[expr][set<&ast::IfExpr::thenExpr>] >>
    -(kw("else") >>
      expect("expression after 'else'")[expr][set<&ast::IfExpr::elseExpr>]));

auto const switch_expr_def =
    tag(kw("switch")[make<ast::SwitchExpr>] >>
        expect("'(' after 'switch'")[lparen] >>
        expect("expression")[expr][set<&ast::SwitchExpr::subject>] >>
        expect("')' after switch operand")[rparen] >>
        expect("'{' after switch operand")[lbrace] >>
        prongs[setList<&ast::SwitchExpr::prongs>] >>
        expect("'}' at end of switch")[rbrace]);
auto const prongs_def = -(prong % comma) >> -comma;
auto const prong_def =
    tag((kw("else")[make<ast::SwitchProng>][flag<&ast::SwitchProng::isElse>] |
         (expr % comma)[([](auto &c) {
           auto *p = getState(c).file.template create<ast::SwitchProng>();
           p->values = toArray<ast::Expr *>(getState(c), _attr(c));
           _val(c) = p;
         })]) >>
        expect("'=>' after switch prong values")[punct("=>")] >>
        expect("switch prong body")[prong_body][set<&ast::SwitchProng::body>]);
auto const prong_body_def = block[pass] | return_core[pass] | break_core[pass] |
                            continue_core[pass] | assign_core[pass];

auto const comptime_expr_def = tag(
    kw("comptime")[make<ast::ComptimeExpr>] >>
    expect(
        "expression after 'comptime'")[expr][set<&ast::ComptimeExpr::operand>]);

auto const block_expr_def =
    tag((labelBraceAhead >> ident >> colon >> block)[([](auto &c) {
      auto *e = getState(c).file.template create<ast::BlockExpr>();
      ast::BlockStmt *b = fusion::at_c<1>(_attr(c));
      b->label = fusion::at_c<0>(_attr(c));
      e->block = b;
      _val(c) = e;
    })]);

auto const tensor_access_def = tag(
    punct("|")[make<ast::TensorAccess>] >>
    expect("index variable")[index_var % comma]
                            [setList<&ast::TensorAccess::indices>] >>
    expect("'|' after index variables")[punct("|")] >>
    expect("'{' before tensor extents")[lbrace] >>
    expect(
        "tensor extent")[expr % comma][setList<&ast::TensorAccess::extents>] >>
    expect("'}' after tensor extents")[rbrace] >>
    expect("'->' after tensor extents")[punct("->")] >>
    expect("expression after '->'")[expr][set<&ast::TensorAccess::body>]);
auto const index_var_def =
    tag(ident[make<ast::Capture>][set<&ast::Capture::name>]);

/// A type with at least one prefix in expression position, and the typed
/// array literal `[N]T{...}`.
auto const makeArrayLiteral = [](auto &c) {
  ParserState &state = getState(c);
  if (!llvm::isa<ast::ArrayType>(_val(c)))
    state.error(startOf(_val(c)),
                "only an array type can have an initializer list");
  auto *lit = state.file.template create<ast::ArrayLiteral>();
  lit->type = _val(c);
  lit->elements = toArray<ast::Expr *>(state, _attr(c));
  finish(state, lit, startOf(_val(c)), state.lastTokenEnd);
  _val(c) = lit;
};
auto const prefix_type_expr_def = &(punct("*") | lbracket | punct("?")) >>
                                  type_expr[pass] >>
                                  -(lbrace >> array_elems)[makeArrayLiteral];
auto const array_elems_def = -(expr % comma) >> -comma >>
                             expect("'}' after array elements")[rbrace];

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Applies the collected prefixes (`*`, `[N]`, `?`) to the base type, the
/// innermost prefix last.
auto const foldType = [](auto &c) {
  TypeChain &chain = _attr(c);
  ast::Expr *inner = chain.base;
  for (auto it = chain.prefixes.rbegin(); it != chain.prefixes.rend(); ++it) {
    ast::Expr *outer = *it;
    if (auto *p = llvm::dyn_cast<ast::PointerType>(outer))
      p->pointee = inner;
    else if (auto *a = llvm::dyn_cast<ast::ArrayType>(outer))
      a->element = inner;
    else
      llvm::cast<ast::OptionalType>(outer)->child = inner;
    finish(getState(c), outer, startOf(outer), endOf(inner));
    inner = outer;
  }
  _val(c) = inner;
};
auto const type_expr_def = nest[type_chain[foldType]];
auto const setTypeBase = [](auto &c) { _val(c).base = _attr(c); };
auto const type_chain_def =
    (+type_prefix[([](auto &c) { _val(c).prefixes.push_back(_attr(c)); })] >>
     expect("type")[type_base][setTypeBase]) |
    type_base[setTypeBase];

auto const type_prefix_def =
    tag((punct("*")[make<ast::PointerType>] >>
         -kw("const")[flag<&ast::PointerType::isConst>]) |
        (lbracket >>
         ((punct("*") >> expect("']' after '[*'")[rbracket])[([](auto &c) {
            auto *p = getState(c).file.template create<ast::PointerType>();
            p->isMany = true;
            _val(c) = p;
          })] >>
              -kw("const")[flag<&ast::PointerType::isConst>] |
          expect("array length")[expr % comma][([](auto &c) {
            auto *a = getState(c).file.template create<ast::ArrayType>();
            a->dims = toArray<ast::Expr *>(getState(c), _attr(c));
            _val(c) = a;
          })] >>
              expect("']' after array length")[rbracket])) |
        punct("?")[make<ast::OptionalType>]);

auto const type_base_def = builtin_call[pass] | fn_type[pass] |
                           container_type[pass] | enum_type[pass] |
                           paren_expr[pass] | type_name[pass];
auto const type_name_def = identifier[pass] >>
                           *(dot >> expect("name after '.'")[ident])[wrapField];

auto const fn_type_def =
    tag((kw("fn")[make<ast::FnType>] |
         kw("task")[make<ast::FnType>][flag<&ast::FnType::isTask>]) >>
        expect("'(' after 'fn'")[lparen] >>
        fn_type_params[setList<&ast::FnType::params>] >>
        expect("')' after parameter types")[rparen] >>
        expect("return type")[type_expr][set<&ast::FnType::returnType>]);
auto const fn_type_params_def = -(fn_type_param % comma) >> -comma;
auto const fn_type_param_def = tag(
    (kw("comptime")[make<ast::ParamDecl>][flag<&ast::ParamDecl::isComptime>] |
     x3::eps[make<ast::ParamDecl>]) >>
    -(labelAhead >> ident[set<&ast::ParamDecl::name>] >> colon) >>
    type_expr[set<&ast::ParamDecl::type>]);

auto const container_type_def =
    tag(container_head[([](auto &c) {
          auto *t = getState(c).file.template create<ast::ContainerType>();
          t->layout = _attr(c).layout;
          t->isUnion = _attr(c).isUnion;
          _val(c) = t;
        })] >>
        expect("'{' after 'struct'")[lbrace] >> container_body[([](auto &c) {
          _val(c)->fields =
              toArray<ast::FieldDecl *>(getState(c), _attr(c).fields);
          _val(c)->decls = toArray<ast::Node *>(getState(c), _attr(c).decls);
        })] >>
        expect("'}' at end of struct")[rbrace]);
auto const container_head_def =
    -(kw("extern")[([](auto &c) {
        _val(c).layout = ast::ContainerLayout::Extern;
      })] |
      kw("packed")[([](auto &c) {
        _val(c).layout = ast::ContainerLayout::Packed;
      })]) >>
    (kw("struct") | kw("union")[([](auto &c) { _val(c).isUnion = true; })]);
auto const container_body_def =
    *((field_decl[([](auto &c) { _val(c).fields.push_back(_attr(c)); })] >>
       (comma | &rbrace | failWith("',' or '}' after struct field"))) |
      member_decl[([](auto &c) { _val(c).decls.push_back(_attr(c)); })]);
auto const field_decl_def = tag(
    ident[make<ast::FieldDecl>][set<&ast::FieldDecl::name>] >>
    expect("':' after field name")[colon] >>
    expect("field type")[type_expr][set<&ast::FieldDecl::type>] >>
    -(equal >>
      expect(
          "expression after '='")[expr][set<&ast::FieldDecl::defaultValue>]));
auto const member_decl_def = var_decl[pass] | fn_decl[pass];

auto const enum_type_def =
    tag(kw("enum")[make<ast::EnumType>] >>
        -(lparen >>
          expect("enum tag type")[type_expr][set<&ast::EnumType::tagType>] >>
          expect("')' after enum tag type")[rparen]) >>
        expect("'{' after 'enum'")[lbrace] >>
        enum_members[setList<&ast::EnumType::members>] >>
        expect("'}' at end of enum")[rbrace]);
auto const enum_members_def = -(enum_member % comma) >> -comma;
auto const enum_member_def =
    tag(ident[make<ast::EnumMember>][set<&ast::EnumMember::name>] >>
        -(equal >>
          expect("expression after '='")[expr][set<&ast::EnumMember::value>]));

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

auto const no_statement = !rbrace >> !atEnd >> failWith("statement");
auto const simple_stmt = (simple_core[pass] >> stmtSemi) | no_statement;
auto const unlabeled_stmt = var_decl[pass] | comptime_block_stmt[pass] |
                            if_stmt[pass] | while_stmt[pass] | for_stmt[pass] |
                            inline_loop[pass] | switch_stmt[pass] |
                            block[pass] | simple_stmt;
auto const any_stmt = labeled_stmt[pass] | unlabeled_stmt;

/// The alternatives of a statement. Most statements start with a name that
/// is not a keyword and not a label (`x = ...;`, `f(...);`), and then only
/// the simple statement can match: go there directly instead of trying the
/// keyword alternatives one by one. Anything else takes the full list, minus
/// the label when there is none.
struct StatementParser : x3::parser<StatementParser> {
  using attribute_type = ast::Stmt *;
  [[maybe_unused]] static bool const has_attribute = true;

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &rctx,
             Attr &attr) const {
    It p = skipTrivia(first, last);
    if (p == last || !isIdentStart(*p))
      return unlabeled_stmt.parse(first, last, ctx, rctx, x3::unused);
    It q = p + 1;
    while (q != last && isIdentChar(*q))
      ++q;
    if (isKeyword(llvm::StringRef(p, q - p)))
      return unlabeled_stmt.parse(first, last, ctx, rctx, x3::unused);
    q = skipTrivia(q, last);
    if (q != last && *q == ':')
      return any_stmt.parse(first, last, ctx, rctx, x3::unused);
    return simple_stmt.parse(first, last, ctx, rctx, x3::unused);
  }
};
constexpr StatementParser statementDispatch{};

auto const statement_def = nest[statementDispatch];

auto const block_def = tag(lbrace[make<ast::BlockStmt>] >>
                           stmt_list[setList<&ast::BlockStmt::stmts>] >>
                           expect("'}' at end of block")[rbrace]);
auto const stmt_list_def = *statement;

auto const labeled_stmt_def =
    (labelAhead >> ident >> colon >>
     expect("loop or block after label")[labelable])[([](auto &c) {
      ast::Name label = fusion::at_c<0>(_attr(c));
      ast::Stmt *s = fusion::at_c<1>(_attr(c));
      if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s))
        w->label = label;
      else if (auto *f = llvm::dyn_cast<ast::ForStmt>(s))
        f->label = label;
      else
        llvm::cast<ast::BlockStmt>(s)->label = label;
      s->setRange(
          SMRange(SMLoc::getFromPointer(label.text.data()), s->getRange().End));
      _val(c) = s;
    })];
auto const labelable_def =
    while_stmt[pass] | for_stmt[pass] | inline_loop[pass] | block[pass];

auto const makeVar = [](ast::VarKind kind, bool isComptime) {
  return [kind, isComptime](auto &c) {
    auto *v = getState(c).file.template create<ast::VarDecl>();
    v->varKind = kind;
    v->isComptime = isComptime;
    _val(c) = v;
  };
};
auto const var_decl_def = tag(
    (kw("const")[makeVar(ast::VarKind::Const, false)] |
     kw("var")[makeVar(ast::VarKind::Var, false)] |
     kw("param")[makeVar(ast::VarKind::Param, false)] |
     (kw("comptime") >> kw("var"))[makeVar(ast::VarKind::Var, true)]) >>
    expect("name in declaration")[ident][set<&ast::VarDecl::name>] >>
    -(colon >> expect("type after ':'")[type_expr][set<&ast::VarDecl::type>]) >>
    -(kw("align") >> expect("'(' after 'align'")[lparen] >>
      expect("alignment")[expr][set<&ast::VarDecl::align>] >>
      expect("')' after alignment")[rparen]) >>
    -(kw("linksection") >> expect("'(' after 'linksection'")[lparen] >>
      expect("section name")[expr][set<&ast::VarDecl::linkSection>] >>
      expect("')' after section name")[rparen]) >>
    -(equal >>
      expect("expression after '='")[expr][set<&ast::VarDecl::init>]) >>
    declSemi);

auto const comptime_block_stmt_def =
    tag(kw("comptime")[make<ast::ComptimeBlock>] >>
        block[set<&ast::ComptimeBlock::body>]);

auto const if_stmt_def = tag(
    kw("if")[make<ast::IfStmt>] >> expect("'(' after 'if'")[lparen] >>
    expect("condition")[expr][set<&ast::IfStmt::cond>] >>
    expect("')' after if condition")[rparen] >>
    expect(
        "statement after if condition")[if_then][set<&ast::IfStmt::thenStmt>] >>
    -(kw("else") >>
      expect(
          "statement after 'else'")[statement][set<&ast::IfStmt::elseStmt>]));
// A then-branch that is not a block may end with `;` or run into `else`:
// `if (c) f() else g();`.
auto const if_then_def =
    nest[block[pass] | if_stmt[pass] | while_stmt[pass] | for_stmt[pass] |
         inline_loop[pass] | switch_stmt[pass] |
         (simple_core[pass] >> (optionalStmtSemi | &kw("else") |
                                failWith("';' or 'else' after if branch")))];

auto const while_stmt_def = tag(
    kw("while")[make<ast::WhileStmt>] >> expect("'(' after 'while'")[lparen] >>
    expect("condition")[expr][set<&ast::WhileStmt::cond>] >>
    expect("')' after while condition")[rparen] >>
    -(colon >> expect("'(' before continue expression")[lparen] >>
      expect("continue expression")[assign_core]
                                   [set<&ast::WhileStmt::continueStmt>] >>
      expect("')' after continue expression")[rparen]) >>
    expect("loop body")[loop_body][set<&ast::WhileStmt::body>]);

auto const for_stmt_def = tag(
    kw("for")[make<ast::ForStmt>] >> expect("'(' after 'for'")[lparen] >>
    expect("expression to iterate over")[expr][set<&ast::ForStmt::iterable>] >>
    expect("')' after for operand")[rparen] >>
    expect("'|' before loop captures")[punct("|")] >>
    expect("capture name")[for_capture % comma]
                          [setList<&ast::ForStmt::captures>] >>
    expect("'|' after loop captures")[punct("|")] >>
    expect("loop body")[loop_body][set<&ast::ForStmt::body>]);
auto const makeCapture = [](bool isPointer) {
  return [isPointer](auto &c) {
    auto *cap = getState(c).file.template create<ast::Capture>();
    cap->isPointer = isPointer;
    cap->name = _attr(c);
    _val(c) = cap;
  };
};
auto const for_capture_def = tag(
    (punct("*") >> expect("capture name after '*'")[ident])[makeCapture(true)] |
    ident[makeCapture(false)]);

auto const inline_loop_def = tag(
    kw("inline") >>
    expect("'while' or 'for' after 'inline'")[loop_after_inline][([](auto &c) {
      ast::Stmt *s = _attr(c);
      if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s))
        w->isInline = true;
      else
        llvm::cast<ast::ForStmt>(s)->isInline = true;
      _val(c) = s;
    })]);
auto const loop_after_inline_def = while_stmt[pass] | for_stmt[pass];

auto const loop_body_def =
    nest[block[pass] | if_stmt[pass] | while_stmt[pass] | for_stmt[pass] |
         inline_loop[pass] | switch_stmt[pass] |
         (simple_core[pass] >> stmtSemi)];

auto const switch_stmt_def = tag(switch_expr[([](auto &c) {
  auto *s = getState(c).file.template create<ast::ExprStmt>();
  s->expr = _attr(c);
  _val(c) = s;
})]);

auto const simple_core_def = return_core[pass] | break_core[pass] |
                             continue_core[pass] | assign_core[pass];
auto const return_core_def = tag(kw("return")[make<ast::ReturnStmt>] >>
                                 -expr[set<&ast::ReturnStmt::value>]);
auto const break_core_def = tag(
    kw("break")[make<ast::BreakStmt>] >>
    -(colon >> expect("label after ':'")[ident][set<&ast::BreakStmt::label>]) >>
    -expr[set<&ast::BreakStmt::value>]);
auto const continue_core_def =
    tag(kw("continue")[make<ast::ContinueStmt>] >>
        -(colon >>
          expect("label after ':'")[ident][set<&ast::ContinueStmt::label>]));
auto const assign_core_def =
    tag(expr[([](auto &c) {
          auto *s = getState(c).file.template create<ast::ExprStmt>();
          s->expr = _attr(c);
          _val(c) = s;
        })] >>
        -(assignOp[([](auto &c) {
            auto *a = getState(c).file.template create<ast::AssignStmt>();
            a->op = _attr(c);
            a->target = llvm::cast<ast::ExprStmt>(_val(c))->expr;
            _val(c) = a;
          })] >>
          expect("expression after assignment operator")
              [expr][set<&ast::AssignStmt::value>]));

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

enum Modifier : unsigned { Export = 1, Extern = 2, Inline = 4, NoInline = 8 };

auto const top_decl_def =
    decl_with_mods[pass] | comptime_top[pass] | layout_block[pass];

auto const orModifier = [](unsigned bit) {
  return [bit](auto &c) {
    _val(c).bits |= bit;
    if ((bit & (Inline | NoInline)) && !_val(c).inlineLoc)
      _val(c).inlineLoc = _attr(c).begin();
  };
};
auto const modifiers_def = *(x3::raw[kw("export")][orModifier(Export)] |
                             x3::raw[kw("extern")][orModifier(Extern)] |
                             x3::raw[kw("inline")][orModifier(Inline)] |
                             x3::raw[kw("noinline")][orModifier(NoInline)]);

auto const decl_with_mods_def = tag((modifiers >> decl_body)[([](auto &c) {
  const Modifiers &mods = fusion::at_c<0>(_attr(c));
  ast::Node *decl = fusion::at_c<1>(_attr(c));
  if (auto *v = llvm::dyn_cast<ast::VarDecl>(decl)) {
    v->isExport = mods.bits & Export;
    v->isExtern = mods.bits & Extern;
    if (mods.inlineLoc)
      getState(c).error(mods.inlineLoc,
                        "'inline' and 'noinline' apply only to functions");
  } else {
    auto *f = llvm::cast<ast::FnDecl>(decl);
    f->isExport = mods.bits & Export;
    f->isExtern = mods.bits & Extern;
    f->isInline = mods.bits & Inline;
    f->isNoInline = mods.bits & NoInline;
  }
  _val(c) = decl;
})]);
auto const decl_body_def = var_decl[pass] | fn_decl[pass];

auto const fn_decl_def =
    tag((kw("fn")[make<ast::FnDecl>] |
         kw("task")[make<ast::FnDecl>][flag<&ast::FnDecl::isTask>]) >>
        expect("function name")[ident][set<&ast::FnDecl::name>] >>
        expect("'(' after function name")[lparen] >>
        fn_params[setList<&ast::FnDecl::params>] >>
        expect("')' after parameters")[rparen] >>
        expect("return type")[type_expr][set<&ast::FnDecl::returnType>] >>
        (block[set<&ast::FnDecl::body>] | semi |
         failWith("'{' to begin the function body")));
auto const fn_params_def = -(param_decl % comma) >> -comma;
auto const param_decl_def = tag(
    (kw("comptime")[make<ast::ParamDecl>][flag<&ast::ParamDecl::isComptime>] >>
         expect("parameter name")[ident][set<&ast::ParamDecl::name>] |
     ident[make<ast::ParamDecl>][set<&ast::ParamDecl::name>]) >>
    expect("':' after parameter name")[colon] >>
    expect("parameter type")[type_expr][set<&ast::ParamDecl::type>]);

auto const layout_block_def =
    tag(kw("layout")[make<ast::LayoutBlock>] >>
        expect("'{' after 'layout'")[block][set<&ast::LayoutBlock::body>]);
auto const comptime_top_def =
    tag(kw("comptime")[make<ast::ComptimeBlock>] >>
        expect("'{' after 'comptime'")[block][set<&ast::ComptimeBlock::body>]);

BOOST_SPIRIT_DEFINE(expr, postfix, primary, args, identifier, paren_expr,
                    builtin_call, bool_lit, void_lit, enum_lit, anon_lit,
                    struct_fields, tuple_elems, field_init, if_expr,
                    switch_expr, prongs, prong, prong_body, comptime_expr,
                    block_expr, tensor_access, index_var, prefix_type_expr,
                    array_elems)
BOOST_SPIRIT_DEFINE(type_expr, type_chain, type_prefix, type_base, type_name,
                    fn_type, fn_type_params, fn_type_param, container_type,
                    container_head, container_body, field_decl, member_decl,
                    enum_type, enum_members, enum_member)
BOOST_SPIRIT_DEFINE(statement, block, stmt_list, labeled_stmt, labelable,
                    var_decl, comptime_block_stmt, if_stmt, if_then, while_stmt,
                    for_stmt, for_capture, inline_loop, loop_after_inline,
                    loop_body, switch_stmt, simple_core, return_core,
                    break_core, continue_core, assign_core)
BOOST_SPIRIT_DEFINE(top_decl, decl_with_mods, modifiers, decl_body, fn_decl,
                    fn_params, param_decl, layout_block, comptime_top)

} // namespace

bool tessera::frontend::detail::parseTopLevelDecl(ParserState &state,
                                                  const char *&first,
                                                  ast::Node *&out) {
  auto const parser = x3::with<StateTag>(std::ref(state))[top_decl];
  return x3::phrase_parse(first, state.end, parser, skipper, out);
}
