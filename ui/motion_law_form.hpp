#pragma once
// A motion drive's law as a form (the joint's Properties): the law's type, then its fields by
// name with their units, so that nobody has to type JSON; the JSON itself is kept below as the
// advanced option (any law of core/sim/motion_law.hpp, edited by hand). "expression" means no
// law: the drive follows its expression q(t).
#include <QWidget>
#include <nlohmann/json.hpp>
#include <vector>

class QComboBox;
class QFormLayout;
class QLineEdit;

namespace articula {

class MotionLawForm : public QWidget {
  Q_OBJECT

 public:
  explicit MotionLawForm(QWidget* parent = nullptr);
  void setLaw(const nlohmann::json& law);  // null or empty: "expression"
  // The law (null for "expression"): from the fields, or from the JSON when that was edited
  // last. Throws std::invalid_argument naming the field ("Motion law amplitude: 'x' is not a
  // number"); the law's own rules (a missing or negative field) are MotionLaw::from_json's.
  nlohmann::json law() const;
  QString text() const;  // what law() reads, as text: compares a shown law with an edited one
  bool setType(const QString& type);                        // tests: "harmonic", …
  bool setValue(const QString& key, const QString& value);  // tests: "amplitude", "json"

 signals:
  void changed();

 private:
  void showFields(const nlohmann::json& law);  // the chosen type's rows, filled from `law`
  void fieldsEdited();

  QComboBox* type_;
  QFormLayout* rows_;
  std::vector<std::pair<QString, QLineEdit*>> fields_;  // by JSON key, the shown type's
  QComboBox* choice_ = nullptr;  // rise_dwell_return's profile, a spline's end condition
  QLineEdit* json_;
  bool json_edited_ = false;  // the JSON was typed after the fields: it is the law
};

}  // namespace articula
