#pragma once
// Parameter forms for the template dialog: labelled fields keyed by the parameter struct's field
// names (so a TemplateError's parameter finds its widget), shown in the user's units (m, deg, kg,
// Hz) and read back in SI. A field can be marked invalid in place with the reason as its tooltip.
#include <QHash>
#include <QSettings>
#include <QWidget>
#include <string>

#include "core/spec/templates.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QTableWidget;

namespace articula {

class ParamForm : public QWidget {
  Q_OBJECT

 public:
  explicit ParamForm(QWidget* parent = nullptr);

  void addHeading(const QString& text);
  QDoubleSpinBox* addLength(const QString& key, const QString& label, double metres,
                            double min = 0.0, double max = 10.0);
  QDoubleSpinBox* addAngle(const QString& key, const QString& label, double radians,
                           double min_deg = -360.0, double max_deg = 360.0);
  QDoubleSpinBox* addNumber(const QString& key, const QString& label, double value, double min,
                            double max, const QString& suffix, int decimals = 4);
  QSpinBox* addInteger(const QString& key, const QString& label, int value, int min, int max);
  QCheckBox* addCheck(const QString& key, const QString& label, bool checked);
  QComboBox* addChoice(const QString& key, const QString& label, const QStringList& items);
  // Three spin boxes in a row (x, y, z), lengths or angles.
  void addVector(const QString& key, const QString& label, const Vec3& value, bool angles = false);
  // A preset combo (steel, aluminium, custom) and the density it implies (editable for custom).
  void addMaterial(const QString& key, const QString& label, const Material& m);
  // Round (diameter, inner diameter) or rectangular (width, thickness) cross-section.
  void addSection(const QString& key, const QString& label, const BarSection& s);

  double value(const QString& key) const;  // SI: metres, radians, as typed otherwise
  int integer(const QString& key) const;
  bool checked(const QString& key) const;
  int choice(const QString& key) const;
  Vec3 vector(const QString& key) const;
  Material material(const QString& key) const;
  BarSection section(const QString& key) const;
  QWidget* field(const QString& key) const;  // the widget that takes a parameter's value
  QString label(const QString& key) const;   // its label as shown ("" if none)

  // Every field's typed values into the settings' current group (key/0, key/1, ... for the inputs
  // of a field's row), and back: the template dialog remembers what was last accepted. Values
  // missing from the settings keep the defaults; out-of-range ones are clamped by their boxes.
  void saveValues(QSettings& settings) const;
  void restoreValues(const QSettings& settings);

  // Marks the field of `parameter` invalid (red, with the reason as tooltip); false if unknown.
  bool setError(const std::string& parameter, const QString& reason);
  void clearError();

 signals:
  void changed();

 private:
  QDoubleSpinBox* spin(double value, double min, double max, const QString& suffix, int decimals);
  void add(const QString& key, const QString& label, QWidget* field);

  QFormLayout* layout_;
  QHash<QString, QWidget*> fields_;
  QHash<QString, bool> angle_;  // fields shown in degrees
  QWidget* error_field_ = nullptr;
};

// The Denavit-Hartenberg table: one row per joint (a, α, d, θ, type, mass, q0), with buttons to
// add and remove rows and to load the Puma 560. Cells that do not parse are reported by name
// ("rows[2].a") through TemplateError.
class DhTableEditor : public QWidget {
  Q_OBJECT

 public:
  explicit DhTableEditor(QWidget* parent = nullptr);
  void setRows(const std::vector<DhRow>& rows);
  std::vector<DhRow> rows() const;  // throws TemplateError for a cell that is not a number
  int rowCount() const;
  QTableWidget* table() const { return table_; }
  bool setError(const std::string& parameter, const QString& reason);
  void clearError();

 signals:
  void changed();

 private:
  void appendRow(const DhRow& row);
  QTableWidget* table_;
};

}  // namespace articula
