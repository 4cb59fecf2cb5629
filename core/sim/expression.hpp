#pragma once
// Drive expressions in t (project-format-v1): numbers, t, pi, + - * / ^, parentheses, unary
// minus, sin cos tan exp sqrt abs (plus the extensions listed in expression.cpp). Evaluated with
// exact first and second time derivatives by second-order forward-mode differentiation.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace articula {

// A parse error: position is the 0-based character offset where the problem was found.
struct ExpressionError : std::runtime_error {
  ExpressionError(const std::string& what, int position_)
      : std::runtime_error(what), position(position_) {}
  int position;
};

// f(t), f'(t), f''(t), exact.
struct TimeJet {
  double value = 0.0;
  double d1 = 0.0;
  double d2 = 0.0;
};

class Expression {
 public:
  Expression();  // the constant 0
  // Throws ExpressionError with a message such as "unknown function 'sinn' at position 3".
  // The variable is t, or another name (a cam profile's theta); `pi` and `e` stay constants.
  static Expression parse(const std::string& text, const std::string& variable = "t");
  // The constant c, its text the shortest that reads back as c.
  static Expression constant(double c);

  double value(double t) const;
  TimeJet eval(double t) const;
  const std::string& text() const { return text_; }
  bool depends_on_time() const;

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const std::vector<Node>> nodes_;  // immutable, shared by copies
  int root_ = -1;
};

}  // namespace articula
