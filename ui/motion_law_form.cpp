#include "ui/motion_law_form.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <stdexcept>

namespace articula {

namespace {

struct Field {
  const char* key;
  const char* label;  // with its unit
};
struct LawType {
  const char* type;  // the JSON "type"; empty: the expression
  const char* name;
  std::vector<Field> fields;
  const char* choice_key = nullptr;  // a combo box of fixed words
  QStringList choices = {};
};

const std::vector<LawType>& lawTypes() {
  static const std::vector<LawType> types{
      {"", "expression q(t)", {}},
      {"constant_velocity",
       "constant velocity",
       {{"start", "start (rad or m)"}, {"velocity", "velocity (rad/s or m/s)"}}},
      {"harmonic",
       "harmonic",
       {{"offset", "offset (rad or m)"},
        {"amplitude", "amplitude (rad or m)"},
        {"frequency", "frequency (Hz)"},
        {"phase", "phase (rad)"}}},
      {"rise_dwell_return",
       "rise, dwell, return",
       {{"low", "low (rad or m)"},
        {"high", "high (rad or m)"},
        {"rise", "rise (s)"},
        {"dwell", "dwell (s)"},
        {"return", "return (s)"},
        {"dwell_low", "dwell low (s)"}},
       "profile",
       {"cycloidal", "polynomial_345", "harmonic"}},
      {"spline",
       "spline through points",
       {{"points", "points t, q; t, q; …"}},
       "end",
       {"natural", "clamped", "periodic"}},
  };
  return types;
}

QString num(double x) {
  return QString::number(x, 'g', 10);
}

// "0, 0; 0.5, 1" <-> [[0, 0], [0.5, 1]]
QString pointsText(const nlohmann::json& points) {
  QStringList rows;
  if (points.is_array())
    for (const auto& p : points)
      if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
        rows << num(p[0].get<double>()) + ", " + num(p[1].get<double>());
  return rows.join("; ");
}

double number(const QString& label, const QString& text) {
  bool ok = false;
  const double v = text.trimmed().toDouble(&ok);
  if (!ok)
    throw std::invalid_argument(QObject::tr("Motion law %1: '%2' is not a number")
                                    .arg(label, text.trimmed())
                                    .toStdString());
  return v;
}

nlohmann::json points(const QString& text) {
  nlohmann::json out = nlohmann::json::array();
  for (const QString& row : text.split(';', Qt::SkipEmptyParts)) {
    const QStringList tq = row.split(',');
    if (tq.size() != 2)
      throw std::invalid_argument(
          QObject::tr("Motion law points: '%1' is not 't, q'").arg(row.trimmed()).toStdString());
    out.push_back({number("points", tq[0]), number("points", tq[1])});
  }
  return out;
}

}  // namespace

MotionLawForm::MotionLawForm(QWidget* parent)
    : QWidget(parent),
      type_(new QComboBox(this)),
      rows_(new QFormLayout),
      json_(new QLineEdit(this)) {
  for (const LawType& t : lawTypes()) type_->addItem(tr(t.name), QString::fromUtf8(t.type));
  json_->setToolTip(
      tr("Advanced: the law as JSON (any law of the project format), e.g. "
         "{\"type\":\"harmonic\",\"amplitude\":0.5,\"frequency\":1}"));
  json_->setPlaceholderText(tr("JSON (advanced)"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(type_);
  rows_->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(rows_);
  layout->addWidget(json_);
  connect(type_, &QComboBox::activated, this, [this] {
    showFields(nlohmann::json::object());
    fieldsEdited();
  });
  connect(json_, &QLineEdit::textEdited, this, [this] {
    json_edited_ = true;
    emit changed();
  });
  setLaw(nullptr);
}

void MotionLawForm::setLaw(const nlohmann::json& law) {
  const bool none = !law.is_object() || law.empty();
  const std::string type = none ? "" : law.value("type", std::string("?"));
  int index = type_->findData(QString::fromStdString(type));
  json_edited_ = index < 0;  // a type this form does not know: the JSON is the law
  type_->setCurrentIndex(std::max(index, 0));
  showFields(none ? nlohmann::json::object() : law);
  json_->setText(none ? QString() : QString::fromStdString(law.dump()));
}

void MotionLawForm::showFields(const nlohmann::json& law) {
  while (rows_->rowCount() > 0) rows_->removeRow(0);
  fields_.clear();
  choice_ = nullptr;
  const LawType& t = lawTypes()[std::max(type_->currentIndex(), 0)];
  for (const Field& f : t.fields) {
    auto* line = new QLineEdit(this);
    const auto it = law.find(f.key);
    if (it != law.end() && it->is_number()) line->setText(num(it->get<double>()));
    if (it != law.end() && std::string(f.key) == "points") line->setText(pointsText(*it));
    connect(line, &QLineEdit::textEdited, this, &MotionLawForm::fieldsEdited);
    rows_->addRow(tr(f.label), line);
    fields_.emplace_back(QString::fromUtf8(f.key), line);
  }
  if (t.choice_key) {
    choice_ = new QComboBox(this);
    choice_->addItems(t.choices);
    const auto it = law.find(t.choice_key);
    if (it != law.end() && it->is_string()) choice_->setCurrentText(QString::fromStdString(*it));
    connect(choice_, &QComboBox::activated, this, &MotionLawForm::fieldsEdited);
    rows_->addRow(tr(t.choice_key), choice_);
  }
}

void MotionLawForm::fieldsEdited() {
  json_edited_ = false;
  try {  // the JSON line follows the fields while they read
    const nlohmann::json j = law();
    json_->setText(j.is_null() ? QString() : QString::fromStdString(j.dump()));
  } catch (const std::invalid_argument&) {
  }
  emit changed();
}

nlohmann::json MotionLawForm::law() const {
  if (json_edited_) {
    if (json_->text().trimmed().isEmpty()) return nullptr;
    try {
      return nlohmann::json::parse(json_->text().toStdString());
    } catch (const std::exception& e) {
      throw std::invalid_argument(tr("Motion law: not JSON (%1)").arg(e.what()).toStdString());
    }
  }
  const LawType& t = lawTypes()[std::max(type_->currentIndex(), 0)];
  if (!*t.type) return nullptr;
  nlohmann::json j{{"type", t.type}};
  for (const auto& [key, line] : fields_) {
    if (line->text().trimmed().isEmpty()) continue;  // optional, or from_json says it is missing
    j[key.toStdString()] =
        key == "points" ? points(line->text()) : nlohmann::json(number(key, line->text()));
  }
  if (choice_) j[t.choice_key] = choice_->currentText().toStdString();
  return j;
}

QString MotionLawForm::text() const {
  try {
    const nlohmann::json j = law();
    return j.is_null() ? QString() : QString::fromStdString(j.dump());
  } catch (const std::invalid_argument&) {
    return json_->text() + "|" + QString::number(type_->currentIndex());  // edited, unreadable
  }
}

bool MotionLawForm::setType(const QString& type) {
  const int i = type_->findData(type);
  if (i < 0) return false;
  type_->setCurrentIndex(i);
  showFields(nlohmann::json::object());
  fieldsEdited();
  return true;
}

bool MotionLawForm::setValue(const QString& key, const QString& value) {
  if (key == "json") {
    json_->setText(value);
    json_edited_ = true;
    emit changed();
    return true;
  }
  for (auto& [k, line] : fields_)
    if (k == key) {
      line->setText(value);
      fieldsEdited();
      return true;
    }
  if (choice_ && lawTypes()[type_->currentIndex()].choice_key == key.toStdString())
    return choice_->setCurrentText(value), fieldsEdited(), true;
  return false;
}

}  // namespace articula
