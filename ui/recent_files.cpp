#include "ui/recent_files.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace articula {

namespace {
const char* kKey = "recentFiles";
}

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {}

QStringList RecentFiles::files() const {
  return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path) {
  QStringList list = files();
  const QString abs = QFileInfo(path).absoluteFilePath();
  list.removeAll(abs);
  list.prepend(abs);
  while (list.size() > kMax) list.removeLast();
  QSettings().setValue(kKey, list);
}

void RecentFiles::clear() {
  QSettings().remove(kKey);
}

void RecentFiles::populate(QMenu* menu) {
  menu->clear();
  int n = 0;
  for (const QString& path : files()) {
    if (!QFileInfo::exists(path)) continue;
    const QString label = QStringLiteral("&%1  %2").arg(++n).arg(QFileInfo(path).fileName());
    QAction* a = menu->addAction(label, this, [this, path] { emit openRequested(path); });
    a->setToolTip(path);
    a->setStatusTip(path);
  }
  if (n == 0) menu->addAction(tr("(none)"))->setEnabled(false);
  menu->addSeparator();
  menu->addAction(tr("Clear list"), this, &RecentFiles::clear)->setEnabled(n > 0);
}

QString samplesDirectory() {
  // An explicit folder first (tests that must not touch the shipped samples point it elsewhere).
  const QString env = qEnvironmentVariable("ARTICULA_SAMPLES_DIR");
  if (!env.isEmpty() && QFileInfo::exists(env + "/fourbar.json")) return env;
  const QDir exe(QCoreApplication::applicationDirPath());
  for (const QString& rel : QStringList{"../samples", "../share/articula/samples", "samples"}) {
    const QString dir = QDir::cleanPath(exe.filePath(rel));
    if (QFileInfo::exists(dir + "/fourbar.json")) return dir;
  }
#ifdef ARTICULA_SAMPLES_DIR
  if (QFileInfo::exists(QStringLiteral(ARTICULA_SAMPLES_DIR "/fourbar.json")))
    return QStringLiteral(ARTICULA_SAMPLES_DIR);
#endif
  return {};
}

}  // namespace articula
