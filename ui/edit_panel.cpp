#include "ui/edit_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

#include "core/doc/coupling_edits.hpp"
#include "core/doc/sketch_edits.hpp"
#include "core/spec/coupling_rules.hpp"
#include "ui/document.hpp"
#include "ui/drive_preview.hpp"
#include "ui/motion_law_form.hpp"

namespace articula {

namespace {
QString num(double x) {
  return QString::number(x, 'g', 10);
}

QString list(const double* v, int n) {
  QStringList parts;
  for (int i = 0; i < n; ++i) parts << num(v[i]);
  return parts.join(", ");
}

// "a, b, c" -> n numbers; throws with the field's name when it does not parse.
std::vector<double> numbers(const QString& label, const QString& text, int n) {
  std::vector<double> out;
  for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
    bool ok = false;
    out.push_back(part.trimmed().toDouble(&ok));
    if (!ok)
      throw std::invalid_argument(label.toStdString() + ": '" + part.trimmed().toStdString() +
                                  "' is not a number");
  }
  if (n >= 0 && static_cast<int>(out.size()) != n)
    throw std::invalid_argument(label.toStdString() + ": needs " + std::to_string(n) + " numbers");
  return out;
}

// "lower, upper, e": a bound written "none" (or left blank) is absent; e in [0, 1].
LimitSpec limitSpec(const QString& label, const QString& text) {
  const QStringList parts = text.split(',');
  const std::string name = label.toStdString();
  if (parts.size() != 3)
    throw std::invalid_argument(name + ": needs lower, upper, restitution (a bound may be 'none')");
  auto number = [&](const QString& part) -> std::optional<double> {
    const QString t = part.trimmed();
    if (t.isEmpty() || t == "none") return std::nullopt;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok) throw std::invalid_argument(name + ": '" + t.toStdString() + "' is not a number");
    return v;
  };
  LimitSpec l;
  l.lower = number(parts[0]), l.upper = number(parts[1]);
  l.restitution = number(parts[2]).value_or(0.0);
  if (l.lower && l.upper && *l.lower > *l.upper)
    throw std::invalid_argument(name + ": the lower bound is above the upper one");
  if (!(l.restitution >= 0 && l.restitution <= 1))
    throw std::invalid_argument(name + ": restitution must be in [0, 1]");
  return l;
}

QString limitText(const LimitSpec& l) {
  const auto bound = [](const std::optional<double>& b) { return b ? num(*b) : QString("none"); };
  return bound(l.lower) + ", " + bound(l.upper) + ", " + num(l.restitution);
}

Vec3 vec3(const QString& label, const QString& text) {
  const auto v = numbers(label, text, 3);
  return {v[0], v[1], v[2]};
}

Quat quat(const QString& label, const QString& text) {
  const auto v = numbers(label, text, 4);
  const Quat q(v[0], v[1], v[2], v[3]);
  if (q.norm() < 1e-12) throw std::invalid_argument(label.toStdString() + ": quaternion is zero");
  return q.normalized();
}

QStringList jointTypes() {
  QStringList out;
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Helical,
                      JointType::Cylindrical, JointType::Universal, JointType::Spherical,
                      JointType::Planar, JointType::Free, JointType::Fixed}) {
    const std::string_view n = joint_type_name(t);
    out << QString::fromUtf8(n.data(), static_cast<int>(n.size()));
  }
  return out;
}
}  // namespace

EditPanel::EditPanel(Document* document, QWidget* parent) : QWidget(parent), document_(document) {
  setObjectName("EditPanel");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  connect(document_, &Document::documentChanged, this, &EditPanel::rebuild);
  connect(document_, &Document::namesChanged, this, &EditPanel::rebuild);
  connect(document_, &Document::selectionChanged, this, &EditPanel::rebuild);
  rebuild();
}

QString EditPanel::error() const {
  return error_ && !error_->isHidden() ? error_->text() : QString();
}

bool EditPanel::refuse(const QString& why) {
  error_->setText(why);
  error_->setVisible(true);
  // The reason (a line or three) lengthens the form: scroll the dock so that it and Apply stay
  // in sight, once the scroll area has laid out the taller form.
  QMetaObject::invokeMethod(
      this,
      [this, error = QPointer<QWidget>(error_), apply = QPointer<QWidget>(apply_button_)] {
        QWidget* w = parentWidget();
        while (w && !qobject_cast<QScrollArea*>(w)) w = w->parentWidget();
        auto* area = qobject_cast<QScrollArea*>(w);
        if (!area || !error || !apply) return;
        area->ensureWidgetVisible(error, 0, 4);
        area->ensureWidgetVisible(apply, 0, 4);
      },
      Qt::QueuedConnection);
  return false;
}

void EditPanel::clearError() {
  if (error_) error_->setVisible(false);  // the text it was about has changed: stale
}

void EditPanel::rebuild() {
  if (applying_) {
    rebuild_pending_ = true;
    return;
  }
  delete body_;
  fields_.clear();
  preview_ = nullptr;
  body_ = new QWidget(this);
  auto* v = new QVBoxLayout(body_);
  v->setContentsMargins(0, 0, 0, 0);
  form_ = new QFormLayout;
  v->addLayout(form_);
  error_ = new QLabel(body_);
  error_->setStyleSheet("color: #b00000;");
  error_->setWordWrap(true);
  error_->setVisible(false);
  const Selection s = document_->selection();
  const MechanismSpec& spec = document_->spec();
  if (s.contact >= 0 && s.contact < static_cast<int>(spec.contacts.size()))
    buildContact(s.contact);
  else if (s.coupling >= 0 && s.coupling < static_cast<int>(spec.couplings.size()))
    buildCoupling(s.coupling);
  else if (s.joint >= 0 && s.joint < static_cast<int>(spec.joints.size()))
    buildJoint(s.joint);
  else if (s.body >= 0 && s.body < static_cast<int>(spec.bodies.size()))
    buildBody(s.body);
  else
    buildMechanism();
  v->addWidget(error_);
  apply_button_ = new QPushButton(tr("Apply"), body_);
  apply_button_->setToolTip(tr("Apply the changes as one undoable edit (Ctrl+Z undoes it)"));
  connect(apply_button_, &QPushButton::clicked, this, &EditPanel::apply);
  v->addWidget(apply_button_);
  layout()->addWidget(body_);
  layout()->activate();  // the dock's scroll area sizes to the new form right away
  updateGeometry();
}

QLineEdit* EditPanel::addLine(const QString& label, const QString& value, const QString& tip) {
  auto* e = new QLineEdit(value, body_);
  e->setToolTip(tip);
  connect(e, &QLineEdit::returnPressed, this, &EditPanel::apply);
  connect(e, &QLineEdit::textEdited, this, &EditPanel::clearError);
  form_->addRow(label, e);
  fields_.emplace_back(label, e);
  return e;
}

QComboBox* EditPanel::addCombo(const QString& label, const QStringList& items,
                               const QString& current) {
  auto* c = new QComboBox(body_);
  c->addItems(items);
  c->setCurrentText(current);
  connect(c, &QComboBox::activated, this, &EditPanel::clearError);
  form_->addRow(label, c);
  fields_.emplace_back(label, c);
  return c;
}

QWidget* EditPanel::field(const QString& label) const {
  for (const auto& [l, w] : fields_)
    if (l == label) return w;
  return nullptr;
}

bool EditPanel::setField(const QString& label, const QString& value) {
  for (auto& [l, w] : fields_) {
    if (l != label) continue;
    if (auto* e = qobject_cast<QLineEdit*>(w)) return e->setText(value), true;
    if (auto* law = qobject_cast<MotionLawForm*>(w)) return law->setValue("json", value);
  }
  return false;
}

bool EditPanel::setChoice(const QString& label, const QString& value) {
  for (auto& [l, w] : fields_)
    if (l == label)
      if (auto* c = qobject_cast<QComboBox*>(w)) {
        const int i = c->findText(value);
        if (i < 0) return false;
        c->setCurrentIndex(i);
        return true;
      }
  return false;
}

bool EditPanel::apply() {
  error_->setVisible(false);
  // The edit notifies the document's views, this panel included: keep the form and the function
  // alive until it returns, rebuild afterwards.
  const auto fn = apply_;
  applying_ = true;
  bool ok = false;
  try {
    ok = fn && fn();
  } catch (const std::exception& e) {
    ok = refuse(QString::fromStdString(e.what()));
  }
  applying_ = false;
  if (rebuild_pending_) {
    rebuild_pending_ = false;
    QMetaObject::invokeMethod(this, &EditPanel::rebuild, Qt::QueuedConnection);
  }
  return ok;
}

void EditPanel::buildMechanism() {
  const MechanismSpec& spec = document_->spec();
  auto* name = addLine(tr("Name"), QString::fromStdString(spec.name));
  auto* gravity = addLine(tr("Gravity"), list(spec.gravity.data(), 3), tr("m/s², world x, y, z"));
  auto* buttons = new QHBoxLayout;
  auto* add_body = new QPushButton(tr("Add body"), body_);
  add_body->setToolTip(
      tr("A new body (1 kg) to place with numeric frames; join it with Add joint"));
  auto* add_joint = new QPushButton(tr("Add joint"), body_);
  add_joint->setToolTip(
      tr("A new revolute joint from ground to the last body; edit its type and frames"));
  add_joint->setEnabled(!spec.bodies.empty());
  buttons->addWidget(add_body);
  buttons->addWidget(add_joint);
  form_->addRow(buttons);
  connect(add_body, &QPushButton::clicked, this, [this] {
    BodySpec b;
    b.name = unique_name(document_->spec(), "body");
    b.inertia = {0.01, 0.01, 0.01, 0, 0, 0};
    b.pose = PoseSpec{};
    if (document_->push(articula::add_body(document_->editable(), b), EditKind::AddBody))
      document_->setSelection({static_cast<int>(document_->spec().bodies.size()) - 1, -1});
  });
  connect(add_joint, &QPushButton::clicked, this, [this] {
    JointSpec j;
    j.name = unique_name(document_->spec(), "J");
    j.joint = Joint::revolute();
    j.parent = "ground";
    j.child = document_->spec().bodies.back().name;
    if (document_->push(articula::add_joint(document_->editable(), j), EditKind::AddJoint))
      document_->setSelection({-1, static_cast<int>(document_->spec().joints.size()) - 1});
  });
  apply_ = [this, name, gravity] {
    MechanismHeader h = document_->editable().header();
    h.name = name->text().toStdString();
    h.gravity = vec3(tr("Gravity"), gravity->text());
    if (!h.gravity.allFinite()) return refuse(tr("Gravity must be finite"));
    if (h == document_->editable().header()) return true;
    return document_->push(set_header(document_->editable(), h), EditKind::MechanismProperties) ||
           refuse(document_->error());
  };
}

// A coupling: its ratio, or its pitch radii (which then set the ratio of a gear or a belt).
void EditPanel::buildCoupling(int index) {
  const CouplingSpec& c = document_->spec().couplings[index];
  form_->addRow(new QLabel(tr("<b>Coupling</b>"), body_));
  auto* name = addLine(tr("Name"), QString::fromStdString(c.name));
  auto* type = addCombo(tr("Type"), {"gear", "belt", "rack_pinion", "linear"},
                        QString::fromUtf8(coupling_type_name(c.type)));
  QStringList joints;
  for (const JointSpec& j : document_->spec().joints)
    if (j.joint.nv() == 1) joints << QString::fromStdString(j.name);
  auto* a = addCombo(tr("Joint A"), joints, QString::fromStdString(c.joints[0]));
  auto* b = addCombo(tr("Joint B"), joints, QString::fromStdString(c.joints[1]));
  auto* ratio = addLine(tr("Ratio"), num(c.ratio),
                        tr("q̇_B = ratio · q̇_A (m/rad for a rack); a gear pair is < 0, a belt > 0"));
  auto* radii = addLine(tr("Pitch radii"), c.radii ? list(c.radii->data(), 2) : QString(),
                        tr("m, rA, rB: for drawing; a changed radius sets a gear's or belt's "
                           "ratio to ∓rA/rB"));
  const QString shown_radii = radii->text(), shown_ratio = ratio->text();
  apply_ = [this, index, name, type, a, b, ratio, radii, shown_radii, shown_ratio] {
    CouplingSpec after = document_->spec().couplings[index];
    after.name = name->text().trimmed().toStdString();
    after.type = *coupling_type_from_name(type->currentText().toStdString());
    after.joints = {a->currentText().toStdString(), b->currentText().toStdString()};
    bool ok = false;
    after.ratio = ratio->text().toDouble(&ok);
    if (!ok) return refuse(tr("Ratio: '%1' is not a number").arg(ratio->text()));
    after.radii.reset();
    if (!radii->text().trimmed().isEmpty()) {
      const auto r = numbers(tr("Pitch radii"), radii->text(), 2);
      after.radii = std::array<double, 2>{r[0], r[1]};
      if (radii->text() != shown_radii)
        after.ratio = ratio_from_radii(after.type, r[0], r[1]).value_or(after.ratio);
      else if (ratio->text() != shown_ratio)
        after.radii = radii_for_ratio(after.type, after.ratio, *after.radii);
    }
    if (after == document_->spec().couplings[index]) return true;
    if (const std::string why = check_coupling(document_->spec(), index, after); !why.empty())
      return refuse(QString::fromStdString(why));
    return document_->push(set_coupling(document_->editable(), index, after),
                           EditKind::CouplingProperties) ||
           refuse(document_->error());
  };
}

void EditPanel::buildBody(int index) {
  const BodySpec& b = document_->spec().bodies[index];
  form_->addRow(new QLabel(tr("<b>Body</b>"), body_));
  auto* name = addLine(tr("Name"), QString::fromStdString(b.name));
  auto* mass = addLine(tr("Mass"), num(b.mass), tr("kg, > 0"));
  auto* com = addLine(tr("Centre of mass"), list(b.com.data(), 3), tr("m, body frame x, y, z"));
  auto* inertia = addLine(tr("Inertia"), list(b.inertia.data(), 6),
                          tr("kg·m² about the centre of mass: Ixx, Iyy, Izz, Ixy, Ixz, Iyz"));
  const std::string material =
      b.extra.contains("sketch") ? b.extra["sketch"].value("material", "aluminium") : "aluminium";
  auto* stock = addCombo(tr("Material"), {"aluminium", "steel"}, QString::fromStdString(material));
  stock->setToolTip(tr("Density for mass from geometry: aluminium 2700, steel 7850 kg/m³"));
  auto* from_sketch =
      new QCheckBox(tr("Mass from drawn geometry (bar 20×6 mm of the material)"), body_);
  from_sketch->setChecked(mass_from_sketch(b));
  from_sketch->setEnabled(b.extra.contains("sketch") && b.extra["sketch"].contains("points"));
  form_->addRow(from_sketch);
  fields_.emplace_back(tr("Mass from geometry"), from_sketch);
  const QString shown = mass->text() + com->text() + inertia->text();
  const QString shown_mass = mass->text(), shown_com = com->text(), shown_inertia = inertia->text();
  apply_ = [=, this] {
    BodySpec after = document_->spec().bodies[index];
    after.name = name->text().trimmed().toStdString();
    // Fields show 6 digits: only a field the user changed replaces the exact value.
    if (com->text() != shown_com) after.com = vec3(tr("Centre of mass"), com->text());
    if (inertia->text() != shown_inertia) {
      const auto I = numbers(tr("Inertia"), inertia->text(), 6);
      std::copy(I.begin(), I.end(), after.inertia.begin());
    }
    bool ok = true;
    if (mass->text() != shown_mass) after.mass = mass->text().toDouble(&ok);
    if (!ok) return refuse(tr("Mass: '%1' is not a number").arg(mass->text()));
    const bool typed = mass->text() + com->text() + inertia->text() != shown;
    if (typed) from_sketch->setChecked(false);  // typed values win over the geometry
    if (from_sketch->isChecked()) {             // computed from the drawn outline and the material
      after.extra["sketch"]["mass"] = "bars";
      if (stock->currentText() != QString::fromStdString(material) ||
          after.extra["sketch"].contains("material"))  // the default stays implicit
        after.extra["sketch"]["material"] = stock->currentText().toStdString();
      bar_mass_properties(body_points(document_->spec(), index), LinkStock::of(after), after);
    } else if (after.extra.contains("sketch")) {
      after.extra["sketch"].erase("mass");  // typed values from now on
    }
    if (after == document_->spec().bodies[index]) return true;
    if (const std::string why = check_body(document_->spec(), index, after); !why.empty())
      return refuse(QString::fromStdString(why));
    return document_->push(set_body(document_->editable(), index, after),
                           EditKind::BodyProperties) ||
           refuse(document_->error());
  };
}

// The texts the joint form showed (6 digits): only what the user changed replaces the exact
// values, so a rename does not move a joint frame by rounding.
struct EditPanel::JointFrameFields {
  QLineEdit *pp, *pq, *cp, *cq, *q0;
  QString pp0, pq0, cp0, cq0, q00;
  void remember() {
    pp0 = pp->text(), pq0 = pq->text(), cp0 = cp->text(), cq0 = cq->text(), q00 = q0->text();
  }
  void read(JointSpec& j) const {
    if (pp->text() != pp0)
      j.parent_frame.position = vec3(EditPanel::tr("Parent frame position"), pp->text());
    if (pq->text() != pq0)
      j.parent_frame.orientation = quat(EditPanel::tr("Parent frame quaternion"), pq->text());
    if (cp->text() != cp0)
      j.child_frame.position = vec3(EditPanel::tr("Child frame position"), cp->text());
    if (cq->text() != cq0)
      j.child_frame.orientation = quat(EditPanel::tr("Child frame quaternion"), cq->text());
    if (q0->text() == q00) return;
    j.q0.reset();
    if (!q0->text().trimmed().isEmpty()) j.q0 = numbers(EditPanel::tr("q0"), q0->text(), -1);
  }
};

// The drive, spring, end-stop and friction rows: kind, expression or motion law, spring k, rest,
// c, limits lower, upper, e, friction Coulomb, viscous.
struct EditPanel::JointDriveFields {
  QComboBox* kind;
  QLineEdit *expr, *spring, *limits, *friction;
  MotionLawForm* law;
  QString drive0, spring0, limits0, friction0;
  QString driveText() const { return kind->currentText() + '|' + expr->text() + '|' + law->text(); }
  void remember() {
    drive0 = driveText(), spring0 = spring->text();
    limits0 = limits->text(), friction0 = friction->text();
  }
  // End stops and friction; throws with the field's name.
  void readStops(JointSpec& j) const {
    if (limits->text() != limits0) {
      j.limits.reset();
      if (!limits->text().trimmed().isEmpty())
        j.limits = limitSpec(EditPanel::tr("Limits lower, upper, e"), limits->text());
    }
    if (friction->text() == friction0) return;
    j.friction.reset();
    if (friction->text().trimmed().isEmpty()) return;
    const auto v = numbers(EditPanel::tr("Friction Coulomb, viscous"), friction->text(), 2);
    if (v[0] < 0 || v[1] < 0)
      throw std::invalid_argument(
          EditPanel::tr("Friction Coulomb, viscous: must not be negative").toStdString());
    j.friction = JointFrictionSpec{v[0], v[1], nlohmann::json::object()};
  }
  // Throws with the field's name on a motion law that is not JSON.
  void read(JointSpec& j) const {
    readStops(j);
    if (driveText() != drive0) {
      j.drive.reset();
      if (kind->currentIndex() > 0) j.drive = drive();
    }
    if (spring->text() == spring0) return;
    j.spring.reset();
    if (spring->text().trimmed().isEmpty()) return;
    const auto v = numbers(EditPanel::tr("Spring k, rest, c"), spring->text(), 3);
    j.spring = SpringSpec{v[0], v[1], v[2], nlohmann::json::object()};
  }
  DriveSpec drive() const {
    DriveSpec d{kind->currentIndex() == 1 ? DriveSpec::Kind::Motion : DriveSpec::Kind::Force,
                expr->text().trimmed().toStdString(), nullptr, nlohmann::json::object()};
    if (kind->currentIndex() == 1) d.law = law->law();  // null: the expression
    return d;
  }
};

namespace {
QString driveKind(const JointSpec& j) {
  if (!j.drive) return EditPanel::tr("none");
  return j.drive->kind == DriveSpec::Kind::Motion ? EditPanel::tr("motion")
                                                  : EditPanel::tr("force");
}
}  // namespace

void EditPanel::buildJoint(int index) {
  const MechanismSpec& spec = document_->spec();
  const JointSpec& j = spec.joints[index];
  form_->addRow(new QLabel(tr("<b>Joint</b> (moves about / along its frame's z axis)"), body_));
  auto* name = addLine(tr("Name"), QString::fromStdString(j.name));
  const std::string_view tn = joint_type_name(j.joint.type);
  auto* type =
      addCombo(tr("Type"), jointTypes(), QString::fromUtf8(tn.data(), static_cast<int>(tn.size())));
  QStringList bodies{"ground"};
  for (const BodySpec& b : spec.bodies) bodies << QString::fromStdString(b.name);
  auto* parent = addCombo(tr("Parent"), bodies, QString::fromStdString(j.parent));
  auto* child = addCombo(tr("Child"), bodies, QString::fromStdString(j.child));
  JointFrameFields frames = addJointFrames(j);
  JointDriveFields drive = addJointDrive(j);
  apply_ = [=, this] {
    JointSpec after = document_->spec().joints[index];
    after.name = name->text().trimmed().toStdString();
    after.joint.type = *joint_type_from_name(type->currentText().toStdString());
    after.parent = parent->currentText().toStdString();
    after.child = child->currentText().toStdString();
    frames.read(after);
    drive.read(after);
    if (after == document_->spec().joints[index]) return true;
    if (const std::string why = check_joint(document_->spec(), index, after); !why.empty())
      return refuse(QString::fromStdString(why));
    return document_->push(set_joint(document_->editable(), index, after),
                           EditKind::JointProperties) ||
           refuse(document_->error());
  };
}

EditPanel::JointFrameFields EditPanel::addJointFrames(const JointSpec& j) {
  const Quat& qp = j.parent_frame.orientation;
  const Quat& qc = j.child_frame.orientation;
  const double wp[4] = {qp.w(), qp.x(), qp.y(), qp.z()}, wc[4] = {qc.w(), qc.x(), qc.y(), qc.z()};
  JointFrameFields f;
  f.pp = addLine(tr("Parent frame position"), list(j.parent_frame.position.data(), 3),
                 tr("m, in the parent body"));
  f.pq =
      addLine(tr("Parent frame quaternion"), list(wp, 4), tr("w, x, y, z (normalised on apply)"));
  f.cp = addLine(tr("Child frame position"), list(j.child_frame.position.data(), 3),
                 tr("m, in the child body"));
  f.cq = addLine(tr("Child frame quaternion"), list(wc, 4), tr("w, x, y, z"));
  f.q0 = addLine(tr("q0"), j.q0 ? list(j.q0->data(), static_cast<int>(j.q0->size())) : QString(),
                 tr("initial coordinates; empty: from the sketched poses"));
  f.remember();
  return f;
}

EditPanel::JointDriveFields EditPanel::addJointDrive(const JointSpec& j) {
  JointDriveFields f;
  f.kind = addCombo(tr("Drive"), {tr("none"), tr("motion"), tr("force")}, driveKind(j));
  f.expr = addLine(tr("Drive expression"),
                   j.drive ? QString::fromStdString(j.drive->expression) : QString(),
                   tr("of t: q(t) for motion (rad or m), τ(t) for force; e.g. 0.3 + 2*pi*t"));
  f.law = new MotionLawForm(body_);
  f.law->setLaw(j.drive ? j.drive->law : nlohmann::json());
  form_->addRow(tr("Motion law"), f.law);
  fields_.emplace_back(tr("Motion law"), f.law);
  connect(f.law, &MotionLawForm::changed, this, &EditPanel::clearError);
  preview_ = new DrivePreview(body_);
  form_->addRow(preview_);
  const SpringSpec sp = j.spring.value_or(SpringSpec{});
  f.spring = addLine(
      tr("Spring k, rest, c"),
      j.spring ? list(&sp.stiffness, 1) + ", " + num(sp.rest) + ", " + num(sp.damping) : QString(),
      tr("stiffness, rest position, damping; empty: no spring"));
  f.limits = addLine(tr("Limits lower, upper, e"), j.limits ? limitText(*j.limits) : QString(),
                     tr("end stops of a 1-DoF joint (rad or m; 'none' for an open side) and the "
                        "restitution at impact; empty: no stops"));
  f.friction = addLine(
      tr("Friction Coulomb, viscous"),
      j.friction ? num(j.friction->coulomb) + ", " + num(j.friction->viscous) : QString(),
      tr("Coulomb force (N·m or N) with exact stick and slip, viscous coefficient; empty: none"));
  connect(f.expr, &QLineEdit::textChanged, this, &EditPanel::updatePreview);
  connect(f.law, &MotionLawForm::changed, this, &EditPanel::updatePreview);
  connect(f.kind, &QComboBox::currentTextChanged, this, &EditPanel::updatePreview);
  updatePreview();
  f.remember();
  return f;
}

void EditPanel::updatePreview() {
  if (!preview_) return;
  QString kind;
  DriveSpec d;
  for (auto& [l, w] : fields_) {
    if (l == tr("Drive expression"))
      d.expression = qobject_cast<QLineEdit*>(w)->text().toStdString();
    if (l == tr("Drive")) kind = qobject_cast<QComboBox*>(w)->currentText();
    if (auto* law = qobject_cast<MotionLawForm*>(w); law && kind == tr("motion")) {
      try {
        d.law = law->law();
      } catch (const std::exception&) {
        d.law = nlohmann::json::object();  // MotionLaw::from_json names the problem
      }
    }
  }
  preview_->setVisible(kind != tr("none"));
  preview_->setDrive(d);
}

}  // namespace articula
