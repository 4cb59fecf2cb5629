#include "ui/template_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace articula {

namespace {
constexpr double kDeg = std::numbers::pi / 180.0;
const char* kInvalidStyle = "background-color: #ffd6d6;";
}  // namespace

ParamForm::ParamForm(QWidget* parent) : QWidget(parent), layout_(new QFormLayout(this)) {
  layout_->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
}

void ParamForm::addHeading(const QString& text) {
  auto* label = new QLabel("<b>" + text + "</b>", this);
  layout_->addRow(label);
}

QDoubleSpinBox* ParamForm::spin(double value, double min, double max, const QString& suffix,
                                int decimals) {
  auto* box = new QDoubleSpinBox(this);
  box->setRange(min, max);
  box->setDecimals(decimals);
  box->setSuffix(suffix);
  box->setValue(value);
  box->setKeyboardTracking(false);
  box->setMinimumWidth(110);
  connect(box, &QDoubleSpinBox::valueChanged, this, &ParamForm::changed);
  return box;
}

void ParamForm::add(const QString& key, const QString& label, QWidget* field) {
  field->setObjectName(key);
  fields_[key] = field;
  layout_->addRow(label, field);
}

QDoubleSpinBox* ParamForm::addLength(const QString& key, const QString& label, double metres,
                                     double min, double max) {
  QDoubleSpinBox* box = spin(metres, min, max, QStringLiteral(" m"), 4);
  box->setSingleStep(0.01);
  add(key, label, box);
  return box;
}

QDoubleSpinBox* ParamForm::addAngle(const QString& key, const QString& label, double radians,
                                    double min_deg, double max_deg) {
  QDoubleSpinBox* box = spin(radians / kDeg, min_deg, max_deg, QStringLiteral(" °"), 3);
  angle_[key] = true;
  add(key, label, box);
  return box;
}

QDoubleSpinBox* ParamForm::addNumber(const QString& key, const QString& label, double value,
                                     double min, double max, const QString& suffix, int decimals) {
  QDoubleSpinBox* box = spin(value, min, max, suffix, decimals);
  add(key, label, box);
  return box;
}

QSpinBox* ParamForm::addInteger(const QString& key, const QString& label, int value, int min,
                                int max) {
  auto* box = new QSpinBox(this);
  box->setRange(min, max);
  box->setValue(value);
  box->setKeyboardTracking(false);
  connect(box, &QSpinBox::valueChanged, this, &ParamForm::changed);
  add(key, label, box);
  return box;
}

QCheckBox* ParamForm::addCheck(const QString& key, const QString& label, bool checked) {
  auto* box = new QCheckBox(label, this);
  box->setChecked(checked);
  connect(box, &QCheckBox::toggled, this, &ParamForm::changed);
  box->setObjectName(key);
  fields_[key] = box;
  layout_->addRow(QString(), box);
  return box;
}

QComboBox* ParamForm::addChoice(const QString& key, const QString& label,
                                const QStringList& items) {
  auto* box = new QComboBox(this);
  box->addItems(items);
  connect(box, &QComboBox::currentIndexChanged, this, &ParamForm::changed);
  add(key, label, box);
  return box;
}

void ParamForm::addVector(const QString& key, const QString& label, const Vec3& v, bool angles) {
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  const char* axis[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    QDoubleSpinBox* box = angles ? spin(v(i) / kDeg, -90, 90, QStringLiteral(" °"), 3)
                                 : spin(v(i), -10, 10, QStringLiteral(" m"), 4);
    box->setSingleStep(angles ? 1.0 : 0.01);
    box->setObjectName(key + "." + axis[i]);
    h->addWidget(box);
  }
  angle_[key] = angles;
  add(key, label, row);
}

void ParamForm::addMaterial(const QString& key, const QString& label, const Material& m) {
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* combo = new QComboBox(row);
  combo->addItems({tr("Steel"), tr("Aluminium"), tr("Custom")});
  QDoubleSpinBox* density = spin(m.density, 0.0, 1e5, QStringLiteral(" kg/m³"), 1);
  density->setSingleStep(100);
  h->addWidget(combo);
  h->addWidget(density);
  const int preset = m.name == "steel" ? 0 : m.name == "aluminium" ? 1 : 2;
  combo->setCurrentIndex(preset);
  density->setEnabled(preset == 2);
  connect(combo, &QComboBox::currentIndexChanged, this, [this, density](int i) {
    if (i == 0) density->setValue(Material::steel().density);
    if (i == 1) density->setValue(Material::aluminium().density);
    density->setEnabled(i == 2);
    emit changed();
  });
  add(key, label, row);
}

void ParamForm::addSection(const QString& key, const QString& label, const BarSection& s) {
  auto* row = new QWidget(this);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  auto* combo = new QComboBox(row);
  combo->addItems({tr("Round (Ø, inner Ø)"), tr("Rectangular (width, thickness)")});
  const bool round = s.shape == BarSection::Shape::Round;
  combo->setCurrentIndex(round ? 0 : 1);
  QDoubleSpinBox* first = spin(round ? s.diameter : s.width, 0, 1, QStringLiteral(" m"), 4);
  QDoubleSpinBox* second =
      spin(round ? s.inner_diameter : s.thickness, 0, 1, QStringLiteral(" m"), 4);
  first->setSingleStep(0.001);
  second->setSingleStep(0.001);
  connect(combo, &QComboBox::currentIndexChanged, this, &ParamForm::changed);
  h->addWidget(combo);
  h->addWidget(first);
  h->addWidget(second);
  add(key, label, row);
}

namespace {
// The inputs of a field in a fixed order: the field itself, or the boxes of its row.
QList<QWidget*> inputs(QWidget* field) {
  auto input = [](QWidget* w) {
    return qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QCheckBox*>(w) ||
           qobject_cast<QComboBox*>(w);
  };
  QList<QWidget*> out;
  if (input(field)) out.push_back(field);
  for (QWidget* w : field->findChildren<QWidget*>())
    if (input(w)) out.push_back(w);
  return out;
}
}  // namespace

void ParamForm::saveValues(QSettings& settings) const {
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    const QList<QWidget*> in = inputs(it.value());
    for (int i = 0; i < in.size(); ++i) {
      const QString key = it.key() + "/" + QString::number(i);
      if (auto* d = qobject_cast<QDoubleSpinBox*>(in[i])) settings.setValue(key, d->value());
      if (auto* n = qobject_cast<QSpinBox*>(in[i])) settings.setValue(key, n->value());
      if (auto* c = qobject_cast<QCheckBox*>(in[i])) settings.setValue(key, c->isChecked());
      if (auto* c = qobject_cast<QComboBox*>(in[i])) settings.setValue(key, c->currentIndex());
    }
  }
}

// Choices first: a material preset sets its density, which a stored custom density then overrides.
void ParamForm::restoreValues(const QSettings& settings) {
  for (int pass = 0; pass < 2; ++pass)
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
      const QList<QWidget*> in = inputs(it.value());
      for (int i = 0; i < in.size(); ++i) {
        const QVariant v = settings.value(it.key() + "/" + QString::number(i));
        if (!v.isValid()) continue;
        if (auto* c = qobject_cast<QComboBox*>(in[i]); c && pass == 0)
          c->setCurrentIndex(std::clamp(v.toInt(), 0, c->count() - 1));
        if (auto* c = qobject_cast<QCheckBox*>(in[i]); c && pass == 0) c->setChecked(v.toBool());
        if (auto* d = qobject_cast<QDoubleSpinBox*>(in[i]); d && pass == 1)
          d->setValue(v.toDouble());
        if (auto* n = qobject_cast<QSpinBox*>(in[i]); n && pass == 1) n->setValue(v.toInt());
      }
    }
}

QWidget* ParamForm::field(const QString& key) const {
  return fields_.value(key, nullptr);
}

QString ParamForm::label(const QString& key) const {
  QWidget* w = field(key);
  if (!w) return {};
  if (const auto* box = qobject_cast<const QCheckBox*>(w)) return box->text();
  const auto* l = qobject_cast<const QLabel*>(layout_->labelForField(w));
  return l ? l->text() : QString();
}

double ParamForm::value(const QString& key) const {
  const auto* box = qobject_cast<const QDoubleSpinBox*>(field(key));
  if (!box) return 0.0;
  return angle_.value(key) ? box->value() * kDeg : box->value();
}

int ParamForm::integer(const QString& key) const {
  const auto* box = qobject_cast<const QSpinBox*>(field(key));
  return box ? box->value() : 0;
}

bool ParamForm::checked(const QString& key) const {
  const auto* box = qobject_cast<const QCheckBox*>(field(key));
  return box && box->isChecked();
}

int ParamForm::choice(const QString& key) const {
  const auto* box = qobject_cast<const QComboBox*>(field(key));
  return box ? box->currentIndex() : 0;
}

Vec3 ParamForm::vector(const QString& key) const {
  Vec3 v = Vec3::Zero();
  const QWidget* row = field(key);
  if (!row) return v;
  const auto boxes = row->findChildren<QDoubleSpinBox*>();
  for (int i = 0; i < 3 && i < boxes.size(); ++i)
    v(i) = angle_.value(key) ? boxes[i]->value() * kDeg : boxes[i]->value();
  return v;
}

Material ParamForm::material(const QString& key) const {
  const QWidget* row = field(key);
  const auto* combo = row->findChild<QComboBox*>();
  const auto* density = row->findChild<QDoubleSpinBox*>();
  if (combo->currentIndex() == 0) return Material::steel();
  if (combo->currentIndex() == 1) return Material::aluminium();
  return Material::custom(density->value());
}

BarSection ParamForm::section(const QString& key) const {
  const QWidget* row = field(key);
  const auto* combo = row->findChild<QComboBox*>();
  const auto boxes = row->findChildren<QDoubleSpinBox*>();
  if (combo->currentIndex() == 0) return BarSection::round(boxes[0]->value(), boxes[1]->value());
  return BarSection::rectangular(boxes[0]->value(), boxes[1]->value());
}

bool ParamForm::setError(const std::string& parameter, const QString& reason) {
  clearError();
  QWidget* w = field(QString::fromStdString(parameter));
  if (!w) return false;
  error_field_ = w;
  w->setStyleSheet(kInvalidStyle);
  w->setToolTip(reason);
  return true;
}

void ParamForm::clearError() {
  if (!error_field_) return;
  error_field_->setStyleSheet({});
  error_field_->setToolTip({});
  error_field_ = nullptr;
}

// ---------------------------------------------------------------------------------------------

namespace {
enum DhColumn { kA, kAlpha, kD, kTheta, kType, kMass, kQ0, kDhColumns };
}

DhTableEditor::DhTableEditor(QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, kDhColumns, this)) {
  table_->setHorizontalHeaderLabels({tr("a [m]"), tr("α [°]"), tr("d [m]"), tr("θ [°]"),
                                     tr("joint"), tr("mass [kg]"), tr("q0 [° or m]")});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setMinimumHeight(200);
  connect(table_, &QTableWidget::itemChanged, this, [this] { emit changed(); });
  auto* add = new QPushButton(tr("Add joint"), this);
  auto* remove = new QPushButton(tr("Remove joint"), this);
  auto* puma = new QPushButton(tr("Puma 560"), this);
  add->setObjectName("dh_add");
  remove->setObjectName("dh_remove");
  puma->setObjectName("dh_puma");
  connect(add, &QPushButton::clicked, this, [this] {
    appendRow({});
    emit changed();
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    const int r = table_->currentRow() >= 0 ? table_->currentRow() : table_->rowCount() - 1;
    if (r >= 0) table_->removeRow(r);
    emit changed();
  });
  connect(puma, &QPushButton::clicked, this, [this] {
    setRows(DhArmParams::puma560().rows);
    emit changed();
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add);
  buttons->addWidget(remove);
  buttons->addStretch();
  buttons->addWidget(puma);
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  v->addWidget(table_);
  v->addLayout(buttons);
}

void DhTableEditor::appendRow(const DhRow& row) {
  const QSignalBlocker block(table_);
  const int r = table_->rowCount();
  table_->insertRow(r);
  auto cell = [&](int c, double v) {
    table_->setItem(r, c, new QTableWidgetItem(QString::number(v, 'g', 10)));
  };
  cell(kA, row.a);
  cell(kAlpha, row.alpha / kDeg);
  cell(kD, row.d);
  cell(kTheta, row.theta / kDeg);
  cell(kMass, row.mass);
  cell(kQ0, row.prismatic ? row.q0 : row.q0 / kDeg);
  auto* type = new QComboBox(table_);
  type->addItems({tr("R"), tr("P")});
  type->setCurrentIndex(row.prismatic ? 1 : 0);
  connect(type, &QComboBox::currentIndexChanged, this, [this] { emit changed(); });
  table_->setCellWidget(r, kType, type);
}

void DhTableEditor::setRows(const std::vector<DhRow>& rows) {
  table_->setRowCount(0);
  for (const DhRow& r : rows) appendRow(r);
}

int DhTableEditor::rowCount() const {
  return table_->rowCount();
}

std::vector<DhRow> DhTableEditor::rows() const {
  static const char* kField[] = {"a", "alpha", "d", "theta", "prismatic", "mass", "q0"};
  std::vector<DhRow> out;
  for (int r = 0; r < table_->rowCount(); ++r) {
    auto number = [&](int c) {
      const QTableWidgetItem* item = table_->item(r, c);
      bool ok = false;
      const double v = item ? item->text().trimmed().toDouble(&ok) : 0.0;
      if (!ok || !std::isfinite(v))
        throw TemplateError("rows[" + std::to_string(r) + "]." + kField[c], "not a number");
      return v;
    };
    DhRow row;
    const auto* type = qobject_cast<const QComboBox*>(table_->cellWidget(r, kType));
    row.prismatic = type && type->currentIndex() == 1;
    row.a = number(kA);
    row.alpha = number(kAlpha) * kDeg;
    row.d = number(kD);
    row.theta = number(kTheta) * kDeg;
    row.mass = number(kMass);
    row.q0 = row.prismatic ? number(kQ0) : number(kQ0) * kDeg;
    out.push_back(row);
  }
  return out;
}

bool DhTableEditor::setError(const std::string& parameter, const QString& reason) {
  clearError();
  static const QStringList kField = {"a", "alpha", "d", "theta", "prismatic", "mass", "q0"};
  const QString p = QString::fromStdString(parameter);
  if (!p.startsWith("rows[")) return false;
  const int close = p.indexOf(']');
  const int r = p.mid(5, close - 5).toInt();
  const int c = kField.indexOf(p.mid(close + 2));
  if (QTableWidgetItem* item = table_->item(r, c)) {
    const QSignalBlocker block(table_);
    item->setBackground(QColor(255, 214, 214));
    item->setToolTip(reason);
    return true;
  }
  return false;
}

void DhTableEditor::clearError() {
  const QSignalBlocker block(table_);
  for (int r = 0; r < table_->rowCount(); ++r)
    for (int c = 0; c < table_->columnCount(); ++c)
      if (QTableWidgetItem* item = table_->item(r, c)) {
        item->setBackground(QBrush());
        item->setToolTip({});
      }
}

}  // namespace articula
