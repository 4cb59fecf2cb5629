#pragma once
// The 3D view's build bar: the tools (Orbit, i.e. none, Link, Joint), the joint kind and axis a
// click places, the build plane's height and a new link's diameter, and a line with what the
// next click does. It edits the Build3DController's settings.
#include <QToolBar>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace articula {

class Build3DController;

class Build3DBar : public QToolBar {
  Q_OBJECT

 public:
  Build3DBar(Build3DController* controller, QWidget* parent = nullptr);
  QLabel* promptLabel() const { return prompt_; }  // placed by the panel under the bar

 private:
  void readSettings();

  Build3DController* controller_;
  QComboBox* joint_;
  QComboBox* axis_;
  QDoubleSpinBox* plane_;
  QDoubleSpinBox* diameter_;
  QLabel* prompt_;
};

}  // namespace articula
