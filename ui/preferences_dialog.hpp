#pragma once
// Edit > Preferences: the display units (mm or m, degrees or radians; ui/display_units.hpp).
// OK stores them (QSettings) and every view that shows lengths or angles redraws its text.
#include <QDialog>

class QComboBox;

namespace articula {

class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(QWidget* parent = nullptr);
  QComboBox* lengthBox() const { return length_; }  // tests choose through these
  QComboBox* angleBox() const { return angle_; }
  void accept() override;

 private:
  QComboBox* length_;
  QComboBox* angle_;
};

}  // namespace articula
