// Drive expressions: exact value and derivatives against closed forms and finite differences,
// precedence, error messages and positions, copies, and the nesting guards.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "core/sim/expression.hpp"
#include "tests/support/constants.hpp"

using namespace articula;

namespace {

// |a - b| <= tol * max(1, |b|): relative, without blowing up near zero.
bool close(double a, double b, double tol) {
  return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

// Finite differences of f lose about eps |f| / h^2 to rounding, so their comparison is relative
// to the size of f as well as of the derivative.
bool fd_close(double exact, double fd, double f, double tol) {
  return std::abs(exact - fd) <= tol * std::max({1.0, std::abs(fd), std::abs(f)});
}

struct Case {
  const char* text;
  std::function<TimeJet(double)> exact;  // closed-form f, f', f''
  std::vector<double> ts = {-1.3, -0.4, 0.0, 0.25, 0.7, 1.9};
};

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      {"3",
       [](double) {
         return TimeJet{3, 0, 0};
       }},
      {"t",
       [](double t) {
         return TimeJet{t, 1, 0};
       }},
      {"t^2",
       [](double t) {
         return TimeJet{t * t, 2 * t, 2};
       }},
      {"t^3 - 2*t + 1",
       [](double t) {
         return TimeJet{t * t * t - 2 * t + 1, 3 * t * t - 2, 6 * t};
       }},
      {"0.3 + 2*pi*t",
       [](double t) {
         return TimeJet{0.3 + 2 * kPi * t, 2 * kPi, 0};
       }},
      {"sin(2*t)*exp(-t)",
       [](double t) {
         const double s = std::sin(2 * t), c = std::cos(2 * t), e = std::exp(-t);
         return TimeJet{s * e, e * (2 * c - s), e * (-3 * s - 4 * c)};
       }},
      {"t - sin(2*pi*t)/(2*pi)",  // cycloidal motion law
       [](double t) {
         return TimeJet{t - std::sin(2 * kPi * t) / (2 * kPi), 1 - std::cos(2 * kPi * t),
                        2 * kPi * std::sin(2 * kPi * t)};
       }},
      {"sin(cos(t))",
       [](double t) {
         const double s = std::sin(t), c = std::cos(t);
         return TimeJet{std::sin(c), -std::cos(c) * s, -std::sin(c) * s * s - std::cos(c) * c};
       }},
      {"exp(sin(t))",
       [](double t) {
         const double e = std::exp(std::sin(t)), c = std::cos(t);
         return TimeJet{e, c * e, (c * c - std::sin(t)) * e};
       }},
      {"1/(1+t^2)",
       [](double t) {
         const double q = 1 + t * t;
         return TimeJet{1 / q, -2 * t / (q * q), (6 * t * t - 2) / (q * q * q)};
       }},
      {"sin(t)/(2+cos(t))",
       [](double t) {
         const double s = std::sin(t), c = std::cos(t), q = 2 + c;
         return TimeJet{s / q, (2 * c + 1) / (q * q), 2 * s * (c - 1) / (q * q * q)};
       }},
      {"(t-2)^2",
       [](double t) {
         return TimeJet{(t - 2) * (t - 2), 2 * (t - 2), 2};
       }},
      {"(t-2)^3",  // negative base, integer exponent
       [](double t) {
         const double u = t - 2;
         return TimeJet{u * u * u, 3 * u * u, 6 * u};
       }},
      {"(1+t*t)^-2",
       [](double t) {
         const double q = 1 + t * t;
         // d/dt q^-2 = -4t q^-3; d2 = -4 q^-3 + 24 t^2 q^-4.
         return TimeJet{1 / (q * q), -4 * t / (q * q * q),
                        -4 / (q * q * q) + 24 * t * t / (q * q * q * q)};
       }},
      {"-t^2",
       [](double t) {
         return TimeJet{-t * t, -2 * t, -2};
       }},
      {"2^t",
       [](double t) {
         const double p = std::pow(2, t), l = std::log(2.0);
         return TimeJet{p, l * p, l * l * p};
       }},
      {"e^t",
       [](double t) {
         return TimeJet{std::exp(t), std::exp(t), std::exp(t)};
       }},
      {"t^t",
       [](double t) {
         const double p = std::pow(t, t), l = std::log(t) + 1;
         return TimeJet{p, p * l, p * (l * l + 1 / t)};
       },
       {0.25, 0.7, 1.9}},
      {"sqrt(t)",
       [](double t) {
         return TimeJet{std::sqrt(t), 0.5 / std::sqrt(t), -0.25 / (t * std::sqrt(t))};
       },
       {0.25, 0.7, 1.9}},
      {"t^0.5",
       [](double t) {
         return TimeJet{std::sqrt(t), 0.5 / std::sqrt(t), -0.25 / (t * std::sqrt(t))};
       },
       {0.25, 0.7, 1.9}},
      {"sqrt(1+t^2)",
       [](double t) {
         const double s = std::sqrt(1 + t * t);
         return TimeJet{s, t / s, 1 / (s * s * s)};
       }},
      {"tan(t)",
       [](double t) {
         const double th = std::tan(t);
         return TimeJet{th, 1 + th * th, 2 * th * (1 + th * th)};
       }},
      {"log(1+t^2)",
       [](double t) {
         const double q = 1 + t * t;
         return TimeJet{std::log(q), 2 * t / q, (2 - 2 * t * t) / (q * q)};
       }},
      {"asin(t/2)",
       [](double t) {
         const double r = 4 - t * t;
         return TimeJet{std::asin(t / 2), 1 / std::sqrt(r), t / (r * std::sqrt(r))};
       }},
      {"acos(t/2)",
       [](double t) {
         const double r = 4 - t * t;
         return TimeJet{std::acos(t / 2), -1 / std::sqrt(r), -t / (r * std::sqrt(r))};
       }},
      {"atan(t)",
       [](double t) {
         const double q = 1 + t * t;
         return TimeJet{std::atan(t), 1 / q, -2 * t / (q * q)};
       }},
      {"sinh(t)",
       [](double t) {
         return TimeJet{std::sinh(t), std::cosh(t), std::sinh(t)};
       }},
      {"cosh(2*t)",
       [](double t) {
         return TimeJet{std::cosh(2 * t), 2 * std::sinh(2 * t), 4 * std::cosh(2 * t)};
       }},
      {"tanh(t)",
       [](double t) {
         const double th = std::tanh(t);
         return TimeJet{th, 1 - th * th, -2 * th * (1 - th * th)};
       }},
      {"atan2(sin(t), cos(t))",
       [](double t) {
         return TimeJet{t, 1, 0};
       }},
      {"atan2(1+t, 2-t)",
       [](double t) {
         const double r2 = (2 - t) * (2 - t) + (1 + t) * (1 + t);
         return TimeJet{std::atan((1 + t) / (2 - t)), 3 / r2, -3 * (4 * t - 2) / (r2 * r2)};
       }},
      {"abs(t-1)",
       [](double t) {
         return t < 1 ? TimeJet{1 - t, -1, 0} : TimeJet{t - 1, 1, 0};
       }},
      {"min(t, 1-t)",
       [](double t) {
         return t <= 0.5 ? TimeJet{t, 1, 0} : TimeJet{1 - t, -1, 0};
       }},
      {"max(t^2, t)",
       [](double t) {
         return t * t >= t ? TimeJet{t * t, 2 * t, 2} : TimeJet{t, 1, 0};
       },
       {-1.3, -0.4, 0.25, 0.7, 1.9}},
      {"step(t-0.5)*t",
       [](double t) {
         return t < 0.5 ? TimeJet{0, 0, 0} : TimeJet{t, 1, 0};
       }},
      {"sign(t)*t^2",  // t|t|
       [](double t) {
         return TimeJet{t * std::abs(t), 2 * std::abs(t), t < 0 ? -2.0 : 2.0};
       },
       {-1.3, -0.4, 0.25, 0.7, 1.9}},
      {"cos(t)^2 + sin(t)^2",
       [](double) {
         return TimeJet{1, 0, 0};
       }},
      {" 2 *\tt\n- 1e-3*t^2 + 2.5E+2 ",
       [](double t) {
         return TimeJet{2 * t - 1e-3 * t * t + 250, 2 - 2e-3 * t, -2e-3};
       }},
  };
  return kCases;
}

void check_jet(const TimeJet& got, const TimeJet& want, double tol) {
  INFO("got (" << got.value << ", " << got.d1 << ", " << got.d2 << "), want (" << want.value << ", "
               << want.d1 << ", " << want.d2 << ")");
  CHECK(close(got.value, want.value, tol));
  CHECK(close(got.d1, want.d1, tol));
  CHECK(close(got.d2, want.d2, tol));
}

void check_error(const std::string& text, const std::string& message, int position) {
  INFO("expression \"" << text << "\"");
  try {
    Expression::parse(text);
    FAIL("no error thrown");
  } catch (const ExpressionError& e) {
    CHECK(std::string(e.what()) == message);
    CHECK(e.position == position);
  }
}

double value_of(const std::string& text, double t = 0.0) {
  return Expression::parse(text).value(t);
}

}  // namespace

TEST_CASE("Expression values and derivatives match closed forms", "[expression]") {
  for (const Case& c : cases()) {
    const Expression e = Expression::parse(c.text);
    for (double t : c.ts) {
      INFO(c.text << " at t = " << t);
      check_jet(e.eval(t), c.exact(t), 1e-12);
      CHECK(e.value(t) == e.eval(t).value);  // both paths compute the value identically
    }
  }
}

TEST_CASE("Expression derivatives agree with central finite differences", "[expression]") {
  // Independent of the closed forms above. h balances truncation (~h^2) against rounding.
  const double h1 = 1e-5, h2 = 1e-4;
  for (const Case& c : cases()) {
    const Expression e = Expression::parse(c.text);
    for (double t : c.ts) {
      INFO(c.text << " at t = " << t);
      const TimeJet j = e.eval(t);
      const double fd1 = (e.value(t + h1) - e.value(t - h1)) / (2 * h1);
      const double fd2 = (e.value(t + h2) - 2 * e.value(t) + e.value(t - h2)) / (h2 * h2);
      INFO("d1 " << j.d1 << " vs " << fd1 << ", d2 " << j.d2 << " vs " << fd2);
      CHECK(fd_close(j.d1, fd1, j.value, 1e-6));
      CHECK(fd_close(j.d2, fd2, j.value, 1e-6));
    }
  }
  // Time-varying exponents and bases together, where no closed form is given above.
  for (const char* text : {"(1+t^2)^sin(t)", "exp(t)^(t/3)", "atan2(t^2-1, cos(3*t))"}) {
    const Expression e = Expression::parse(text);
    for (double t : {-0.9, 0.3, 1.1}) {
      INFO(text << " at t = " << t);
      const TimeJet j = e.eval(t);
      const double fd1 = (e.value(t + h1) - e.value(t - h1)) / (2 * h1);
      const double fd2 = (e.value(t + h2) - 2 * e.value(t) + e.value(t - h2)) / (h2 * h2);
      CHECK(fd_close(j.d1, fd1, j.value, 1e-6));
      CHECK(fd_close(j.d2, fd2, j.value, 1e-6));
    }
  }
}

TEST_CASE("Expression powers at special points are exact", "[expression]") {
  // Negative base, constant integer exponent: the power rule, not exp(v log u).
  const TimeJet sq = Expression::parse("(t-2)^2").eval(0.0);
  CHECK(sq.value == 4.0);
  CHECK(sq.d1 == -4.0);
  CHECK(sq.d2 == 2.0);
  const TimeJet cube = Expression::parse("t^3").eval(-2.0);
  CHECK(cube.value == -8.0);
  CHECK(cube.d1 == 12.0);
  CHECK(cube.d2 == -12.0);
  // Exponents 0 and 1 at u = 0 must not produce 0 * inf.
  const TimeJet one = Expression::parse("t^1").eval(0.0);
  CHECK((one.value == 0.0 && one.d1 == 1.0 && one.d2 == 0.0));
  const TimeJet zero = Expression::parse("t^0").eval(0.0);
  CHECK((zero.value == 1.0 && zero.d1 == 0.0 && zero.d2 == 0.0));
  const TimeJet t2 = Expression::parse("t^2").eval(0.0);
  CHECK((t2.value == 0.0 && t2.d1 == 0.0 && t2.d2 == 2.0));
  // Non-integer power of a negative number is honestly NaN.
  CHECK(std::isnan(Expression::parse("(t-1)^0.5").value(0.0)));
}

TEST_CASE("Expression singular points give inf or NaN, not a crash", "[expression]") {
  const TimeJet s = Expression::parse("sqrt(t)").eval(0.0);
  CHECK(s.value == 0.0);
  CHECK(std::isinf(s.d1));
  CHECK(!std::isfinite(s.d2));
  CHECK(std::isinf(Expression::parse("log(t)").value(0.0)));
  CHECK(std::isinf(Expression::parse("1/t").value(0.0)));
  CHECK(std::isnan(Expression::parse("asin(t)").value(2.0)));
  // step and sign have zero derivatives even where the argument's derivative is infinite.
  const TimeJet st = Expression::parse("step(sqrt(t))").eval(0.0);
  CHECK((st.value == 1.0 && st.d1 == 0.0 && st.d2 == 0.0));
  CHECK(Expression::parse("step(t)").value(-1e-300) == 0.0);
  CHECK(Expression::parse("sign(t)").value(0.0) == 0.0);
}

TEST_CASE("Expression precedence and associativity", "[expression]") {
  CHECK(value_of("2+3*4") == 14);
  CHECK(value_of("(2+3)*4") == 20);
  CHECK(value_of("2*3^2") == 18);
  CHECK(value_of("-2^2") == -4);  // ^ binds tighter than unary minus
  CHECK(value_of("(-2)^2") == 4);
  CHECK(value_of("-t^2", 3) == -9);
  CHECK(value_of("2^3^2") == 512);  // right-associative: 2^(3^2)
  CHECK(value_of("(2^3)^2") == 64);
  CHECK(value_of("2^-1") == 0.5);
  CHECK(value_of("2^-t^2", 1) == 0.5);  // 2^(-(t^2))
  CHECK(value_of("8/2/2") == 2);        // left-associative
  CHECK(value_of("2/4*3") == 1.5);
  CHECK(value_of("2-3+4") == 3);
  CHECK(value_of("8-4-2") == 2);
  CHECK(value_of("2*-t", 3) == -6);
  CHECK(value_of("--t", 3) == 3);
  CHECK(value_of("+t", 3) == 3);
  CHECK(value_of("- -2") == 2);
  CHECK(value_of("1+-2") == -1);
  CHECK(value_of("1e-3") == 1e-3);
  CHECK(value_of("2.5E+2") == 250);
  CHECK(value_of(".5") == 0.5);
  CHECK(value_of("5.") == 5);
  CHECK(value_of("pi") == kPi);
  CHECK(value_of("e") == std::numbers::e);
  CHECK(value_of("  sin ( pi / 2 )  ") == 1);
  CHECK(value_of("max(1, min(3, 2))") == 2);
  CHECK(value_of("atan2(1, 1)") == std::atan2(1.0, 1.0));
}

TEST_CASE("Expression errors say what and where", "[expression]") {
  check_error("t + $", "unexpected character '$' at position 4", 4);
  check_error("t + \xcf\x80", "unexpected character '\xcf\x80' at position 4", 4);  // UTF-8 pi
  check_error(".", "unexpected character '.' at position 0", 0);
  check_error("sinn(t)", "unknown function 'sinn' at position 0", 0);
  check_error("2*x", "unknown name 'x' at position 2 (the only variable is t)", 2);
  check_error("sin(2*(t+1)", "missing ')' at position 11", 11);
  check_error("(t+1)*(t+2", "missing ')' at position 10", 10);
  check_error("", "empty expression", 0);
  check_error(" \t ", "empty expression", 0);
  check_error("atan2(t)", "function 'atan2' takes 2 arguments at position 0", 0);
  check_error("1 + sin(t, 1)", "function 'sin' takes 1 argument at position 4", 4);
  check_error("min()", "function 'min' takes 2 arguments at position 0", 0);
  check_error("max(1, 2, 3)", "function 'max' takes 2 arguments at position 0", 0);
  check_error("t +", "unexpected end of expression at position 3", 3);
  check_error("*t", "unexpected '*' at position 0", 0);
  check_error("()", "unexpected ')' at position 1", 1);
  check_error("t)", "unmatched ')' at position 1", 1);
  check_error("t t", "unexpected 't' at position 2 (expected an operator)", 2);
  check_error("t,1", "unexpected ',' at position 1 (expected an operator)", 1);
  check_error("(t 2)", "unexpected '2' at position 3 (expected an operator or ')')", 3);
  check_error("sin t", "expected '(' after function 'sin' at position 4", 4);
  check_error("pi(2)", "unknown function 'pi' at position 0", 0);
  check_error("3*1e", "malformed number '1e' at position 2 (exponent without digits)", 2);
  check_error("2E+", "malformed number '2E+' at position 0 (exponent without digits)", 0);
  check_error("1e999", "number '1e999' is out of range at position 0", 0);
}

TEST_CASE("Expression nesting is bounded instead of overflowing the stack", "[expression]") {
  const int n = 100000;
  check_error(std::string(n, '(') + "t" + std::string(n, ')'),
              "expression nested too deeply at position 200", 200);
  check_error(std::string(n, '-') + "t", "expression nested too deeply at position 200", 200);
  std::string tower = "2";
  for (int i = 0; i < 1000; ++i) tower += "^2";
  CHECK_THROWS_AS(Expression::parse(tower), ExpressionError);
  std::string calls;
  for (int i = 0; i < n / 4; ++i) calls += "sin(";
  CHECK_THROWS_WITH(Expression::parse(calls + "t"), "expression nested too deeply at position 800");
  // 199 parentheses is within the limit of 200.
  CHECK(value_of(std::string(199, '(') + "t" + std::string(199, ')'), 1.5) == 1.5);
  check_error(std::string(200, '(') + "t" + std::string(200, ')'),
              "expression nested too deeply at position 200", 200);

  // Long flat sums are fine up to a tree height of 1000, then rejected at the offending '+'.
  std::string sum = "t";
  for (int i = 1; i < 900; ++i) sum += "+t";
  const TimeJet j = Expression::parse(sum).eval(2.0);
  CHECK((j.value == 1800 && j.d1 == 900 && j.d2 == 0));
  sum = "t";
  for (int i = 1; i < 1500; ++i) sum += "+t";
  check_error(sum, "expression too long or nested too deeply at position 1999", 1999);
}

TEST_CASE("Expression copies evaluate identically", "[expression]") {
  Expression copy;
  CHECK(copy.value(1.0) == 0.0);  // default: the constant 0
  CHECK(!copy.depends_on_time());
  CHECK(copy.text().empty());
  {
    const Expression original = Expression::parse("t - sin(2*pi*t)/(2*pi)");
    const Expression constructed = original;  // NOLINT(performance-unnecessary-copy-initialization)
    copy = constructed;
    for (double t : {-0.3, 0.0, 0.4, 2.2}) {
      const TimeJet a = original.eval(t), b = constructed.eval(t), c = copy.eval(t);
      CHECK((a.value == b.value && a.d1 == b.d1 && a.d2 == b.d2));
      CHECK((a.value == c.value && a.d1 == c.d1 && a.d2 == c.d2));
    }
  }
  // The copy outlives the original.
  CHECK(copy.text() == "t - sin(2*pi*t)/(2*pi)");
  CHECK(copy.eval(0.25).d1 == 1.0 - std::cos(kPi / 2));
}

TEST_CASE("Expression knows whether it depends on time", "[expression]") {
  CHECK(Expression::parse("t").depends_on_time());
  CHECK(Expression::parse("0*t").depends_on_time());  // no algebraic simplification
  CHECK(Expression::parse("step(t)").depends_on_time());
  CHECK(!Expression::parse("2*pi").depends_on_time());
  CHECK(!Expression::parse("sin(1) + e^2 - max(3, 4)").depends_on_time());
  const TimeJet c = Expression::parse("-(1 + 2)^2").eval(5.0);
  CHECK((c.value == -9 && c.d1 == 0 && c.d2 == 0));
}

TEST_CASE("Expression::constant: the value, no time dependence, text that reads back",
          "[expression]") {
  for (double c : {0.0, -1.5, 0.1, 1e-300, -2.718281828459045e12}) {
    const Expression e = Expression::constant(c);
    const TimeJet j = e.eval(0.7);
    CHECK(j.value == c);  // exact: no arithmetic on it
    CHECK(j.d1 == 0.0);
    CHECK(j.d2 == 0.0);
    CHECK_FALSE(e.depends_on_time());
    CHECK(Expression::parse(e.text()).value(3.0) == c);  // the shortest round-trip text
  }
}
