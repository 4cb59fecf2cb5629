#include "ui/welcome_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "core/sim/mechanism.hpp"
#include "ui/document.hpp"
#include "ui/sketch_editor.hpp"

#ifdef ARTICULA_HAVE_RENDER
#include "render/mechanism_scene.hpp"
#include "ui/viewport_widget.hpp"
#endif

namespace articula {

namespace {
constexpr QSize kThumb(220, 150);

// A spatial mechanism as the 3D view shows it on open (its top projection in the sketch says
// little: the Stewart platform is a tangle of sliders there). Empty without the renderer.
QPixmap view3D(const Mechanism& mech, QSize size) {
#ifdef ARTICULA_HAVE_RENDER
  MechanismScene scene(mech);
  ViewportWidget view;
  view.setAttribute(Qt::WA_DontShowOnScreen);  // drawn off screen, never flashed at the user
  view.resize(size);
  view.setWorldUp(scene.up());
  view.setScene(scene.root());
  view.show();
  view.fitToView();
  const QImage image = view.grabFramebuffer();
  view.setScene(nullptr);
  return QPixmap::fromImage(image);
#else
  (void)mech, (void)size;
  return {};
#endif
}
}  // namespace

bool WelcomeDialog::firstStart() {
  QSettings settings;
  if (settings.value("welcome/shown", false).toBool()) return false;
  settings.setValue("welcome/shown", true);
  return true;
}

QPixmap WelcomeDialog::thumbnail(const QString& path, QSize size) {
  const QFileInfo file(path);
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  // The name, size and date of the file: a changed sample is drawn again (v2: spatial ones in 3D).
  const QString cached = QStringLiteral("%1/thumbnails/v2-%2-%3x%4-%5.png")
                             .arg(dir, file.completeBaseName())
                             .arg(size.width())
                             .arg(size.height())
                             .arg(file.lastModified().toSecsSinceEpoch());
  QPixmap pixmap;
  if (!dir.isEmpty() && pixmap.load(cached)) return pixmap;
  Document document;
  if (!document.load(path)) return {};
  const auto mech = document.simulated();
  if (mech && !mech->planar) pixmap = view3D(*mech, size);
  if (pixmap.isNull()) {
    SketchEditor sketch(&document);
    sketch.resize(size);
    sketch.fitToView();
    pixmap = sketch.grab();
  }
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
