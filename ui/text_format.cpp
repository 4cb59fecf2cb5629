#include "ui/text_format.hpp"

#include <QCoreApplication>
#include <array>
#include <cmath>

namespace articula {

namespace {
struct Prefix {
  int exponent;
  const char* text;
};
constexpr std::array<Prefix, 9> kPrefixes{{{-15, "f"},
                                           {-12, "p"},
                                           {-9, "n"},
                                           {-6, "µ"},
                                           {-3, "m"},
                                           {0, ""},
                                           {3, "k"},
                                           {6, "M"},
                                           {9, "G"}}};

// The power of 1000 (as a multiple of 3) that puts |x| in [1, 1000).
int exponent3(double x) {
  return 3 * static_cast<int>(std::floor(std::log10(std::abs(x)) / 3.0));
}

const Prefix* prefixFor(int exponent) {
  for (const Prefix& p : kPrefixes)
    if (p.exponent == exponent) return &p;
  return nullptr;
}
}  // namespace

QString cappedList(const QStringList& names, int shown) {
  if (names.size() <= shown + 1) return names.join(", ");  // "and 1 more" saves nothing
  return QCoreApplication::translate("articula", "%1, … and %2 more")
      .arg(names.mid(0, shown).join(", "))
      .arg(names.size() - shown);
}

QString cappedList(const std::vector<std::string>& names, int shown) {
  QStringList list;
  for (const std::string& n : names) list << QString::fromStdString(n);
  return cappedList(list, shown);
}

QString engineering(double value, const QString& unit, int digits) {
  // Without a unit a prefix would read as one ("340 m"): plain significant digits then.
  if (unit.isEmpty() || !std::isfinite(value)) return QString::number(value, 'g', digits);
  if (value == 0.0) return QStringLiteral("0 ") + unit;
  int e = exponent3(value);
  double mantissa = value / std::pow(10.0, e);
  // Rounding to `digits` may reach 1000 (999.7 -> "1e+03"): the next prefix then.
  if (std::abs(QString::number(mantissa, 'g', digits).toDouble()) >= 1000.0)
    e += 3, mantissa /= 1000.0;
  const Prefix* p = prefixFor(e);
  if (!p) return QString::number(value, 'g', digits) + " " + unit;
  return QString::number(mantissa, 'g', digits) + " " + QString::fromUtf8(p->text) + unit;
}

SiScale siScale(double magnitude) {
  if (!std::isfinite(magnitude) || magnitude == 0.0) return {};
  // Ticks up to 999.9 read well: prefer the prefix that keeps the largest tick below 1000.
  const int e = exponent3(magnitude);
  const Prefix* p = prefixFor(e);
  if (!p) return {};
  return {std::pow(10.0, e), QString::fromUtf8(p->text)};
}

}  // namespace articula
