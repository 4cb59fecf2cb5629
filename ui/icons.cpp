#include "ui/icons.hpp"

#include <QApplication>
#include <QHash>
#include <QImageReader>
#include <QStyle>

namespace articula {

namespace {

QStyle::StandardPixmap fallback(const QString& name) {
  static const QHash<QString, QStyle::StandardPixmap> kMap = {
      {"play", QStyle::SP_MediaPlay},
      {"pause", QStyle::SP_MediaPause},
      {"step", QStyle::SP_MediaSkipForward},
      {"reset", QStyle::SP_MediaSkipBackward},
      {"new", QStyle::SP_FileIcon},
      {"open", QStyle::SP_DialogOpenButton},
      {"save", QStyle::SP_DialogSaveButton},
      {"remove", QStyle::SP_TitleBarCloseButton},
      {"export-csv", QStyle::SP_FileDialogDetailedView},
      {"export-image", QStyle::SP_DesktopIcon},
      {"fit", QStyle::SP_TitleBarMaxButton},
      {"plot-add", QStyle::SP_FileDialogNewFolder},
  };
  return kMap.value(name, QStyle::SP_FileIcon);
}

}  // namespace

QIcon themedIcon(const QString& name) {
  static const bool svg = QImageReader::supportedImageFormats().contains("svg");
  if (svg) {
    QIcon icon(QStringLiteral(":/icons/%1.svg").arg(name));
    if (!icon.availableSizes().isEmpty() || !icon.pixmap(16).isNull()) return icon;
  }
  return QApplication::style()->standardIcon(fallback(name));
}

}  // namespace articula
