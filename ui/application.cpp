#include "ui/application.hpp"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "ui/autosave.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/identification_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/recent_files.hpp"
#include "ui/responsiveness_probe.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport_panel.hpp"
#include "ui/welcome_dialog.hpp"
#ifdef ARTICULA_HAVE_VIDEO
#include "ui/video_export.hpp"
#endif
#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"
#endif

static void initResources() {
  Q_INIT_RESOURCE(articula);
}

namespace articula {

namespace {

struct Options {
  QString file, screenshot, video, sensor_log;
  QStringList identify;  // JSON pointers
  bool estimate = false;
  double run_for = 1.0, measure = 0.0;
  QSize size{1280, 800};
  bool size_set = false;
  int fps = 30;
  double speed = 1.0;
  bool video_window = false;
};

// When opening reached each stage, in seconds since the process started (--measure prints them):
// the window shown, the project read and analysed (the document's load and everything its
// change signals build: solver, scene, sketch, docks), the first frame of the view drawn with it.
struct OpenTimes {
  double window = 0, opened = 0, first_frame = 0;
};

// Seconds since this process started: /proc's start time (clock ticks since boot) against the
// boot-time clock, so the dynamic loader and static initialisers count too. 0 when unreadable.
double secondsSinceProcessStart() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return 0.0;
  const auto close = line.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return 0.0;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 21; ++i) fields >> field;  // state .. itrealvalue; 22 is the start
  unsigned long long start_ticks = 0;
  if (!(fields >> start_ticks)) return 0.0;
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  return now.tv_sec + 1e-9 * now.tv_nsec - start_ticks / ticks;
}

void fail(const QString& text) {
  std::fprintf(stderr, "articula: %s\n", qPrintable(text));
}

int parseVideo(const QCommandLineParser& p, Options& o) {
  o.video = p.value("export-video");
  o.video_window = p.isSet("video-window");
  o.size_set = p.isSet("size");
  bool ok = true;
  if (p.isSet("fps")) o.fps = p.value("fps").toInt(&ok);
  if (!ok || o.fps <= 0 || o.fps > 240) return fail("--fps needs a whole number in 1..240"), 1;
  if (p.isSet("speed")) o.speed = p.value("speed").toDouble(&ok);
  if (!ok || !(o.speed > 0)) return fail("--speed needs a number > 0"), 1;
  return 0;
}

// Returns 0 and fills `o`, or the exit status for a usage error.
int parse(QApplication& app, Options& o) {
  QCommandLineParser p;
  p.setApplicationDescription("Articula: mechanism dynamics studio");
  p.addHelpOption();
  p.addVersionOption();
  p.addPositionalArgument("file", "Project to open (default: the four-bar sample).", "[FILE.json]");
  p.addOptions(
      {{"screenshot", "Save a PNG of the window and exit.", "OUT.png"},
       {"run-for", "Simulated seconds before the screenshot (default 1).", "SECONDS"},
       {"size", "Window size for the screenshot (default 1280x800).", "WxH"},
       {"measure", "Play for SECONDS, print frame rate and input latency.", "SECONDS"},
       {"export-video",
        "Simulate --run-for seconds, write the motion as a video "
        "(.mp4 H.264, .webm VP9, .gif) and exit.",
        "OUT.mp4"},
       {"fps", "Video frames per second (default 30).", "N"},
       {"speed", "Simulated seconds per video second (default 1; 0.5 is slow motion).", "FACTOR"},
       {"video-window", "Film the whole window (plots too), not only the 3D view."},
       {"sensor-log", "Import a sensor log (CSV) against the project.", "LOG.csv"},
       {"estimate", "With --screenshot: estimate from the --sensor-log first."},
       {"identify", "With --screenshot: identify this number (JSON pointer; repeatable) first.",
        "POINTER"}});
  p.process(app);
  const QStringList args = p.positionalArguments();
  if (args.size() > 1) return fail("expected at most one project file"), 1;
  if (!args.isEmpty()) o.file = args[0];
  o.screenshot = p.value("screenshot");
  o.sensor_log = p.value("sensor-log");
  o.estimate = p.isSet("estimate");
  o.identify = p.values("identify");
  if ((o.estimate || !o.identify.isEmpty()) && (o.sensor_log.isEmpty() || o.screenshot.isEmpty()))
    return fail("--estimate and --identify need --sensor-log and --screenshot"), 1;
  bool ok = true;
  if (p.isSet("run-for")) o.run_for = p.value("run-for").toDouble(&ok);
  if (!ok || o.run_for < 0) return fail("--run-for needs a number of seconds >= 0"), 1;
  if (p.isSet("measure")) o.measure = p.value("measure").toDouble(&ok);
  if (!ok || o.measure < 0) return fail("--measure needs a number of seconds"), 1;
  if (p.isSet("size")) {
    const auto m = QRegularExpression("^(\\d+)x(\\d+)$").match(p.value("size"));
    if (!m.hasMatch()) return fail("--size needs WxH, e.g. 1280x800"), 1;
    o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
  }
  if (const int status = parseVideo(p, o)) return status;
  if ((!o.screenshot.isEmpty() || o.measure > 0 || !o.video.isEmpty()) && o.file.isEmpty())
    return fail("--screenshot, --measure and --export-video need a project file"), 1;
  return 0;
}

// Lets timers, plot redraws and the GL viewport run for `ms` of wall time.
void settle(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(5);
  }
  // What the last turn posted (a plot's relayout for its new axis title) is done before a grab:
  // with a slow 3D view (the walker draws at 2 fps in software GL) one turn can fill the time.
  QCoreApplication::sendPostedEvents();
}

// Runs the estimate of the imported log and waits for it (at most 10 minutes).
bool estimateAndWait(MainWindow& w) {
  EstimationDock* dock = w.estimationDock();
  dock->estimate();
  QElapsedTimer t;
  t.start();
  while (dock->isRunning() && t.elapsed() < 600000) settle(50);
  if (dock->result()) return true;
  fail(dock->isRunning() ? QStringLiteral("the estimate did not finish in 10 minutes")
                         : QStringLiteral("the estimate failed; see the Diagnostics dock"));
  return false;
}

// Identifies the pointers from the imported log and waits (at most 10 minutes); its dock in front.
bool identifyAndWait(MainWindow& w, const QStringList& pointers) {
  IdentificationDock* dock = w.identificationDock();
  dock->setParameters(pointers);
  dock->show();
  dock->raise();
  dock->identify();
  QElapsedTimer t;
  t.start();
  while (dock->isRunning() && t.elapsed() < 600000) settle(50);
  if (dock->hasResult()) return true;
  fail(QStringLiteral("the identification failed or did not finish; see the Diagnostics dock"));
  return false;
}

int screenshot(MainWindow& w, const Options& o) {
  w.controller()->runFor(o.run_for);
  if (o.estimate && !estimateAndWait(w)) return 4;
  if (!o.identify.isEmpty() && !identifyAndWait(w, o.identify)) return 4;
  w.document()->waitForStatus();  // the picture shows the whole sketch status
  settle(400);
  const QPixmap image = w.grab();
  if (image.isNull() || !image.save(o.screenshot, "PNG"))
    return fail(QStringLiteral("cannot write %1").arg(o.screenshot)), 3;
  std::printf("articula: wrote %s (%dx%d, t = %.3f s)\n", qPrintable(o.screenshot), image.width(),
              image.height(), w.controller()->current().t);
  if (w.controller()->state() == SimulationController::State::Failed)
    return fail("the simulation failed; see the Diagnostics dock in the image"), 4;
  return 0;
}

#ifdef ARTICULA_HAVE_VIDEO
int videoExport(MainWindow& w, const Options& o) {
  w.controller()->runFor(o.run_for);
  settle(300);
  VideoSettings s;
  s.path = o.video;
  s.duration = std::min(o.run_for, w.controller()->recordedTime());
  s.fps = o.fps;
  s.speed = o.speed;
  s.whole_window = o.video_window;
  if (o.size_set) s.size = o.size;
  const bool tty = ::isatty(2);  // progress on a terminal only
  const VideoResult r = exportVideo(w, s, [tty](int done, int total) {
    if (tty)
      std::fprintf(stderr, "\rarticula: frame %d/%d%s", done, total, done == total ? "\n" : "");
    return true;
  });
  if (!r.error.isEmpty()) return fail(r.error), 3;
  std::printf("articula: wrote %s (%d frames, %dx%d, %d fps, t = 0..%.3f s)\n", qPrintable(o.video),
              r.frames, r.size.width(), r.size.height(), o.fps, s.duration);
  if (w.controller()->state() == SimulationController::State::Failed)
    return fail("the simulation failed before the end; the video stops there"), 4;
  return 0;
}
#endif

// CPU seconds used by the calling thread: the GUI thread's cost of a frame does not depend on
// how busy the rest of the machine is, unlike the frame rate.
double threadCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int measure(MainWindow& w, const Options& o, const OpenTimes& open) {
  settle(300);
  ResponsivenessProbe probe;
  const long frames0 = w.viewport()->framesDrawn();
  QElapsedTimer clock;
  clock.start();
  const double cpu0 = threadCpuSeconds();
#ifdef ARTICULA_HAVE_RENDER
  auto* view = w.viewport()->findChild<ViewportWidget*>();
  if (view) view->setFrameTiming(true);
#endif
  probe.start();
  w.controller()->play();
  settle(static_cast<int>(o.measure * 1000));
  probe.stop();
  const double wall = clock.elapsed() * 1e-3;
  const long frames = w.viewport()->framesDrawn() - frames0;
  const double fps = frames / wall;
  const double cpu_ms = frames > 0 ? 1e3 * (threadCpuSeconds() - cpu0) / frames : 0.0;
  std::vector<double> render;  // ms per frame, GL finished: what the 3-D view costs to draw
#ifdef ARTICULA_HAVE_RENDER
  if (view) {
    for (double t : view->frameTimes()) render.push_back(1e3 * t);
    view->setFrameTiming(false);
  }
#endif
  std::sort(render.begin(), render.end());
  const auto quantile = [&](double q) {
    return render.empty() ? 0.0
                          : render[std::min(render.size() - 1, std::size_t(q * render.size()))];
  };
  const ResponsivenessProbe::Stats s = probe.stats();
  std::printf(
      "{\"file\": \"%s\", \"wall_s\": %.2f, \"sim_t\": %.3f, \"rate\": %.3f, "
      "\"fps\": %.1f, \"gui_cpu_ms_per_frame\": %.2f, \"render_ms\": {\"min\": %.2f, "
      "\"median\": %.2f, \"p90\": %.2f}, \"latency_ms\": {\"samples\": %d, \"mean\": %.2f, "
      "\"p99\": %.2f, \"max\": %.2f}, \"viewport\": \"%s\", \"open_s\": {\"window\": %.3f, "
      "\"opened\": %.3f, \"first_frame\": %.3f}}\n",
      qPrintable(QFileInfo(o.file).fileName()), wall, w.controller()->current().t,
      w.controller()->current().t / wall, fps, cpu_ms, quantile(0), quantile(0.5), quantile(0.9),
      s.samples, s.mean_ms, s.p99_ms, s.max_ms, w.viewport()->has3D() ? "3d" : "sketch",
      open.window, open.opened, open.first_frame);
  return 0;
}

}  // namespace

void prepareApplication() {
  QCoreApplication::setOrganizationName("Articula");
  QCoreApplication::setApplicationName("Articula");
  QCoreApplication::setApplicationVersion(ARTICULA_VERSION);
  ViewportPanel::prepareSurfaceFormat();
  initResources();
}

// Lets the event loop run until the view has drawn a frame after `frames0` (at most 30 s).
void waitForFrameAfter(MainWindow& w, long frames0) {
  QElapsedTimer t;
  t.start();
  while (w.viewport()->framesDrawn() <= frames0 && t.elapsed() < 30000)
    QApplication::processEvents(QEventLoop::AllEvents, 5);
}

int runApplication(QApplication& app) {
  Options o;
  if (const int status = parse(app, o)) return status;
  const bool headless = !o.screenshot.isEmpty() || o.measure > 0 || !o.video.isEmpty();
  if (!o.screenshot.isEmpty() || !o.video.isEmpty())
    ViewportPanel::setMultisampling(4);  // quality over frame rate
  MainWindow w;
  w.setInteractive(!headless);
  if (!headless) w.restoreLayout();
  if (headless) w.resize(o.size);
  w.show();
  OpenTimes open;
  open.window = secondsSinceProcessStart();
  // After a crash, the autosaved work is offered first; recovered, it replaces the file to open.
  if (!headless && w.autosave()->offerRecovery(&w)) return app.exec();
  if (o.file.isEmpty() && !samplesDirectory().isEmpty()) {  // the four-bar, as a copy
    w.openSample(QDir(samplesDirectory()).filePath("fourbar.json"));
    if (!headless && WelcomeDialog::firstStart()) w.showWelcome();  // and the others to choose
  } else if (!o.file.isEmpty() && !w.openFile(o.file) && headless)
    return fail(w.lastError()), 2;
  if (!o.sensor_log.isEmpty() && !w.importSensorLog(o.sensor_log) && headless)
    return fail(w.lastError()), 2;
  if (!o.screenshot.isEmpty()) return screenshot(w, o);
  if (o.measure > 0) {
    open.opened = secondsSinceProcessStart();
    waitForFrameAfter(w, w.viewport()->framesDrawn());
    open.first_frame = secondsSinceProcessStart();
    return measure(w, o, open);
  }
  if (!o.video.isEmpty()) {
#ifdef ARTICULA_HAVE_VIDEO
    return videoExport(w, o);
#else
    return fail("this build has no video export (libavcodec-dev, libavformat-dev, ...)"), 1;
#endif
  }
  return app.exec();
}

}  // namespace articula
