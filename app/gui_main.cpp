// articula: the desktop application. Everything lives in articula_ui (ui/application.hpp).
#include <QApplication>

#include "ui/application.hpp"

int main(int argc, char* argv[]) {
  articula::prepareApplication();  // OpenGL surface format: before the QApplication exists
  QApplication app(argc, argv);
  return articula::runApplication(app);
}
