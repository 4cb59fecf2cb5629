#pragma once
// File > New from Template…: a list of parameterised mechanisms (Stewart-Gough platform, RSSR
// four-bar, Bennett linkage, Delta robot, serial arm from a DH table), a parameter form for each,
// and a live check: every change rebuilds the mechanism and prepares it (assembly, mobility), so
// a bad value is refused in place, with the reason, before the dialog can be accepted.
#include <QDialog>
#include <optional>

#include "core/spec/mechanism_spec.hpp"

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace articula {

class DhTableEditor;
class ParamForm;

class TemplateDialog : public QDialog {
  Q_OBJECT

 public:
  enum Template { Stewart, Rssr, Bennett, Delta, DhArm, TemplateCount };

  // Opens with the template and the values last accepted (QSettings "templates/").
  explicit TemplateDialog(QWidget* parent = nullptr);

  void selectTemplate(Template t);
  Template currentTemplate() const;
  ParamForm* form(Template t) const { return forms_[t]; }
  DhTableEditor* dhTable() const { return dh_table_; }

  // The mechanism of the current parameters, when they are valid and it assembles.
  const std::optional<MechanismSpec>& spec() const { return spec_; }
  bool isValid() const { return spec_.has_value(); }
  QString message() const;  // the validation message or the summary shown under the form

 public slots:
  void revalidate();

 private:
  MechanismSpec build() const;  // throws TemplateError / std::exception
  int restoreSettings();        // returns the template to show first
  void saveSettings() const;
  void buildStewartForm();
  void buildRssrForm();
  void buildBennettForm();
  void buildDeltaForm();
  void buildDhForm();
  void updateBennettB();

  QListWidget* list_;
  QStackedWidget* stack_;
  QLabel* description_;
  QLabel* message_;
  QDialogButtonBox* buttons_;
  ParamForm* forms_[TemplateCount] = {};
  DhTableEditor* dh_table_ = nullptr;
  std::optional<MechanismSpec> spec_;
};

}  // namespace articula
