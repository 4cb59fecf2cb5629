#include "ui/template_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/sim/mechanism.hpp"
#include "core/spec/templates.hpp"
#include "ui/template_form.hpp"

namespace articula {

namespace {

const char* kNames[] = {"Stewart-Gough platform", "Spatial RSSR four-bar", "Bennett linkage",
                        "Delta robot", "Serial arm (DH table)"};
const char* kDescriptions[] = {
    "6-UPS parallel platform: a universal joint at the base, a prismatic actuator and a spherical "
    "joint at the top per leg. Six legs give the classic fully actuated platform (6 DOF).",
    "Spatial four-bar with a crank about world z and a rocker about an axis parallel to x. With "
    "two spherical joints the coupler can also spin about its own line (an idle DOF); a universal "
    "joint at the rocker removes it.",
    "Spatial 4R linkage with one degree of freedom: opposite links equal, a/sin α = b/sin β, zero "
    "offsets.",
    "Translational Delta robot (3-RUU): three driven arms, forearms on universal joints; the "
    "platform keeps its orientation (3 DOF).",
    "Open chain from a standard Denavit-Hartenberg table: {i} = {i-1} Rz(θ) Tz(d) Tx(a) Rx(α), "
    "with q added to θ (revolute) or d (prismatic)."};

QWidget* scrolled(QWidget* inner) {
  auto* area = new QScrollArea;
  area->setWidget(inner);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  return area;
}

}  // namespace

TemplateDialog::TemplateDialog(QWidget* parent)
    : QDialog(parent),
      list_(new QListWidget(this)),
      stack_(new QStackedWidget(this)),
      description_(new QLabel(this)),
      message_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
  setWindowTitle(tr("New from Template"));
  for (const char* n : kNames) list_->addItem(tr(n));
  list_->setFixedWidth(200);
  description_->setWordWrap(true);
  message_->setWordWrap(true);
  message_->setObjectName("template_message");
  buildStewartForm();
  buildRssrForm();
  buildBennettForm();
  buildDeltaForm();
  buildDhForm();
  for (ParamForm* f : forms_) connect(f, &ParamForm::changed, this, &TemplateDialog::revalidate);
  connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
    stack_->setCurrentIndex(row);
    description_->setText(tr(kDescriptions[row]));
    revalidate();
  });
  connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
    saveSettings();
    accept();
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* right = new QVBoxLayout;
  right->addWidget(description_);
  right->addWidget(stack_, 1);
  right->addWidget(message_);
  auto* top = new QHBoxLayout;
  top->addWidget(list_);
  top->addLayout(right, 1);
  auto* v = new QVBoxLayout(this);
  v->addLayout(top, 1);
  v->addWidget(buttons_);
  resize(860, 640);
  list_->setCurrentRow(restoreSettings());
}

// The values last accepted, per template (not the DH table's rows), and that template selected.
int TemplateDialog::restoreSettings() {
  QSettings settings;
  settings.beginGroup("templates");
  for (int t = 0; t < TemplateCount; ++t) {
    const QSignalBlocker quiet(forms_[t]);  // one validation when the page is shown, not per value
    settings.beginGroup(QString::number(t));
    forms_[t]->restoreValues(settings);
    settings.endGroup();
  }
  return std::clamp(settings.value("current", static_cast<int>(Stewart)).toInt(), 0,
                    TemplateCount - 1);
}

void TemplateDialog::saveSettings() const {
  QSettings settings;
  settings.beginGroup("templates");
  settings.setValue("current", static_cast<int>(currentTemplate()));
  settings.beginGroup(QString::number(currentTemplate()));
  forms_[currentTemplate()]->saveValues(settings);
}

void TemplateDialog::selectTemplate(Template t) {
  list_->setCurrentRow(t);
}

TemplateDialog::Template TemplateDialog::currentTemplate() const {
  return static_cast<Template>(std::max(0, list_->currentRow()));
}

QString TemplateDialog::message() const {
  return message_->text();
}

void TemplateDialog::buildStewartForm() {
  const StewartParams d;
  auto* f = forms_[Stewart] = new ParamForm;
  f->addHeading(tr("Geometry"));
  f->addLength("base_radius", tr("Base joint radius"), d.base_radius);
  f->addLength("top_radius", tr("Top joint radius"), d.top_radius);
  f->addInteger("legs", tr("Legs"), d.legs, 1, 16);
  f->addLength("height", tr("Height at home"), d.height);
  f->addAngle("base_spacing", tr("Base pair spacing"), d.base_spacing, 0, 180);
  f->addAngle("top_spacing", tr("Top pair spacing"), d.top_spacing, 0, 180);
  f->addVector("offset", tr("Initial offset"), d.offset);
  f->addVector("rotation", tr("Initial roll, pitch, yaw"), d.rotation, true);
  f->addHeading(tr("Parts"));
  f->addLength("base_thickness", tr("Base plate thickness"), d.base_thickness);
  f->addLength("top_thickness", tr("Top plate thickness"), d.top_thickness);
  f->addLength("cylinder_diameter", tr("Cylinder diameter"), d.cylinder_diameter);
  f->addLength("rod_diameter", tr("Rod diameter"), d.rod_diameter);
  f->addMaterial("base_material", tr("Base material"), d.base_material);
  f->addMaterial("top_material", tr("Top material"), d.top_material);
  f->addMaterial("leg_material", tr("Leg material"), d.leg_material);
  f->addHeading(tr("Drives"));
  f->addCheck("drive_legs", tr("Drive the legs: L0 + A sin(2π f t)"), d.drive_legs);
  f->addLength("drive_amplitude", tr("Amplitude A"), d.drive_amplitude);
  f->addNumber("drive_frequency", tr("Frequency f"), d.drive_frequency, 0, 100, " Hz", 3);
  stack_->addWidget(scrolled(f));
}

void TemplateDialog::buildRssrForm() {
  const RssrParams d;
  auto* f = forms_[Rssr] = new ParamForm;
  f->addLength("crank", tr("Crank length"), d.crank);
  f->addLength("rocker", tr("Rocker length"), d.rocker);
  f->addLength("coupler", tr("Coupler length"), d.coupler);
  f->addVector("output_axis", tr("Rocker axis point"), d.output_axis);
  f->addAngle("crank_angle", tr("Initial crank angle"), d.crank_angle);
  f->addChoice("branch", tr("Assembly"), {tr("Branch +1"), tr("Branch −1")});
  f->addChoice("universal_at_rocker", tr("Joint at the rocker"),
               {tr("Spherical (RSSR)"), tr("Universal (RSUR, no coupler spin)")});
  f->addSection("section", tr("Bar section"), d.section);
  f->addMaterial("material", tr("Material"), d.material);
  f->addCheck("drive_crank", tr("Drive the crank at constant speed"), d.drive_crank);
  f->addNumber("crank_speed", tr("Crank speed"), d.crank_speed * 180 / M_PI, -7200, 7200, " °/s",
               2);
  stack_->addWidget(scrolled(f));
}

void TemplateDialog::buildBennettForm() {
  const BennettParams d;
  auto* f = forms_[Bennett] = new ParamForm;
  f->addLength("a", tr("Link a"), d.a);
  f->addAngle("alpha", tr("Twist α of a"), d.alpha, 0, 180);
  f->addAngle("beta", tr("Twist β of b"), d.beta, 0, 180);
  f->addCheck("b_from_condition", tr("b from the Bennett condition a/sin α = b/sin β"), true);
  f->addLength("b", tr("Link b"), d.b)->setDecimals(10);
  f->addAngle("theta1", tr("Initial angle of joint 1"), d.theta1);
  f->addSection("section", tr("Bar section"), d.section);
  f->addMaterial("material", tr("Material"), d.material);
  f->addCheck("drive", tr("Drive joint 1 at constant speed"), d.drive);
  f->addNumber("speed", tr("Speed"), d.speed * 180 / M_PI, -7200, 7200, " °/s", 2);
  connect(f, &ParamForm::changed, this, &TemplateDialog::updateBennettB);
  updateBennettB();
  stack_->addWidget(scrolled(f));
}

void TemplateDialog::updateBennettB() {
  ParamForm* f = forms_[Bennett];
  auto* b = qobject_cast<QDoubleSpinBox*>(f->field("b"));
  const bool derived = f->checked("b_from_condition");
  b->setEnabled(!derived);
  if (!derived) return;
  const double value = f->value("a") * std::sin(f->value("beta")) / std::sin(f->value("alpha"));
  if (std::isfinite(value) && value != b->value()) {
    const QSignalBlocker block(b);
    b->setValue(value);
  }
}

void TemplateDialog::buildDeltaForm() {
  const DeltaParams d;
  auto* f = forms_[Delta] = new ParamForm;
  f->addLength("base_radius", tr("Base radius"), d.base_radius);
  f->addLength("platform_radius", tr("Platform radius"), d.platform_radius);
  f->addLength("upper_arm", tr("Upper arm"), d.upper_arm);
  f->addLength("forearm", tr("Forearm"), d.forearm);
  f->addLength("height", tr("Platform below base"), d.height);
  f->addSection("arm_section", tr("Upper arm section"), d.arm_section);
  f->addSection("forearm_section", tr("Forearm section"), d.forearm_section);
  f->addLength("platform_thickness", tr("Platform thickness"), d.platform_thickness);
  f->addMaterial("material", tr("Material"), d.material);
  f->addCheck("drive_arms", tr("Drive the arms: q0 + A (sin(2π f t + 2π k/3) − sin(2π k/3))"),
              d.drive_arms);
  f->addAngle("drive_amplitude", tr("Amplitude A"), d.drive_amplitude, 0, 90);
  f->addNumber("drive_frequency", tr("Frequency f"), d.drive_frequency, 0, 100, " Hz", 3);
  stack_->addWidget(scrolled(f));
}

void TemplateDialog::buildDhForm() {
  const DhArmParams d = DhArmParams::puma560();
  auto* page = new QWidget;
  auto* v = new QVBoxLayout(page);
  dh_table_ = new DhTableEditor(page);
  dh_table_->setRows(d.rows);
  connect(dh_table_, &DhTableEditor::changed, this, &TemplateDialog::revalidate);
  auto* f = forms_[DhArm] = new ParamForm(page);
  f->addVector("base_position", tr("Base frame {0} at"), d.base_position);
  f->addLength("link_radius", tr("Link radius (for inertia)"), d.link_radius);
  f->addCheck("drive_joints", tr("Drive the joints: q0 + A sin(2π f t)"), d.drive_joints);
  f->addAngle("drive_amplitude", tr("Amplitude A (prismatic: A/4 in m per rad)"), d.drive_amplitude,
              0, 180);
  f->addNumber("drive_frequency", tr("Frequency f"), d.drive_frequency, 0, 100, " Hz", 3);
  v->addWidget(dh_table_, 1);
  v->addWidget(f);
  stack_->addWidget(scrolled(page));
}

namespace {
MechanismSpec stewartFrom(const ParamForm& f) {
  StewartParams p;
  p.base_radius = f.value("base_radius");
  p.top_radius = f.value("top_radius");
  p.legs = f.integer("legs");
  p.height = f.value("height");
  p.base_spacing = f.value("base_spacing");
  p.top_spacing = f.value("top_spacing");
  p.offset = f.vector("offset");
  p.rotation = f.vector("rotation");
  p.base_thickness = f.value("base_thickness");
  p.top_thickness = f.value("top_thickness");
  p.cylinder_diameter = f.value("cylinder_diameter");
  p.rod_diameter = f.value("rod_diameter");
  p.base_material = f.material("base_material");
  p.top_material = f.material("top_material");
  p.leg_material = f.material("leg_material");
  p.drive_legs = f.checked("drive_legs");
  p.drive_amplitude = f.value("drive_amplitude");
  p.drive_frequency = f.value("drive_frequency");
  return make_stewart(p);
}

MechanismSpec rssrFrom(const ParamForm& f) {
  RssrParams p;
  p.crank = f.value("crank");
  p.rocker = f.value("rocker");
  p.coupler = f.value("coupler");
  p.output_axis = f.vector("output_axis");
  p.crank_angle = f.value("crank_angle");
  p.branch = f.choice("branch") == 0 ? 1 : -1;
  p.universal_at_rocker = f.choice("universal_at_rocker") == 1;
  p.section = f.section("section");
  p.material = f.material("material");
  p.drive_crank = f.checked("drive_crank");
  p.crank_speed = f.value("crank_speed") * M_PI / 180;
  return make_rssr(p);
}

MechanismSpec bennettFrom(const ParamForm& f) {
  BennettParams p;
  p.a = f.value("a");
  p.alpha = f.value("alpha");
  p.beta = f.value("beta");
  // The spin box shows 10 decimals; derive b exactly when it follows the condition.
  p.b = f.checked("b_from_condition") ? p.a * std::sin(p.beta) / std::sin(p.alpha) : f.value("b");
  p.theta1 = f.value("theta1");
  p.section = f.section("section");
  p.material = f.material("material");
  p.drive = f.checked("drive");
  p.speed = f.value("speed") * M_PI / 180;
  return make_bennett(p);
}

MechanismSpec deltaFrom(const ParamForm& f) {
  DeltaParams p;
  p.base_radius = f.value("base_radius");
  p.platform_radius = f.value("platform_radius");
  p.upper_arm = f.value("upper_arm");
  p.forearm = f.value("forearm");
  p.height = f.value("height");
  p.arm_section = f.section("arm_section");
  p.forearm_section = f.section("forearm_section");
  p.platform_thickness = f.value("platform_thickness");
  p.material = f.material("material");
  p.drive_arms = f.checked("drive_arms");
  p.drive_amplitude = f.value("drive_amplitude");
  p.drive_frequency = f.value("drive_frequency");
  return make_delta(p);
}

MechanismSpec dhArmFrom(const ParamForm& f, std::vector<DhRow> rows) {
  DhArmParams p;
  p.rows = rows;
  p.base_position = f.vector("base_position");
  p.link_radius = f.value("link_radius");
  p.drive_joints = f.checked("drive_joints");
  p.drive_amplitude = f.value("drive_amplitude");
  p.drive_frequency = f.value("drive_frequency");
  return make_dh_arm(p);
}
}  // namespace

MechanismSpec TemplateDialog::build() const {
  const ParamForm& f = *forms_[currentTemplate()];
  switch (currentTemplate()) {
    case Stewart:
      return stewartFrom(f);
    case Rssr:
      return rssrFrom(f);
    case Bennett:
      return bennettFrom(f);
    case Delta:
      return deltaFrom(f);
    default:
      return dhArmFrom(f, dh_table_->rows());
  }
}

void TemplateDialog::revalidate() {
  ParamForm* f = forms_[currentTemplate()];
  if (!f) return;  // still constructing
  f->clearError();
  dh_table_->clearError();
  spec_.reset();
  QString text;
  try {
    MechanismSpec spec = build();
    const Mechanism m = prepare(spec);  // the same checks as opening a file
    auto count = [](std::size_t n, const QString& one, const QString& many) {
      return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    };
    text = tr("%1, %2, %3; %4, %5 driven; assembled (residual %6).")
               .arg(count(spec.bodies.size(), tr("body"), tr("bodies")),
                    count(spec.joints.size(), tr("joint"), tr("joints")),
                    count(m.compiled.loops.size(), tr("loop"), tr("loops")),
                    count(m.mobility.mobility, tr("degree of freedom"), tr("degrees of freedom")))
               .arg(m.drives.size())
               .arg(m.assembly.residual, 0, 'g', 2);
    spec_ = std::move(spec);
  } catch (const TemplateError& e) {
    if (!f->setError(e.parameter, e.what())) dh_table_->setError(e.parameter, e.what());
    // "Top joint radius — top_radius: must be ...": the label the user sees, and the field name.
    const QString label = f->label(QString::fromStdString(e.parameter));
    text = label.isEmpty() ? QString::fromStdString(e.what())
                           : QStringLiteral("%1 — %2").arg(label, QString::fromStdString(e.what()));
  } catch (const std::exception& e) {
    text = tr("Cannot build this mechanism: %1").arg(e.what());
  }
  message_->setText(text);
  message_->setStyleSheet(spec_ ? QString() : QStringLiteral("color: #b00000;"));
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(spec_.has_value());
}

}  // namespace articula
