// File > New from Template… under Xvfb: the dialog lists the five templates, refuses a bad value in
// place (field marked, reason shown, OK disabled), and builds a Stewart-Gough platform that opens
// as a new untitled, modified document with 6 DOF in the diagnostics, assembles and simulates
// (the plots fill). Screenshots of the dialog and the window go to $ARTICULA_SCREENSHOT_DIR (or
// the build directory). Built only as its own target (ARTICULA_GUI_TEMPLATES_TEST).
#ifdef ARTICULA_GUI_TEMPLATES_TEST
#define CATCH_CONFIG_RUNNER
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "core/sim/mechanism.hpp"
#include "tests/app/gui_wait.hpp"
#include "ui/application.hpp"
#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/plot_dock.hpp"
#include "ui/plot_widget.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/template_dialog.hpp"
#include "ui/template_form.hpp"

using namespace articula;
using gui_test::waitFor;

namespace {

QString screenshotPath(const char* name) {
  const QByteArray dir = qgetenv("ARTICULA_SCREENSHOT_DIR");
  return (dir.isEmpty() ? QStringLiteral(ARTICULA_BINARY_DIR) : QString::fromLocal8Bit(dir)) + "/" +
         name;
}

// The value column of the diagnostics row named `name`.
QString diagnosticsValue(DiagnosticsDock* dock, const QString& name) {
  auto* tree = dock->findChild<QTreeWidget*>();
  const auto items = tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
  return items.isEmpty() ? QString() : items.front()->text(1);
}

QPushButton* okButton(TemplateDialog* d) {
  return d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

}  // namespace

TEST_CASE("the template dialog validates in place", "[gui][templates]") {
  TemplateDialog d;
  d.resize(860, 640);
  d.show();
  REQUIRE(waitFor([&] { return d.isVisible(); }, 5000));
  CHECK(d.findChild<QListWidget*>()->count() == TemplateDialog::TemplateCount);
  for (int t = 0; t < TemplateDialog::TemplateCount; ++t) {
    d.selectTemplate(static_cast<TemplateDialog::Template>(t));
    INFO("template " << t << ": " << d.message().toStdString());
    CHECK(d.isValid());  // every default is a working mechanism
    CHECK(okButton(&d)->isEnabled());
    waitFor([] { return false; }, 100);
    d.grab().save(screenshotPath(qPrintable(QStringLiteral("template_dialog_%1.png").arg(t))),
                  "PNG");
  }
  d.selectTemplate(TemplateDialog::Stewart);
  ParamForm* f = d.form(TemplateDialog::Stewart);
  auto* top = qobject_cast<QDoubleSpinBox*>(f->field("top_radius"));
  top->setValue(0.0);
  CHECK_FALSE(d.isValid());
  CHECK_FALSE(okButton(&d)->isEnabled());
  CHECK(d.message() == "Top joint radius — top_radius: must be a positive finite number");
  CHECK_FALSE(top->styleSheet().isEmpty());  // marked in place
  CHECK(top->toolTip().contains("positive"));
  waitFor([] { return false; }, 200);
  d.grab().save(screenshotPath("template_dialog_invalid.png"), "PNG");
  top->setValue(0.2);
  CHECK(d.isValid());
  CHECK(top->styleSheet().isEmpty());

  // Bennett: b follows the condition unless the user takes it over; then a wrong b is refused.
  d.selectTemplate(TemplateDialog::Bennett);
  ParamForm* b = d.form(TemplateDialog::Bennett);
  qobject_cast<QCheckBox*>(b->field("b_from_condition"))->setChecked(false);
  qobject_cast<QDoubleSpinBox*>(b->field("b"))->setValue(0.3);
  CHECK_FALSE(d.isValid());
  CHECK(d.message().contains("Bennett condition"));
  qobject_cast<QCheckBox*>(b->field("b_from_condition"))->setChecked(true);
  CHECK(d.isValid());

  // DH table: a cell that is not a number names its row and column.
  d.selectTemplate(TemplateDialog::DhArm);
  QTableWidget* table = d.dhTable()->table();
  CHECK(table->rowCount() == 6);  // the Puma 560
  table->item(2, 0)->setText("abc");
  CHECK_FALSE(d.isValid());
  CHECK(d.message().startsWith("rows[2].a:"));
  table->item(2, 0)->setText("0.0203");
  CHECK(d.isValid());
  d.findChild<QPushButton*>("dh_add")->click();
  CHECK(table->rowCount() == 7);
  CHECK(d.isValid());
  CHECK(d.message().contains("7 degrees of freedom"));
}

TEST_CASE("File > New from Template builds a Stewart platform that simulates", "[gui][templates]") {
  MainWindow w;
  w.setInteractive(false);
  w.resize(1280, 800);
  w.show();
  REQUIRE(waitFor([&] { return w.isVisible(); }, 5000));
  QAction* action = w.findChild<QAction*>("action_new_from_template");
  REQUIRE(action != nullptr);

  bool handled = false;
  // The dialog is modal: drive it from a timer once it is up.
  std::function<void()> drive = [&] {
    auto* d = qobject_cast<TemplateDialog*>(QApplication::activeModalWidget());
    if (!d) return void(QTimer::singleShot(20, drive));
    d->selectTemplate(TemplateDialog::Stewart);
    ParamForm* f = d->form(TemplateDialog::Stewart);
    qobject_cast<QCheckBox*>(f->field("drive_legs"))->setChecked(true);
    qobject_cast<QDoubleSpinBox*>(f->field("height"))->setValue(0.5);
    waitFor([] { return false; }, 300);  // let it paint
    d->grab().save(screenshotPath("template_dialog_stewart.png"), "PNG");
    CHECK(d->isValid());
    CHECK(d->message().contains("6 degrees of freedom"));
    handled = true;
    okButton(d)->click();
  };
  QTimer::singleShot(0, drive);
  action->trigger();  // returns when the dialog closes
  REQUIRE(handled);

  Document* doc = w.document();
  const Mechanism* m = doc->mechanism().get();
  REQUIRE(m != nullptr);
  CHECK(doc->path().isEmpty());  // untitled
  CHECK(doc->isModified());      // exists nowhere on disk yet
  CHECK(m->spec.bodies.size() == 14);
  CHECK(m->spec.joints.size() == 19);
  CHECK(m->mobility.mobility == 6);
  CHECK(m->assembly.residual <= 1e-12);
  CHECK(diagnosticsValue(w.diagnostics(), QObject::tr("Degrees of freedom")) == "6");

  SimulationController* c = w.controller();
  c->runFor(1.0);
  CHECK(c->current().t == Approx(1.0).margin(1e-9));
  CHECK(c->state() != SimulationController::State::Failed);
  const auto& plots = w.plotDock()->plots();
  REQUIRE(!plots.empty());
  for (PlotWidget* p : plots) {
    CHECK(p->sampleCount() >= 1000);
    REQUIRE(!p->channels().empty());
    const std::vector<double>& v = p->values(0);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    CHECK(*hi - *lo > 1e-6);  // the driven legs move the platform: forces vary
  }
  waitFor([] { return false; }, 400);
  CHECK(w.grab().save(screenshotPath("template_stewart_window.png"), "PNG"));
}

TEST_CASE("the template dialog opens with the values last accepted", "[gui][templates]") {
  {
    TemplateDialog d;
    d.selectTemplate(TemplateDialog::Rssr);
    ParamForm* f = d.form(TemplateDialog::Rssr);
    qobject_cast<QDoubleSpinBox*>(f->field("crank"))->setValue(0.045);
    auto* material = f->field("material")->findChildren<QComboBox*>().front();
    material->setCurrentIndex(1);  // aluminium (the default is steel)
    REQUIRE(d.isValid());
    okButton(&d)->click();
    CHECK(d.result() == QDialog::Accepted);
  }
  {
    TemplateDialog d;  // reopened: the RSSR page with what was accepted
    CHECK(d.currentTemplate() == TemplateDialog::Rssr);
    ParamForm* f = d.form(TemplateDialog::Rssr);
    CHECK(f->value("crank") == Approx(0.045).epsilon(1e-12));
    CHECK(f->material("material").density == Approx(Material::aluminium().density));
    CHECK(d.isValid());
    d.reject();  // cancelled: nothing stored
  }
  TemplateDialog other;
  CHECK(other.currentTemplate() == TemplateDialog::Rssr);
  QSettings().remove("templates");
  TemplateDialog fresh;  // nothing stored: the defaults
  CHECK(fresh.currentTemplate() == TemplateDialog::Stewart);
  CHECK(fresh.form(TemplateDialog::Rssr)->value("crank") == Approx(RssrParams().crank));
}

int main(int argc, char* argv[]) {
  prepareApplication();
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("ArticulaTest");
  QSettings().remove("templates");  // each run starts from the defaults
  return Catch::Session().run(argc, argv);
}
#endif  // ARTICULA_GUI_TEMPLATES_TEST
