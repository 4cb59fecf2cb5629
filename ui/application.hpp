#pragma once
// What `articula` does with its command line, on an existing QApplication:
//   articula [FILE.json]                  the window, with FILE (default: the four-bar sample)
//   articula --screenshot OUT.png [--run-for SECONDS] [--size WxH] FILE.json
//                                         simulate, save a PNG of the whole window, exit
//   articula --measure SECONDS FILE.json  play for SECONDS of wall time, print the frame rate and
//                                         the input latency (JSON), exit
//   articula --export-video OUT.mp4 --run-for S [--fps 30] [--speed 1] [--size WxH]
//            [--video-window] FILE.json   simulate S seconds, write the motion as a video, exit
//   articula --sensor-log LOG.csv [--estimate] [--identify POINTER ...] ...
//                                         import a sensor log (Estimation dock); with
//                                         --screenshot, --estimate runs the estimate and
//                                         --identify the identification first
// Exit status: 0 on success, 1 for usage errors, 2 when the file cannot be opened, 3 when the
// image or video cannot be written, 4 when the simulation failed (the image is still written).
class QApplication;

namespace articula {

// Application name, version, OpenGL surface format, resources: before the QApplication exists.
void prepareApplication();
int runApplication(QApplication& app);

}  // namespace articula
