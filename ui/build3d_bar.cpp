#include "ui/build3d_bar.hpp"

#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>

#include "ui/build3d_controller.hpp"

namespace articula {

namespace {
QDoubleSpinBox* spin(QWidget* parent, const char* name, double lo, double hi, double value,
                     int decimals, const QString& suffix, const QString& tip) {
  auto* s = new QDoubleSpinBox(parent);
  s->setObjectName(name);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setToolTip(tip);
  return s;
}
}  // namespace

Build3DBar::Build3DBar(Build3DController* controller, QWidget* parent)
    : QToolBar(tr("Build in 3D"), parent), controller_(controller) {
  setObjectName("build3d.bar");
  auto* group = new QActionGroup(this);
  using Tool = Build3DController::Tool;
  for (auto [tool, name, tip] :
       {std::tuple{Tool::None, tr("Orbit"), tr("Drag to orbit, click to select")},
        std::tuple{Tool::Link, tr("Link"), tr("Add a link between two clicked points")},
        std::tuple{Tool::Plate, tr("Plate"),
                   tr("Add a plate through clicked corners; click the first again to finish")},
        std::tuple{Tool::Joint, tr("Joint"), tr("Join two bodies at a clicked point")}}) {
    QAction* a = addAction(name);
    constexpr const char* kNames[] = {"build3d.orbit", "build3d.link", "build3d.joint",
                                      "build3d.plate"};
    a->setObjectName(kNames[static_cast<int>(tool)]);
    a->setToolTip(tip);
    a->setCheckable(true);
    a->setChecked(tool == Tool::None);
    group->addAction(a);
    connect(a, &QAction::triggered, this, [this, tool = tool] { controller_->setTool(tool); });
  }
  addSeparator();
  joint_ = new QComboBox(this);
  joint_->setObjectName("build3d.jointType");
  joint_->addItems({tr("Revolute"), tr("Spherical"), tr("Universal"), tr("Prismatic")});
  joint_->setToolTip(tr("The joint a click places (the Link tool's ends too)"));
  addWidget(joint_);
  axis_ = new QComboBox(this);
  axis_->setObjectName("build3d.axis");
  axis_->addItems(
      {tr("Face normal"), tr("Axis x"), tr("Axis y"), tr("Axis z"), tr("Along the link")});
  axis_->setCurrentIndex(3);
  axis_->setToolTip(tr("The joint's axis: the clicked face's normal or a world axis"));
  addWidget(axis_);
  plane_ = spin(this, "build3d.planeZ", -100, 100, 0, 4, tr(" m"),
                tr("Height z of the plane where clicks in empty space land"));
  addWidget(new QLabel(tr(" plane z "), this));
  addWidget(plane_);
  diameter_ = spin(this, "build3d.diameter", 0.1, 1000, 10, 1, tr(" mm"),
                   tr("Diameter of a new link (its mass follows: aluminium)"));
  addWidget(new QLabel(tr(" Ø "), this));
  addWidget(diameter_);
  prompt_ = new QLabel(parent);
  prompt_->setObjectName("build3d.prompt");
  prompt_->setWordWrap(true);
  prompt_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  prompt_->setContentsMargins(6, 0, 6, 2);
  prompt_->hide();
  connect(controller_, &Build3DController::promptChanged, prompt_, [this](const QString& text) {
    prompt_->setText(text);
    prompt_->setVisible(!text.isEmpty());
  });
  for (QComboBox* c : {joint_, axis_})
    connect(c, &QComboBox::currentIndexChanged, this, &Build3DBar::readSettings);
  for (QDoubleSpinBox* s : {plane_, diameter_})
    connect(s, &QDoubleSpinBox::valueChanged, this, &Build3DBar::readSettings);
}

void Build3DBar::readSettings() {
  constexpr JointType kJoints[] = {JointType::Revolute, JointType::Spherical, JointType::Universal,
                                   JointType::Prismatic};
  BuildSettings& s = controller_->settings();
  s.joint = kJoints[std::max(0, joint_->currentIndex())];
  s.axis = static_cast<BuildSettings::Axis>(std::max(0, axis_->currentIndex()));
  s.plane_z = plane_->value();
  s.diameter = diameter_->value() * 1e-3;
  controller_->settingsChanged();
}

}  // namespace articula
