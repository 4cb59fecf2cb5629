// Autosave and crash recovery (issue 8): a child session edits, autosaves and is SIGKILLed; the
// next session finds its recovery file and restores the work. Part of test_gui (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cstdio>

#include "core/doc/sketch_edits.hpp"
#include "core/io/project.hpp"
#include "tests/app/gui_support.hpp"
#include "ui/autosave.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"

using namespace articula;
using namespace articula::gui_test;

namespace {

// Renames the mechanism through the document's own undoable edit (as the properties dock does).
bool renameMechanism(Document* doc, const std::string& name) {
  MechanismHeader header = doc->editable().header();
  header.name = name;
  return doc->push(set_header(doc->editable(), header), EditKind::MechanismProperties);
}

}  // namespace

// The session that crashes: opens `file`, edits it, reports each autosave, runs until killed.
int articula::gui_test::autosaveChild(const QString& file) {
  MainWindow w;
  w.setInteractive(false);
  w.show();
  if (!w.openFile(file)) return 2;
  QObject::connect(w.autosave(), &Autosave::autosaved, [](const QString& path) {
    std::printf("autosaved %s\n", qPrintable(path));
    std::fflush(stdout);
  });
  if (!renameMechanism(w.document(), "four-bar, edited before the crash")) return 3;
  return QApplication::exec();
}

TEST_CASE("autosave survives SIGKILL and the next start offers the work back", "[gui][autosave]") {
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  const QString file = dir.filePath("fourbar.json");
  REQUIRE(QFile::copy(sample("fourbar"), file));
  const QByteArray old_data_home = qgetenv("XDG_DATA_HOME");
  qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath("data")));  // both sessions use it
  QProcess child;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("ARTICULA_AUTOSAVE_MS", "300");
  child.setProcessEnvironment(env);
  child.start(QCoreApplication::applicationFilePath(), {"--autosave-child", file});
  REQUIRE(child.waitForStarted(10000));
  QString out;
  REQUIRE(
      waitFor([&] { return (out += child.readAllStandardOutput()).contains("autosaved"); }, 30000));
  child.kill();  // SIGKILL: nothing in the child runs after this
  REQUIRE(child.waitForFinished(10000));
  CHECK(child.exitStatus() == QProcess::CrashExit);

  const std::vector<Autosave::Orphan> orphans = Autosave::orphans();
  REQUIRE(orphans.size() == 1);
  CHECK(orphans[0].original_path == QFileInfo(file).absoluteFilePath());
  Window win;
  REQUIRE(win.w.openFile(sample("pendulum")));  // whatever the new session opened first
  int asked = 0;
  const bool recovered = win.w.autosave()->offerRecovery(&win.w, [&](const Autosave::Orphan& o) {
    ++asked;
    CHECK(o.name == "fourbar.json");
    return Autosave::Choice::Recover;
  });
  CHECK(asked == 1);
  REQUIRE(recovered);
  Document* doc = win.w.document();
  CHECK(doc->spec().name == "four-bar, edited before the crash");
  CHECK(doc->path() == QFileInfo(file).absoluteFilePath());
  CHECK(doc->isModified());
  REQUIRE(doc->mechanism());
  CHECK(doc->spec().joints.size() == load_project(file.toStdString()).spec.joints.size());
  CHECK(win.w.windowTitle().startsWith("fourbar.json"));
  // The crashed session's files are gone; this session protects the work with its own file,
  // which is not an orphan while this session lives, and which saving removes.
  const QString own = win.w.autosave()->recoveryFile();
  REQUIRE_FALSE(own.isEmpty());
  CHECK(QFile::exists(own));
  CHECK(Autosave::orphans().empty());
  CHECK_FALSE(QFile::exists(orphans[0].project));
  REQUIRE(win.w.save());
  CHECK_FALSE(QFile::exists(own));
  CHECK(load_project(file.toStdString()).spec.name == "four-bar, edited before the crash");
  if (old_data_home.isNull())
    qunsetenv("XDG_DATA_HOME");
  else
    qputenv("XDG_DATA_HOME", old_data_home);
}

TEST_CASE("autosave waits for the first change, and a clean close leaves nothing behind",
          "[gui][autosave]") {
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath("data")));
  QString own;
  {
    Window win;
    REQUIRE(win.w.openFile(sample("slider_crank")));
    Autosave* a = win.w.autosave();
    a->setInterval(200);
    settle(400);
    CHECK(a->recoveryFile().isEmpty());  // nothing to protect yet
    int saves = 0;
    QObject::connect(a, &Autosave::autosaved, [&] { ++saves; });
    REQUIRE(renameMechanism(win.w.document(), "edited"));
    REQUIRE(waitFor([&] { return saves >= 1; }, 5000));
    own = a->recoveryFile();
    CHECK(load_project(own.toStdString()).spec.name == "edited");
    settle(500);
    CHECK(saves == 1);                      // no edits since: no rewrite
    win.w.document()->undoStack()->undo();  // back to the saved state: nothing to recover
    CHECK_FALSE(QFile::exists(own));
    win.w.document()->undoStack()->redo();
    REQUIRE(waitFor([&] { return saves >= 2; }, 5000));
    own = a->recoveryFile();
    CHECK(QFile::exists(own));
    win.w.setUnsavedChangesPrompt([] { return QMessageBox::Discard; });
    win.w.close();
  }
  CHECK_FALSE(QFile::exists(own));  // the window is gone: a clean end
  CHECK(Autosave::orphans().empty());
  qunsetenv("XDG_DATA_HOME");
}

#endif  // ARTICULA_GUI_TEST
