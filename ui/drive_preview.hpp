#pragma once
// A small plot of a drive's q, q̇ and q̈ over a time span (QPainter), refreshed as the law or
// expression is typed; shows the parse error instead when there is one.
#include <QWidget>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

class DrivePreview : public QWidget {
  Q_OBJECT

 public:
  explicit DrivePreview(QWidget* parent = nullptr);
  // Empty error when the drive evaluates; samples are kept for tests.
  void setDrive(const DriveSpec& drive, double duration = 2.0);
  const QString& error() const { return error_; }
  const std::vector<double>& values(int derivative) const { return series_[derivative]; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<double> t_, series_[3];
  QString error_;
};

}  // namespace articula
