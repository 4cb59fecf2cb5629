// The Properties form of a contact (contract-additions-2 §2): its name, the body its sphere is
// on, the sphere's radius, restitution and friction, and a cam's profile; Apply is one undoable
// edit, checked as the file loader checks a contact (the message names the field), and Delete
// removes the contact in one undoable edit.
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include "core/doc/contact_edits.hpp"
#include "ui/document.hpp"
#include "ui/edit_panel.hpp"

namespace articula {

namespace {
// One number typed in `field`; throws "Label: 'x' is not a number".
double typedNumber(const QString& label, const QLineEdit* field) {
  bool ok = false;
  const double v = field->text().trimmed().toDouble(&ok);
  if (!ok)
    throw std::invalid_argument(label.toStdString() + ": '" + field->text().toStdString() +
                                "' is not a number");
  return v;
}
}  // namespace

void EditPanel::buildContact(int index) {
  const MechanismSpec& spec = document_->spec();
  const ContactSpec& c = spec.contacts[index];
  const bool cam = c.surface_type == "cam";
  form_->addRow(new QLabel(
      tr("<b>Contact</b> (%1 on %2)")
          .arg(QString::fromStdString(c.surface_type), QString::fromStdString(c.surface_body)),
      body_));
  auto* name = addLine(tr("Name"), QString::fromStdString(c.name));
  QStringList bodies;
  for (const BodySpec& b : spec.bodies) bodies << QString::fromStdString(b.name);
  auto* body = addCombo(tr("Body"), bodies, QString::fromStdString(c.body));
  body->setToolTip(tr("The body the sphere (or the cam's roller) is fixed on"));
  auto* radius = addLine(tr("Radius"), QString::number(c.radius, 'g', 10),
                         tr("m, ≥ 0: the sphere's (a roller's) radius; 0 is a point"));
  auto* restitution = addLine(tr("Restitution"), QString::number(c.restitution, 'g', 10),
                              tr("0 to 1: 0 a plastic impact, 1 an elastic one"));
  auto* friction = addLine(tr("Friction"), QString::number(c.friction, 'g', 10),
                           tr("Coulomb coefficient μ, ≥ 0 (0: frictionless)"));
  QLineEdit* profile = nullptr;
  if (cam)
    profile = addLine(tr("Profile"),
                      QString::fromStdString(c.profile.is_string() ? c.profile.get<std::string>()
                                                                   : c.profile.dump()),
                      tr("m: the cam's radius ρ(theta), an expression in theta or a JSON array "
                         "of radii at equal angles"));
  apply_ = [this, index, name, body, radius, restitution, friction, profile] {
    ContactSpec after = document_->spec().contacts[index];
    after.name = name->text().trimmed().toStdString();
    after.body = body->currentText().toStdString();
    after.radius = typedNumber(tr("Radius"), radius);
    after.restitution = typedNumber(tr("Restitution"), restitution);
    after.friction = typedNumber(tr("Friction"), friction);
    if (profile) {
      const std::string text = profile->text().trimmed().toStdString();
      after.profile = text.starts_with('[') ? nlohmann::json::parse(text, nullptr, false)
                                            : nlohmann::json(text);
      if (after.profile.is_discarded()) return refuse(tr("Profile: the array does not parse"));
    }
    if (after == document_->spec().contacts[index]) return true;
    if (const std::string why = check_contact(document_->spec(), index, after); !why.empty())
      return refuse(QString::fromStdString(why));
    return document_->push(set_contact(document_->editable(), index, after),
                           EditKind::ContactProperties) ||
           refuse(document_->error());
  };
  auto* remove = new QPushButton(tr("Delete Contact"), body_);
  remove->setToolTip(tr("Remove this contact (Ctrl+Z brings it back)"));
  connect(remove, &QPushButton::clicked, this, [this, index] {
    if (document_->push(remove_contact(document_->editable(), index), EditKind::Delete))
      document_->setSelection({});
  });
  form_->addRow(QString(), remove);
}

}  // namespace articula
