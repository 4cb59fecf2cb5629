// The GUI under abuse (issue 8): random clicks, drags, wheel turns, keys and menu/toolbar actions
// for 60 s (ARTICULA_MONKEY_SECONDS) with a fixed seed (ARTICULA_MONKEY_SEED) under Xvfb. Modal
// dialogs and popup menus are dismissed by a watchdog timer, which runs inside their nested event
// loops, so the run never hangs. It must end without a crash or a critical Qt message, and the
// document must still save and reload equal. Should the GUI thread stop coming back anyway, a
// stall guard prints the last acts and the GUI thread's stack and fails at once (a CI timeout
// says nothing). Part of test_gui (ARTICULA_GUI_TEST); empty elsewhere.
#ifdef ARTICULA_GUI_TEST
#include <QAction>
#include <QApplication>
#include <QCryptographicHash>
#include <QDialog>
#include <QDir>
#include <QDrag>
#include <QElapsedTimer>
#include <QFile>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPointer>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <random>

#include "core/io/project.hpp"
#include "monkey_stall_guard.hpp"
#include "tests/app/display_units_guard.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/recent_files.hpp"
#include "ui/simulation_controller.hpp"

using namespace articula;

namespace {

const QString kSourceSamples = QStringLiteral(ARTICULA_SOURCE_DIR "/samples");

int g_critical = 0;
QtMessageHandler g_previous = nullptr;

void countCritical(QtMsgType type, const QMessageLogContext& context, const QString& text) {
  if (type == QtCriticalMsg || type == QtFatalMsg) ++g_critical;
  if (g_previous) g_previous(type, context, text);
}

QByteArray folderHash(const QString& path) {
  QCryptographicHash h(QCryptographicHash::Sha256);
  for (const QFileInfo& f : QDir(path).entryInfoList(QDir::Files, QDir::Name)) {
    QFile file(f.absoluteFilePath());
    if (file.open(QIODevice::ReadOnly)) h.addData(f.fileName().toUtf8() + file.readAll());
  }
  return h.result();
}

class Monkey {
 public:
  Monkey(MainWindow& w, unsigned seed, StallGuard& guard) : w_(w), rng_(seed), guard_(guard) {}

  // One random act on whatever is on top: a popup, a modal dialog or the main window.
  void act() {
    const int kind = pick(100);
    if (kind < 30)
      click();
    else if (kind < 45)
      drag();
    else if (kind < 55)
      wheel();
    else if (kind < 75)
      key();
    else
      action();
  }
  const std::map<std::string, int>& counts() const { return counts_; }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  QWidget* top() const {
    if (QWidget* p = QApplication::activePopupWidget()) return p;
    if (QWidget* m = QApplication::activeModalWidget()) return m;
    return &w_;
  }
  // A random point of the top widget and the child under it, in that child's coordinates.
  std::pair<QWidget*, QPoint> target() {
    QWidget* t = top();
    const QPoint p(pick(std::max(1, t->width())), pick(std::max(1, t->height())));
    QWidget* child = t->childAt(p);
    if (!child) child = t;
    return {child, child->mapFrom(t, p)};
  }
  Qt::MouseButton button() {
    const int b = pick(10);
    return b < 7 ? Qt::LeftButton : b < 9 ? Qt::RightButton : Qt::MiddleButton;
  }
  static void mouse(QWidget* w, QEvent::Type type, const QPoint& at, Qt::MouseButton b,
                    Qt::MouseButtons held) {
    QMouseEvent e(type, QPointF(at), QPointF(w->mapToGlobal(at)), b, held, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
  }

  void click() {
    auto [w, p] = target();
    const Qt::MouseButton b = button();
    guard_.record("click " + describe(w, p));
    QPointer<QWidget> guard(w);
    mouse(w, QEvent::MouseButtonPress, p, b, b);
    if (guard) mouse(w, QEvent::MouseButtonRelease, p, b, Qt::NoButton);
    if (guard && pick(8) == 0) mouse(w, QEvent::MouseButtonDblClick, p, b, b);
    ++counts_["click"];
  }
  void drag() {
    auto [w, p] = target();
    const Qt::MouseButton b = button();
    guard_.record("drag " + describe(w, p));
    QPointer<QWidget> guard(w);
    mouse(w, QEvent::MouseButtonPress, p, b, b);
    const QPoint step(pick(41) - 20, pick(41) - 20);
    for (int i = 0; i < 6 && guard; ++i) {
      p += step;
      mouse(w, QEvent::MouseMove, p, Qt::NoButton, b);
    }
    if (guard) mouse(w, QEvent::MouseButtonRelease, p, b, Qt::NoButton);
    ++counts_["drag"];
  }
  void wheel() {
    auto [w, p] = target();
    const int delta = (pick(2) ? 1 : -1) * 120 * (1 + pick(3));
    guard_.record("wheel " + describe(w, p));
    QWheelEvent e(QPointF(p), QPointF(w->mapToGlobal(p)), QPoint(), QPoint(0, delta), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
    ++counts_["wheel"];
  }
  void key() {
    static const int keys[] = {Qt::Key_Space,  Qt::Key_Period, Qt::Key_Home, Qt::Key_F,
                               Qt::Key_2,      Qt::Key_Escape, Qt::Key_Left, Qt::Key_Right,
                               Qt::Key_Up,     Qt::Key_Down,   Qt::Key_Tab,  Qt::Key_Return,
                               Qt::Key_Delete, Qt::Key_PageUp, Qt::Key_End,  Qt::Key_A,
                               Qt::Key_Z,      Qt::Key_Minus,  Qt::Key_Plus, Qt::Key_0};
    const int k = keys[pick(sizeof(keys) / sizeof(keys[0]))];
    const Qt::KeyboardModifiers mods = pick(5) == 0 ? Qt::ControlModifier : Qt::NoModifier;
    QWidget* w = QApplication::focusWidget() ? QApplication::focusWidget() : top();
    const QString text = k >= Qt::Key_Space && k <= Qt::Key_AsciiTilde && mods == Qt::NoModifier
                             ? QString(QChar(k)).toLower()
                             : QString();
    guard_.record("key " + QKeySequence(k | mods).toString().toStdString() + " on " +
                  w->metaObject()->className());
    QPointer<QWidget> guard(w);
    QKeyEvent press(QEvent::KeyPress, k, mods, text);
    QApplication::sendEvent(w, &press);
    if (guard) {
      QKeyEvent release(QEvent::KeyRelease, k, mods, text);
      QApplication::sendEvent(w, &release);
    }
    ++counts_["key"];
  }
  // Any enabled action of the window (menus, submenus, toolbars, docks), except Quit.
  void action() {
    std::vector<QAction*> pool;
    // Menus filled when they open (Samples, Recent, channels) may delete submenus on the way.
    std::vector<QPointer<QMenu>> menus;
    for (QMenu* m : w_.findChildren<QMenu*>()) menus.emplace_back(m);
    for (const QPointer<QMenu>& m : menus)
      if (m) emit m->aboutToShow();
    for (QAction* a : w_.findChildren<QAction*>())
      if (a->isEnabled() && !a->menu() && !a->isSeparator() && !a->text().contains("Quit"))
        pool.push_back(a);
    if (pool.empty()) return;
    QAction* a = pool[pick(static_cast<int>(pool.size()))];
    ++counts_["action"];
    guard_.record("action '" + a->text().toStdString() + "'");
    a->trigger();
  }

  static std::string describe(const QWidget* w, const QPoint& p) {
    return std::string(w->metaObject()->className()) + " '" + w->objectName().toStdString() +
           "' at " + std::to_string(p.x()) + "," + std::to_string(p.y());
  }

  MainWindow& w_;
  std::mt19937 rng_;
  StallGuard& guard_;
  std::map<std::string, int> counts_;
};

// Closes what would wait for a user: modal dialogs and popup menus left open for a while.
class Watchdog {
 public:
  Watchdog() {
    timer_.setInterval(60);
    QObject::connect(&timer_, &QTimer::timeout, [this] { check(); });
    timer_.start();
  }
  void stop() { timer_.stop(); }
  int dismissed() const { return dismissed_; }
  int dragsCancelled() const { return drags_cancelled_; }
  static void closeAll() {
    for (int i = 0; i < 50; ++i) {
      if (QWidget* p = QApplication::activePopupWidget()) {
        p->close();
      } else if (QWidget* m = QApplication::activeModalWidget()) {
        if (auto* d = qobject_cast<QDialog*>(m))
          d->reject();
        else
          m->close();
      } else {
        return;
      }
      QCoreApplication::processEvents();
    }
  }

 private:
  // A synthesized press and move on selected text (line edits, labels) starts a drag-and-drop
  // whose nested event loop waits for a real button release: cancel drags that outlive a moment.
  void cancelDrags() {
    bool dragging = false;
    for (QWidget* t : QApplication::topLevelWidgets())
      if (!t->findChildren<QDrag*>().isEmpty()) dragging = true;
    if (!dragging) {
      drag_since_.invalidate();
      return;
    }
    if (!drag_since_.isValid()) drag_since_.start();
    if (drag_since_.elapsed() < 250) return;
    QDrag::cancel();
    ++drags_cancelled_;
    drag_since_.invalidate();
  }
  void check() {
    cancelDrags();
    QWidget* open = QApplication::activePopupWidget();
    if (!open) open = QApplication::activeModalWidget();
    if (open != seen_) {
      seen_ = open;
      since_.start();
      return;
    }
    if (!open || since_.elapsed() < 250) return;  // give the monkey a few acts inside it
    if (auto* d = qobject_cast<QDialog*>(open); d && open == QApplication::activeModalWidget())
      d->reject();
    else
      open->close();
    ++dismissed_;
    seen_ = nullptr;
  }
  QTimer timer_;
  QPointer<QWidget> seen_;
  QElapsedTimer since_, drag_since_;
  int dismissed_ = 0, drags_cancelled_ = 0;
};

}  // namespace

TEST_CASE("monkey: random input for a minute, then the document saves and reloads",
          "[gui][monkey]") {
  const double seconds = qEnvironmentVariableIsSet("ARTICULA_MONKEY_SECONDS")
                             ? qEnvironmentVariable("ARTICULA_MONKEY_SECONDS").toDouble()
                             : 60.0;
  bool seed_ok = false;
  unsigned seed = qEnvironmentVariableIntValue("ARTICULA_MONKEY_SEED", &seed_ok);
  if (!seed_ok) seed = 20261122u;
  // The shipped samples stay untouched: the Samples menu lists copies, Recent starts empty.
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  const QByteArray shipped = folderHash(kSourceSamples);
  QDir().mkpath(dir.filePath("samples"));
  for (const QFileInfo& f : QDir(kSourceSamples).entryInfoList({"*.json"}, QDir::Files))
    REQUIRE(QFile::copy(f.absoluteFilePath(), dir.filePath("samples/" + f.fileName())));
  qputenv("ARTICULA_SAMPLES_DIR", QFile::encodeName(dir.filePath("samples")));
  qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath("data")));  // autosave files
  RecentFiles().clear();
  // The Preferences dialog may change the display units, a setting later GUI tests read.
  const test::DisplayUnitsGuard units(displayUnits());
  QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
  g_critical = 0;
  g_previous = qInstallMessageHandler(countCritical);

  auto w = std::make_unique<MainWindow>();
  w->setInteractive(true);  // error boxes and prompts appear, as for a user
  w->resize(1280, 800);
  w->show();
  REQUIRE(w->openFile(dir.filePath("samples/fourbar.json")));
  // Neither an act nor a turn of this loop for 30 s is a hang (the GUI thread blocked, or nested
  // event loops that never end once the acts stop), not a slow step (ARTICULA_MONKEY_STALL).
  const double stall_limit = qEnvironmentVariableIsSet("ARTICULA_MONKEY_STALL")
                                 ? qEnvironmentVariable("ARTICULA_MONKEY_STALL").toDouble()
                                 : 30.0;
  StallGuard stall(stall_limit);
  Monkey monkey(*w, seed, stall);
  // Selectable label text (the sketch status) starts an X11 drag-and-drop on a press and move, and
  // its nested event loop waits for a real button release that synthesized events never deliver.
  for (QLabel* label : w->findChildren<QLabel*>())
    if (label->textInteractionFlags() & Qt::TextSelectableByMouse)
      label->setTextInteractionFlags(Qt::NoTextInteraction);
  Watchdog watchdog;
  QElapsedTimer clock;
  clock.start();
  QTimer driver;
  driver.setInterval(4);
  // Acts also run inside dialogs' nested event loops; once the time is up they stop there too, so
  // the watchdog can close what is open and this loop gets control back.
  QObject::connect(&driver, &QTimer::timeout, [&] {
    if (clock.elapsed() >= seconds * 1000) return;
    stall.beat();  // an act proves the GUI thread alive, even inside a nested loop
    monkey.act();
  });
  driver.start();
  while (clock.elapsed() < seconds * 1000) {
    stall.beat();
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(1);
  }
  driver.stop();
  watchdog.stop();
  stall.stop();
  Watchdog::closeAll();
  int total = 0;
  for (const auto& [kind, n] : monkey.counts()) {
    std::printf("monkey: %s %d\n", kind.c_str(), n);
    total += n;
  }
  std::printf(
      "monkey: %d acts in %.0f s (seed %u), %d dialogs/popups dismissed, %d drags cancelled\n",
      total, seconds, seed, watchdog.dismissed(), watchdog.dragsCancelled());
  // It really did something. Xvfb draws the 3D view in software on the GUI thread, so the rate
  // follows the load: 235 to 1040 acts a minute measured at load averages 2 to 8 on 2 cores.
  CHECK(total > 2 * seconds);
  CHECK(g_critical == 0);

  // The document still saves and reloads equal (an empty project included).
  REQUIRE(w->isVisible());
  w->controller()->pause();
  Document* doc = w->document();
  // Links the monkey left floating (not connected to ground) are saved under /sketch/floating.
  const std::string before = to_text(doc->spec());
  const QString out = dir.filePath("after-monkey.json");
  REQUIRE(doc->save(out));
  CHECK_FALSE(doc->isModified());
  CHECK(to_text(load_project(out.toStdString(), LoadOptions{.restore_floating = true}).spec) ==
        before);
  REQUIRE(w->openFile(out));  // opens in the editor whatever state the monkey left it in
  CHECK(to_text(w->document()->spec()) == before);
  w->setUnsavedChangesPrompt([] { return QMessageBox::Discard; });
  w.reset();
  qInstallMessageHandler(g_previous);
  qunsetenv("ARTICULA_SAMPLES_DIR");
  qunsetenv("XDG_DATA_HOME");
  CHECK(folderHash(kSourceSamples) == shipped);
}

#endif  // ARTICULA_GUI_TEST
