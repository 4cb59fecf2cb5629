// The Report dock (issue 17, item 5, in the app) against `articula-cli report`: the slider-crank
// and the crank-rocker sample, run in the dock and by the CLI with the same duration and point;
// every number the panel shows (its table cells, the apparent mass, the plotted curves) equals the
// CLI's JSON. Under Xvfb; built only as its own target (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QTableWidget>
#include <QTest>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>

#include "tests/app/display_units_guard.hpp"
#include "tests/app/gui_wait.hpp"
#include "ui/application.hpp"
#include "ui/display_units.hpp"
#include "ui/main_window.hpp"
#include "ui/report_dock.hpp"

using namespace articula;
using gui_test::waitFor;
using nlohmann::json;

namespace {

// The same floating-point operations on the same inputs, in two processes: equal to rounding.
constexpr double kTol = 1e-9;

bool close(double a, double b) {
  return std::abs(a - b) <= kTol * std::max(1.0, std::abs(b));
}

// `articula-cli report FILE --duration D --point P=BODY@x,y,z`, its JSON.
json cliReport(const QString& file, double duration, const QString& point) {
  const QString out = QDir::temp().filePath("articula_gui_report.json");
  QProcess p;
  p.start(ARTICULA_BINARY_DIR "/app/articula-cli",
          {"report", file, "--duration", QString::number(duration), "--point", point, "--output",
           out, "--quiet"});
  REQUIRE(p.waitForFinished(60000));
  REQUIRE(p.exitCode() == 0);
  std::ifstream in(out.toStdString());
  return json::parse(in);
}

struct Case {
  const char* sample;
  const char* body;
  Vec3 point;  // in the body's frame, m
};

// Every drive's cells (SI under Qt::UserRole) against the CLI's drive entries.
void checkDrives(const ReportDock& dock, const json& cli) {
  const QTableWidget* t = dock.drivesTable();
  REQUIRE(t->rowCount() == static_cast<int>(cli["drives"].size()));
  const char* keys[] = {"peak_force", "rms_force", "peak_power", "positive_work", "negative_work"};
  int r = 0;
  for (const auto& [name, d] : cli["drives"].items()) {
    CHECK(t->item(r, 0)->text().startsWith(QString::fromStdString(name)));
    for (int c = 0; c < 5; ++c) {
      const double shown = t->item(r, c + 1)->data(Qt::UserRole).toDouble();
      INFO(name << "." << keys[c] << ": panel " << shown << ", CLI " << d[keys[c]]);
      CHECK(close(shown, d[keys[c]].get<double>()));
    }
    CHECK(t->item(r, 1)->text().endsWith("N·m"));  // both samples drive a revolute joint
    CHECK(t->item(r, 3)->text().endsWith(" W"));
    ++r;
  }
}

// A chart's curves against the CLI's series (values times `scale`, the display unit's factor).
void checkCurves(QChartView* view, const json& t, const std::vector<const json*>& values,
                 double scale) {
  const QList<QAbstractSeries*> series = view->chart()->series();
  REQUIRE(series.size() == static_cast<int>(values.size()));
  for (std::size_t k = 0; k < values.size(); ++k) {
    const QList<QPointF> pts = static_cast<QLineSeries*>(series[k])->points();
    REQUIRE(pts.size() == static_cast<int>(t.size()));  // under 1500 samples: every one drawn
    for (int i = 0; i < pts.size(); ++i) {
      CHECK(pts[i].x() == t[i].get<double>());
      CHECK(close(pts[i].y(), (*values[k])[i].get<double>() * scale));
    }
  }
}

}  // namespace

TEST_CASE("The Report dock shows the CLI's design report", "[report]") {
  const test::DisplayUnitsGuard units({LengthUnit::Millimetre, AngleUnit::Degree});
  for (const Case& c : {Case{"slider_crank", "crank", Vec3(0.05, 0.01, 0)},
                        Case{"fourbar", "coupler", Vec3(0.1, 0.02, 0)}}) {
    INFO(c.sample);
    MainWindow w;
    w.setInteractive(false);
    w.resize(1400, 900);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    const QString file = QStringLiteral(ARTICULA_SOURCE_DIR "/samples/") + c.sample + ".json";
    REQUIRE(w.openFile(file));
    ReportDock* dock = w.reportDock();
    REQUIRE(dock->isHidden());  // out of the layout until asked for
    dock->setDuration(0.5);
    dock->setPoint(c.body, c.point);  // shown in mm: the dock converts back to m
    dock->runAction()->trigger();     // the menu's action: shows the dock and runs
    CHECK(dock->isVisible());
    REQUIRE(waitFor([&] { return !dock->isRunning(); }, 60000));
    REQUIRE(dock->error().isEmpty());
    const QString point = QStringLiteral("P=%1@%2,%3,%4")
                              .arg(c.body)
                              .arg(c.point.x(), 0, 'g', 17)
                              .arg(c.point.y(), 0, 'g', 17)
                              .arg(c.point.z(), 0, 'g', 17);
    const json cli = cliReport(file, 0.5, point);
    REQUIRE(dock->result()["t"].size() == cli["t"].size());
    checkDrives(*dock, cli);
    const json& mass = cli["points"]["P"]["apparent_mass"];
    for (int i = 0; i < 9; ++i)
      CHECK(close(dock->massTable()->item(i / 3, i % 3)->data(Qt::UserRole).toDouble(),
                  mass[i].get<double>()));
    std::vector<const json*> inertia, angles;
    for (const auto& [name, d] : cli["drives"].items())
      inertia.push_back(&d["reflected_inertia"]["value"]);
    for (const auto& [name, l] : cli["loops"].items())
      angles.push_back(&l["transmission_angle"]["value"]);
    checkCurves(dock->inertiaChart(), cli["t"], inertia, 1.0);
    checkCurves(dock->angleChart(), cli["t"], angles, 180 / std::numbers::pi);  // shown in degrees
    if (std::string(c.sample) == "fourbar") CHECK(angles.size() == 1);  // its loop: a four-bar
    gui_test::settle(200);
    const QByteArray shots = qgetenv("ARTICULA_SHOTS");  // screenshots to read, outside the tree
    if (!shots.isEmpty())
      CHECK(w.grab().save(QString::fromUtf8(shots) + "/report_" + c.sample + ".png"));

    // A point that is not three numbers: named in the message, nothing runs, nothing crashes.
    dock->setPoint(c.body, Vec3::Zero());
    dock->findChild<QLineEdit*>("report_point")->setText("1, two, 3");
    dock->run();
    CHECK_FALSE(dock->isRunning());
    CHECK(dock->error().contains("Report point '1, two, 3': expected three numbers"));
    CHECK(dock->result().is_null());
  }
}

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("ArticulaTest");  // keep the user's settings out of it
  return Catch::Session().run(argc, argv);
}
#endif
