#pragma once
// Video of the recorded motion (File > Export Video…, articula --export-video): the history is
// scrubbed frame by frame, each frame drawn by the 3D view (or the sketch) and grabbed, and
// encoded by articula_video (FFmpeg). Real time by default; speed < 1 slows it down.
#include <QSize>
#include <QString>
#include <functional>

namespace articula {

class MainWindow;

struct VideoSettings {
  QString path;           // .mp4 (H.264), .webm (VP9) or .gif
  double duration = 0.0;  // simulated seconds, from t = 0
  int fps = 30;
  double speed = 1.0;         // simulated seconds per second of video
  QSize size;                 // video size; invalid: the source's size
  bool whole_window = false;  // the window with its plots instead of the 3D view / sketch
  // Frames: round(duration * fps / speed), at t_k = k speed / fps.
  int frameCount() const;
};

struct VideoResult {
  QString error;  // empty on success
  bool cancelled = false;
  int frames = 0;
  QSize size;
};

// progress(done, total) returns false to cancel (the partial file is removed).
VideoResult exportVideo(MainWindow& window, const VideoSettings& settings,
                        const std::function<bool(int, int)>& progress = {});

}  // namespace articula
