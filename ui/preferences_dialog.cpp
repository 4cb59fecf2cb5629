#include "ui/preferences_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/display_units.hpp"

namespace articula {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent), length_(new QComboBox(this)), angle_(new QComboBox(this)) {
  setObjectName("PreferencesDialog");
  setWindowTitle(tr("Preferences"));
  const DisplayUnits units = displayUnits();
  length_->addItem(tr("millimetres (mm)"), static_cast<int>(LengthUnit::Millimetre));
  length_->addItem(tr("metres (m)"), static_cast<int>(LengthUnit::Metre));
  length_->setCurrentIndex(units.length == LengthUnit::Millimetre ? 0 : 1);
  angle_->addItem(tr("degrees (°)"), static_cast<int>(AngleUnit::Degree));
  angle_->addItem(tr("radians (rad)"), static_cast<int>(AngleUnit::Radian));
  angle_->setCurrentIndex(units.angle == AngleUnit::Degree ? 0 : 1);
  auto* form = new QFormLayout;
  form->addRow(tr("Lengths"), length_);
  form->addRow(tr("Angles"), angle_);
  auto* note = new QLabel(tr("For what is shown: the Properties summary, the status bar, the "
                             "plots and the measurements. Files, the editor's fields and the "
                             "command line stay in metres and radians."),
                          this);
  note->setWordWrap(true);
  note->setStyleSheet("color: #555;");
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(buttons);
  setMinimumWidth(380);
}

void PreferencesDialog::accept() {
  setDisplayUnits({static_cast<LengthUnit>(length_->currentData().toInt()),
                   static_cast<AngleUnit>(angle_->currentData().toInt())});
  QDialog::accept();
}

}  // namespace articula
