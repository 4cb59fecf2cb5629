#include "ui/welcome_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "ui/document.hpp"
#include "ui/sketch_editor.hpp"

namespace articula {

namespace {
constexpr QSize kThumb(220, 150);
}

bool WelcomeDialog::firstStart() {
  QSettings settings;
  if (settings.value("welcome/shown", false).toBool()) return false;
  settings.setValue("welcome/shown", true);
  return true;
}

QPixmap WelcomeDialog::thumbnail(const QString& path, QSize size) {
  const QFileInfo file(path);
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  // The name, size and date of the file: a changed sample is drawn again.
  const QString cached = QStringLiteral("%1/thumbnails/%2-%3x%4-%5.png")
                             .arg(dir, file.completeBaseName())
                             .arg(size.width())
                             .arg(size.height())
                             .arg(file.lastModified().toSecsSinceEpoch());
  QPixmap pixmap;
  if (!dir.isEmpty() && pixmap.load(cached)) return pixmap;
  Document document;
  if (!document.load(path)) return {};
  SketchEditor sketch(&document);
  sketch.resize(size);
  sketch.fitToView();
  pixmap = sketch.grab();
  if (!dir.isEmpty() && QDir().mkpath(QFileInfo(cached).path())) pixmap.save(cached, "PNG");
  return pixmap;
}

WelcomeDialog::WelcomeDialog(const QString& samples_dir, QWidget* parent)
    : QDialog(parent), list_(new QListWidget(this)) {
  setObjectName("WelcomeDialog");
  setWindowTitle(tr("Welcome to Articula"));
  auto* intro = new QLabel(tr("<b>Open a sample to start</b> — each opens as a copy (Save asks "
                              "for a new name). File &gt; New draws your own, File &gt; New from "
                              "Template builds one from a few numbers."),
                           this);
  intro->setWordWrap(true);
  list_->setViewMode(QListView::IconMode);
  list_->setIconSize(kThumb);
  list_->setGridSize(kThumb + QSize(24, 40));
  list_->setResizeMode(QListView::Adjust);
  list_->setMovement(QListView::Static);
  list_->setWordWrap(true);
  const QDir dir(samples_dir);
  for (const QFileInfo& f : dir.entryInfoList({"*.json"}, QDir::Files, QDir::Name)) {
    auto* item = new QListWidgetItem(QIcon(thumbnail(f.absoluteFilePath(), kThumb)),
                                     f.completeBaseName().replace('_', ' '), list_);
    item->setData(Qt::UserRole, f.absoluteFilePath());
    item->setToolTip(f.fileName());
  }
  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit sampleChosen(item->data(Qt::UserRole).toString());
    accept();
  });
  connect(list_, &QListWidget::itemClicked, list_, &QListWidget::itemActivated);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(list_, 1);
  layout->addWidget(buttons);
  resize(4 * (kThumb.width() + 24) + 60, 3 * (kThumb.height() + 40) + 110);
}

}  // namespace articula
