#pragma once
// Editable properties of the selection (top of the Properties dock): a body's name, mass, centre
// of mass and inertia (typed, or following the sketched geometry); a joint's name, type, bodies,
// frames, q0, drive (expression or motion law, with a preview of q, q̇, q̈) and spring; the
// mechanism's name and gravity, with Add body / Add joint for spatial building from numeric frames.
// Apply makes one undo command; invalid values are refused in place with the reason.
#include <QWidget>
#include <functional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace articula {

class Document;
struct JointSpec;
class DrivePreview;

class EditPanel : public QWidget {
  Q_OBJECT

 public:
  explicit EditPanel(Document* document, QWidget* parent = nullptr);

  // Tests: set a field by its label and apply. Returns false when refused; error() says why
  // (empty once a field has been edited since).
  bool setField(const QString& label, const QString& value);
  bool setChoice(const QString& label, const QString& value);
  bool apply();
  QString error() const;
  DrivePreview* preview() const { return preview_; }
  QWidget* field(const QString& label) const;  // tests type into it
  QPushButton* applyButton() const { return apply_button_; }

 private:
  void rebuild();
  void buildMechanism();
  void buildBody(int body);
  void buildJoint(int joint);
  struct JointFrameFields;
  struct JointDriveFields;
  JointFrameFields addJointFrames(const JointSpec& joint);
  JointDriveFields addJointDrive(const JointSpec& joint);
  void buildCoupling(int coupling);
  void buildContact(int contact);  // ui/edit_panel_contact.cpp
  QLineEdit* addLine(const QString& label, const QString& value, const QString& tip = {});
  QComboBox* addCombo(const QString& label, const QStringList& items, const QString& current);
  void updatePreview();
  bool refuse(const QString& why);  // shows why beside Apply (both scrolled into sight)
  void clearError();

  Document* document_;
  QFormLayout* form_ = nullptr;
  QWidget* body_ = nullptr;
  QLabel* error_ = nullptr;
  QPushButton* apply_button_ = nullptr;
  DrivePreview* preview_ = nullptr;
  std::vector<std::pair<QString, QWidget*>> fields_;
  std::function<bool()> apply_;  // builds and pushes the edit of the shown item
  bool applying_ = false, rebuild_pending_ = false;
};

}  // namespace articula
