#pragma once
// The recently opened projects, most recent first, kept in QSettings ("recentFiles").
#include <QObject>
#include <QStringList>

class QMenu;

namespace articula {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  explicit RecentFiles(QObject* parent = nullptr);
  QStringList files() const;
  void add(const QString& path);
  void clear();
  // Rebuilds `menu` with one action per existing file; choosing one emits openRequested.
  void populate(QMenu* menu);

 signals:
  void openRequested(const QString& path);

 private:
  static constexpr int kMax = 8;
};

// Where the sample projects are: next to the executable (../samples, ../share/articula/samples,
// samples) or else the source tree's (compile definition ARTICULA_SAMPLES_DIR). Empty if none.
QString samplesDirectory();

}  // namespace articula
