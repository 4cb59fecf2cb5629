#include "ui/drive_preview.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

#include "core/sim/expression.hpp"
#include "core/sim/motion_law.hpp"

namespace articula {

DrivePreview::DrivePreview(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(110);
  setToolTip(tr(
      "Preview of the drive over 2 s: q (blue), dq/dt (green), d²q/dt² (red), each scaled to fit"));
}

void DrivePreview::setDrive(const DriveSpec& drive, double duration) {
  t_.clear();
  for (auto& s : series_) s.clear();
  error_.clear();
  try {
    std::optional<MotionLaw> law;
    Expression expr;
    if (!drive.law.is_null())
      law = MotionLaw::from_json(drive.law);
    else
      expr = Expression::parse(drive.expression);
    for (int i = 0; i <= 200; ++i) {
      const double t = duration * i / 200.0;
      const TimeJet j = law ? law->eval(t) : expr.eval(t);
      t_.push_back(t);
      series_[0].push_back(j.value), series_[1].push_back(j.d1), series_[2].push_back(j.d2);
    }
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
  }
  update();
}

void DrivePreview::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF r = QRectF(rect()).adjusted(4, 4, -4, -4);
  p.fillRect(r, QColor(252, 252, 252));
  p.setPen(QColor(210, 210, 210));
  p.drawRect(r);
  if (!error_.isEmpty()) {
    p.setPen(QColor(180, 0, 0));
    p.drawText(r.adjusted(6, 6, -6, -6), Qt::TextWordWrap, error_);
    return;
  }
  if (t_.empty()) return;
  const QColor colors[3] = {QColor(30, 90, 200), QColor(30, 150, 60), QColor(200, 50, 40)};
  // Spelled out: a combining dot over q is lost in many fonts, and all three read "q".
  const QString names[3] = {QStringLiteral("q"), QStringLiteral("dq/dt"),
                            QStringLiteral("d²q/dt²")};
  const QFontMetricsF fm(font());
  double label_x = r.left() + 6, label_y = r.top() + 14;
  for (int k = 0; k < 3; ++k) {
    const auto [lo, hi] = std::minmax_element(series_[k].begin(), series_[k].end());
    const double span = std::max(*hi - *lo, 1e-12);
    QPainterPath path;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const double x = r.left() + r.width() * t_[i] / t_.back();
      const double y = r.bottom() - 6 - (r.height() - 12) * (series_[k][i] - *lo) / span;
      i == 0 ? path.moveTo(x, y) : path.lineTo(x, y);
    }
    p.setPen(QPen(colors[k], 1.6));
    p.drawPath(path);
    const QString label =
        QStringLiteral("%1 %2…%3").arg(names[k]).arg(*lo, 0, 'g', 3).arg(*hi, 0, 'g', 3);
    if (label_x > r.left() + 6 && label_x + fm.horizontalAdvance(label) > r.right() - 4)
      label_x = r.left() + 6, label_y += fm.height();  // a narrow dock: the next line
    p.drawText(QPointF(label_x, label_y), label);
    label_x += fm.horizontalAdvance(label) + 14;  // side by side, never over each other
  }
}

}  // namespace articula
