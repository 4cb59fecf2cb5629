// Drive expressions: a recursive-descent parser into a flat post-order node vector, evaluated
// recursively with second-order forward-mode jets (value, d/dt, d²/dt²).
//
// Grammar (project-format-v1 plus extensions):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power          so -t^2 = -(t^2)
//   power   := primary ('^' unary)?               right-associative: 2^3^2 = 2^9, 2^-1 = 0.5
//   primary := number | name | function '(' expr (',' expr)* ')' | '(' expr ')'
// Numbers: 12, 0.5, .5, 1e-3, 2.5E+2. Names are case-sensitive. Whitespace is allowed anywhere.
// Format v1: t, pi, sin cos tan exp sqrt abs.
// Extensions: the constant e; asin acos atan log (natural) sinh cosh tanh; atan2(y, x); min(a, b);
// max(a, b); step(x) (Heaviside: 0 for x < 0, else 1; NaN stays NaN; derivatives 0); sign(x)
// (-1, 0 or 1; derivatives 0). min/max take the derivatives of the selected argument (the first
// one on ties).
//
// Singular points (sqrt at 0, log at 0, 1/0, ...) yield inf or NaN rather than an error: the
// expression is valid, only that instant is not.
#include "core/sim/expression.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string_view>

namespace articula {

// Children precede their parent (post-order); a and b index into the same vector.
struct Expression::Node {
  // Leaves, then binary operations, then unary ones (arity() relies on this order).
  // clang-format off
  enum class Op : std::uint8_t {
    kConst, kTime,
    kAdd, kSub, kMul, kDiv, kPow, kAtan2, kMin, kMax,
    kNeg, kSin, kCos, kTan, kExp, kSqrt, kAbs, kAsin, kAcos, kAtan, kLog, kSinh, kCosh, kTanh,
    kStep, kSign
  };
  // clang-format on
  Op op = Op::kConst;
  int a = -1;
  int b = -1;
  double c = 0.0;  // kConst only
};

namespace {

using Node = Expression::Node;
using Op = Node::Op;

// Parser recursion (parentheses, function calls, unary signs, exponents) is limited to keep the
// parser's stack bounded; tree height is limited separately because left-associative chains such
// as a 500-term sum are legitimate yet make the recursive evaluator just as deep.
constexpr int kMaxNesting = 200;
constexpr int kMaxHeight = 1000;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Function {
  std::string_view name;
  Op op;
  int arity;
};

constexpr Function kFunctions[] = {
    {"sin", Op::kSin, 1},     {"cos", Op::kCos, 1},   {"tan", Op::kTan, 1},
    {"exp", Op::kExp, 1},     {"sqrt", Op::kSqrt, 1}, {"abs", Op::kAbs, 1},
    {"asin", Op::kAsin, 1},   {"acos", Op::kAcos, 1}, {"atan", Op::kAtan, 1},
    {"log", Op::kLog, 1},     {"sinh", Op::kSinh, 1}, {"cosh", Op::kCosh, 1},
    {"tanh", Op::kTanh, 1},   {"step", Op::kStep, 1}, {"sign", Op::kSign, 1},
    {"atan2", Op::kAtan2, 2}, {"min", Op::kMin, 2},   {"max", Op::kMax, 2},
};

const Function* find_function(std::string_view name) {
  for (const Function& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

int arity(Op op) {
  if (op <= Op::kTime) return 0;
  return op <= Op::kMax ? 2 : 1;
}

double sign_of(double x) {
  if (std::isnan(x)) return x;
  return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0);
}

// ---------------------------------------------------------------------------------------------
// Evaluation. The value-only path and the jet path share unary_value/binary_value so that
// value(t) == eval(t).value bit for bit.

double unary_value(Op op, double x) {
  switch (op) {
    case Op::kNeg:
      return -x;
    case Op::kSin:
      return std::sin(x);
    case Op::kCos:
      return std::cos(x);
    case Op::kTan:
      return std::tan(x);
    case Op::kExp:
      return std::exp(x);
    case Op::kSqrt:
      return std::sqrt(x);
    case Op::kAbs:
      return std::abs(x);
    case Op::kAsin:
      return std::asin(x);
    case Op::kAcos:
      return std::acos(x);
    case Op::kAtan:
      return std::atan(x);
    case Op::kLog:
      return std::log(x);
    case Op::kSinh:
      return std::sinh(x);
    case Op::kCosh:
      return std::cosh(x);
    case Op::kTanh:
      return std::tanh(x);
    case Op::kStep:
      return std::isnan(x) ? x : (x < 0.0 ? 0.0 : 1.0);
    case Op::kSign:
      return sign_of(x);
    default:
      return kNaN;
  }
}

double binary_value(Op op, double x, double y) {
  switch (op) {
    case Op::kAdd:
      return x + y;
    case Op::kSub:
      return x - y;
    case Op::kMul:
      return x * y;
    case Op::kDiv:
      return x / y;
    case Op::kPow:
      return std::pow(x, y);
    case Op::kAtan2:
      return std::atan2(x, y);
    case Op::kMin:
      return x <= y ? x : y;
    case Op::kMax:
      return x >= y ? x : y;
    default:
      return kNaN;
  }
}

double eval_value(const Node* nodes, int i, double t) {
  const Node& n = nodes[i];
  switch (arity(n.op)) {
    case 0:
      return n.op == Op::kTime ? t : n.c;
    case 1:
      return unary_value(n.op, eval_value(nodes, n.a, t));
    default:
      return binary_value(n.op, eval_value(nodes, n.a, t), eval_value(nodes, n.b, t));
  }
}

// f(u) for a jet u, given f(u), f'(u), f''(u): (f, f' u', f'' u'^2 + f' u'').
TimeJet chain(const TimeJet& u, double f0, double f1, double f2) {
  return {f0, f1 * u.d1, f2 * u.d1 * u.d1 + f1 * u.d2};
}

TimeJet unary_jet(Op op, const TimeJet& u) {
  const double x = u.value;
  const double f0 = unary_value(op, x);
  switch (op) {
    case Op::kNeg:
      return {f0, -u.d1, -u.d2};
    case Op::kSin:
      return chain(u, f0, std::cos(x), -f0);
    case Op::kCos:
      return chain(u, f0, -std::sin(x), -f0);
    case Op::kTan:
      return chain(u, f0, 1.0 + f0 * f0, 2.0 * f0 * (1.0 + f0 * f0));
    case Op::kExp:
      return chain(u, f0, f0, f0);
    case Op::kSqrt:
      return chain(u, f0, 0.5 / f0, -0.25 / (f0 * f0 * f0));
    case Op::kAbs:
      return chain(u, f0, sign_of(x), 0.0);
    case Op::kAsin:
    case Op::kAcos: {
      const double r = 1.0 / std::sqrt(1.0 - x * x);
      const double s = op == Op::kAsin ? 1.0 : -1.0;
      return chain(u, f0, s * r, s * x * r * r * r);
    }
    case Op::kAtan: {
      const double r = 1.0 / (1.0 + x * x);
      return chain(u, f0, r, -2.0 * x * r * r);
    }
    case Op::kLog:
      return chain(u, f0, 1.0 / x, -1.0 / (x * x));
    case Op::kSinh:
      return chain(u, f0, std::cosh(x), f0);
    case Op::kCosh:
      return chain(u, f0, std::sinh(x), f0);
    case Op::kTanh:
      return chain(u, f0, 1.0 - f0 * f0, -2.0 * f0 * (1.0 - f0 * f0));
    default:
      return {f0, 0.0, 0.0};  // step, sign: piecewise constant
  }
}

TimeJet mul_jet(const TimeJet& u, const TimeJet& v) {
  return {u.value * v.value, u.d1 * v.value + u.value * v.d1,
          u.d2 * v.value + 2.0 * u.d1 * v.d1 + u.value * v.d2};
}

// From u = q v: u' = q'v + qv', u'' = q''v + 2q'v' + qv''.
TimeJet div_jet(const TimeJet& u, const TimeJet& v) {
  const double q = u.value / v.value;
  const double q1 = (u.d1 - q * v.d1) / v.value;
  return {q, q1, (u.d2 - 2.0 * q1 * v.d1 - q * v.d2) / v.value};
}

TimeJet pow_jet(const TimeJet& u, const TimeJet& v) {
  const double value = std::pow(u.value, v.value);
  if (v.d1 == 0.0 && v.d2 == 0.0) {
    // Exponent constant to second order: the power rule, which (unlike exp(v log u)) is right for
    // negative bases with integer exponents. p = 0 and p = 1 avoid 0 * inf at u = 0.
    const double p = v.value;
    if (p == 0.0) return {value, 0.0, 0.0};
    if (p == 1.0) return u;
    return chain(u, value, p * std::pow(u.value, p - 1.0),
                 p * (p - 1.0) * std::pow(u.value, p - 2.0));
  }
  // u^v = exp(w) with w = v log u (u > 0; elsewhere the result is honestly NaN or inf).
  const TimeJet log_u = {std::log(u.value), u.d1 / u.value,
                         u.d2 / u.value - (u.d1 * u.d1) / (u.value * u.value)};
  const TimeJet w = mul_jet(v, log_u);
  return {value, value * w.d1, value * (w.d2 + w.d1 * w.d1)};
}

// atan2(y, x): d/dt = (x y' - y x') / r², and the x'y' terms cancel in the numerator's derivative.
TimeJet atan2_jet(const TimeJet& y, const TimeJet& x) {
  const double r2 = x.value * x.value + y.value * y.value;
  const double num = x.value * y.d1 - y.value * x.d1;
  const double num1 = x.value * y.d2 - y.value * x.d2;
  const double r2_1 = 2.0 * (x.value * x.d1 + y.value * y.d1);
  return {std::atan2(y.value, x.value), num / r2, num1 / r2 - num * r2_1 / (r2 * r2)};
}

TimeJet binary_jet(Op op, const TimeJet& u, const TimeJet& v) {
  switch (op) {
    case Op::kAdd:
      return {u.value + v.value, u.d1 + v.d1, u.d2 + v.d2};
    case Op::kSub:
      return {u.value - v.value, u.d1 - v.d1, u.d2 - v.d2};
    case Op::kMul:
      return mul_jet(u, v);
    case Op::kDiv:
      return div_jet(u, v);
    case Op::kPow:
      return pow_jet(u, v);
    case Op::kAtan2:
      return atan2_jet(u, v);
    case Op::kMin:
      return u.value <= v.value ? u : v;
    case Op::kMax:
      return u.value >= v.value ? u : v;
    default:
      return {kNaN, kNaN, kNaN};
  }
}

TimeJet eval_jet(const Node* nodes, int i, double t) {
  const Node& n = nodes[i];
  switch (arity(n.op)) {
    case 0:
      return n.op == Op::kTime ? TimeJet{t, 1.0, 0.0} : TimeJet{n.c, 0.0, 0.0};
    case 1:
      return unary_jet(n.op, eval_jet(nodes, n.a, t));
    default:
      return binary_jet(n.op, eval_jet(nodes, n.a, t), eval_jet(nodes, n.b, t));
  }
}

// ---------------------------------------------------------------------------------------------
// Lexing and parsing.

enum class Tok { kEnd, kNumber, kName, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  int pos = 0;
  std::string_view text;
  double number = 0.0;
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c);
}

// A printable rendering of the character at text[pos]: a whole UTF-8 sequence, or \xNN.
std::string quote_char(std::string_view text, std::size_t pos) {
  const auto c = static_cast<unsigned char>(text[pos]);
  const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  std::string out = "'";
  if ((c >= 0x20 && c < 0x7f) || (len > 1 && pos + len <= text.size())) {
    out.append(text.substr(pos, len));
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    out.append("\\x").push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  out.push_back('\'');
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view variable) : text_(text), variable_(variable) {}

  std::vector<Node> parse(int* root) {
    advance();
    if (tok_.kind == Tok::kEnd) throw ExpressionError("empty expression", 0);
    *root = expr();
    if (tok_.kind != Tok::kEnd) {
      if (tok_.text == ")") fail("unmatched ')'", tok_.pos);
      fail("unexpected '" + std::string(tok_.text) + "'", tok_.pos, " (expected an operator)");
    }
    return std::move(nodes_);
  }

 private:
  [[noreturn]] static void fail(const std::string& what, int pos, const std::string& hint = "") {
    throw ExpressionError(what + " at position " + std::to_string(pos) + hint, pos);
  }

  void advance() {
    std::size_t i = end_;
    while (i < text_.size() && is_space(text_[i])) ++i;
    tok_ = Token{};
    tok_.pos = static_cast<int>(i);
    if (i == text_.size()) {
      end_ = i;
      return;
    }
    const char c = text_[i];
    std::size_t j = i + 1;
    if (is_digit(c) || (c == '.' && i + 1 < text_.size() && is_digit(text_[i + 1]))) {
      j = lex_number(i);
    } else if (is_name_start(c)) {
      tok_.kind = Tok::kName;
      while (j < text_.size() && is_name_char(text_[j])) ++j;
    } else if (std::string_view("+-*/^(),").find(c) != std::string_view::npos) {
      tok_.kind = Tok::kPunct;
    } else {
      fail("unexpected character " + quote_char(text_, i), static_cast<int>(i));
    }
    tok_.text = text_.substr(i, j - i);
    end_ = j;
  }

  // Scans digits [. digits] [(e|E) [+|-] digits] from i and converts; returns the end offset.
  std::size_t lex_number(std::size_t i) {
    std::size_t j = i;
    while (j < text_.size() && is_digit(text_[j])) ++j;
    if (j < text_.size() && text_[j] == '.') {
      ++j;
      while (j < text_.size() && is_digit(text_[j])) ++j;
    }
    if (j < text_.size() && (text_[j] == 'e' || text_[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < text_.size() && (text_[k] == '+' || text_[k] == '-')) ++k;
      if (k >= text_.size() || !is_digit(text_[k])) {
        fail("malformed number '" + std::string(text_.substr(i, k - i)) + "'", static_cast<int>(i),
             " (exponent without digits)");
      }
      while (k < text_.size() && is_digit(text_[k])) ++k;
      j = k;
    }
    tok_.kind = Tok::kNumber;
    const std::from_chars_result r =
        std::from_chars(text_.data() + i, text_.data() + j, tok_.number);
    if (r.ec == std::errc::result_out_of_range || !std::isfinite(tok_.number)) {
      fail("number '" + std::string(text_.substr(i, j - i)) + "' is out of range",
           static_cast<int>(i));
    }
    return j;
  }

  bool accept(char c) {
    if (tok_.kind != Tok::kPunct || tok_.text[0] != c) return false;
    advance();
    return true;
  }

  // Appends a node, folding it to a constant when all its children are constants (they are then
  // single nodes at the back of the vector, so folding also reclaims them).
  int add(Op op, int a, int b, int pos) {
    const int n = arity(op);
    const bool a_const = n < 1 || nodes_[a].op == Op::kConst;
    const bool b_const = n < 2 || nodes_[b].op == Op::kConst;
    if (n > 0 && a_const && b_const) {
      const double c =
          n == 1 ? unary_value(op, nodes_[a].c) : binary_value(op, nodes_[a].c, nodes_[b].c);
      if (a ==
          static_cast<int>(nodes_.size()) - n) {  // true by construction; never drop a live node
        nodes_.resize(a);
        height_.resize(a);
      }
      return constant(c);
    }
    int h = 1;
    if (n >= 1) h = std::max(h, height_[a] + 1);
    if (n >= 2) h = std::max(h, height_[b] + 1);
    if (h > kMaxHeight) fail("expression too long or nested too deeply", pos);
    nodes_.push_back(Node{op, a, b, 0.0});
    height_.push_back(h);
    return static_cast<int>(nodes_.size()) - 1;
  }

  int constant(double c) {
    nodes_.push_back(Node{Op::kConst, -1, -1, c});
    height_.push_back(1);
    return static_cast<int>(nodes_.size()) - 1;
  }

  int expr() {
    int lhs = term();
    while (tok_.kind == Tok::kPunct && (tok_.text == "+" || tok_.text == "-")) {
      const Op op = tok_.text == "+" ? Op::kAdd : Op::kSub;
      const int pos = tok_.pos;
      advance();
      const int rhs = term();
      lhs = add(op, lhs, rhs, pos);
    }
    return lhs;
  }

  int term() {
    int lhs = unary();
    while (tok_.kind == Tok::kPunct && (tok_.text == "*" || tok_.text == "/")) {
      const Op op = tok_.text == "*" ? Op::kMul : Op::kDiv;
      const int pos = tok_.pos;
      advance();
      const int rhs = unary();
      lhs = add(op, lhs, rhs, pos);
    }
    return lhs;
  }

  // Every parser recursion passes through here, so this is where nesting is bounded.
  int unary() {
    if (++depth_ > kMaxNesting) fail("expression nested too deeply", tok_.pos);
    int result;
    const int pos = tok_.pos;
    if (accept('-')) {
      result = add(Op::kNeg, unary(), -1, pos);
    } else if (accept('+')) {
      result = unary();
    } else {
      result = power();
    }
    --depth_;
    return result;
  }

  int power() {
    const int base = primary();
    const int pos = tok_.pos;
    if (!accept('^')) return base;
    const int exponent = unary();
    return add(Op::kPow, base, exponent, pos);
  }

  int primary() {
    const Token tok = tok_;
    if (tok.kind == Tok::kNumber) {
      advance();
      return constant(tok.number);
    }
    if (tok.kind == Tok::kName) {
      advance();
      return name(tok);
    }
    if (accept('(')) {
      const int inner = expr();
      expect_close();
      return inner;
    }
    if (tok.kind == Tok::kEnd) fail("unexpected end of expression", tok.pos);
    fail("unexpected '" + std::string(tok.text) + "'", tok.pos);
  }

  void expect_close() {
    if (accept(')')) return;
    if (tok_.kind == Tok::kEnd) fail("missing ')'", tok_.pos);
    fail("unexpected '" + std::string(tok_.text) + "'", tok_.pos, " (expected an operator or ')')");
  }

  // A name already consumed: a constant, t, or a function call.
  int name(const Token& tok) {
    const bool call = tok_.kind == Tok::kPunct && tok_.text == "(";
    if (!call) {
      if (tok.text == variable_) return add(Op::kTime, -1, -1, tok.pos);
      if (tok.text == "pi") return constant(std::numbers::pi);
      if (tok.text == "e") return constant(std::numbers::e);
      if (find_function(tok.text) != nullptr)
        fail("expected '(' after function '" + std::string(tok.text) + "'", tok_.pos);
      fail("unknown name '" + std::string(tok.text) + "'", tok.pos,
           " (the only variable is " + std::string(variable_) + ")");
    }
    const Function* f = find_function(tok.text);
    if (f == nullptr) fail("unknown function '" + std::string(tok.text) + "'", tok.pos);
    advance();  // '('
    int args[2] = {-1, -1};
    int count = 0;
    if (tok_.kind != Tok::kPunct || tok_.text != ")") {
      do {
        const int arg = expr();
        if (count < 2) args[count] = arg;
        ++count;
      } while (accept(','));
    }
    expect_close();
    if (count != f->arity) {
      fail("function '" + std::string(f->name) + "' takes " + std::to_string(f->arity) +
               (f->arity == 1 ? " argument" : " arguments"),
           tok.pos);
    }
    return add(f->op, args[0], args[1], tok.pos);
  }

  std::string_view text_;
  std::string_view variable_;  // "t" for drive laws, "theta" for cam profiles
  std::size_t end_ = 0;        // offset just past the current token
  Token tok_;
  int depth_ = 0;
  std::vector<Node> nodes_;
  std::vector<int> height_;  // parallel to nodes_: subtree height, bounded by kMaxHeight
};

}  // namespace

Expression::Expression() = default;

Expression Expression::constant(double c) {
  Expression e;
  Node n;
  n.c = c;
  e.nodes_ = std::make_shared<const std::vector<Node>>(1, n);
  e.root_ = 0;
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, c);
  e.text_.assign(buf, r.ptr);
  return e;
}

Expression Expression::parse(const std::string& text, const std::string& variable) {
  Expression e;
  Parser parser(text, variable);
  auto nodes = std::make_shared<std::vector<Node>>(parser.parse(&e.root_));
  e.nodes_ = std::move(nodes);
  e.text_ = text;
  return e;
}

double Expression::value(double t) const {
  if (!nodes_) return 0.0;
  return eval_value(nodes_->data(), root_, t);
}

TimeJet Expression::eval(double t) const {
  if (!nodes_) return {};
  return eval_jet(nodes_->data(), root_, t);
}

// Constant subtrees are folded while parsing, so only a constant root is time-independent.
bool Expression::depends_on_time() const {
  return nodes_ && (*nodes_)[root_].op != Node::Op::kConst;
}

}  // namespace articula
