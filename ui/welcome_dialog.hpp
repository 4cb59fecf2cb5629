#pragma once
// The welcome panel: the shipped samples as thumbnails (spatial ones drawn by the 3D view, planar
// ones by the sketch editor, each sample once, then cached as PNG in the user's cache folder by
// file name and date). Clicking
// one asks for it to be opened (as a copy, as File > Samples does). Shown on the first start and
// from Help > Welcome.
#include <QDialog>
#include <QPixmap>

class QListWidget;

namespace articula {

class WelcomeDialog : public QDialog {
  Q_OBJECT

 public:
  explicit WelcomeDialog(const QString& samples_dir, QWidget* parent = nullptr);
  QListWidget* samples() const { return list_; }  // tests click the items

  // True once per user (QSettings welcome/shown): the first start shows the panel.
  static bool firstStart();
  // The sample drawn by the sketch editor at `size`, from the cache when it is as new as the file.
  static QPixmap thumbnail(const QString& path, QSize size);

 signals:
  void sampleChosen(const QString& path);

 private:
  QListWidget* list_;
};

}  // namespace articula
