#include "video/video_encoder.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

namespace articula {

struct VideoEncoder::State {
  std::string path, tmp;
  AVFormatContext* fmt = nullptr;
  AVCodecContext* ctx = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* sws = nullptr;
  bool open_file = false, finished = false;

  ~State() {
    sws_freeContext(sws);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&ctx);
    if (fmt && open_file) avio_closep(&fmt->pb);
    avformat_free_context(fmt);
    if (!finished && !tmp.empty()) std::remove(tmp.c_str());
  }
};

namespace {
std::string av_error(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = "";
  av_strerror(code, text, sizeof text);
  return text;
}

void check(int code, const std::string& what) {
  if (code < 0) throw VideoError(what + ": " + av_error(code));
}

std::string extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// The encoder and its settings for the container: quality over speed only where it is cheap.
const AVCodec* open_codec(VideoEncoder::State& s, const std::string& ext) {
  const AVCodec* codec = nullptr;
  if (ext == ".mp4") codec = avcodec_find_encoder_by_name("libx264");
  if (ext == ".webm") codec = avcodec_find_encoder_by_name("libvpx-vp9");
  if (ext == ".gif") codec = avcodec_find_encoder(AV_CODEC_ID_GIF);
  if (!codec) throw VideoError(s.path + ": no encoder for '" + ext + "' (.mp4, .webm or .gif)");
  s.ctx = avcodec_alloc_context3(codec);
  s.ctx->pix_fmt = ext == ".gif" ? AV_PIX_FMT_RGB8 : AV_PIX_FMT_YUV420P;
  if (ext == ".mp4") {
    s.ctx->max_b_frames = 0;  // every frame decodable in order: exact seeking, simple timestamps
    av_opt_set(s.ctx->priv_data, "preset", "veryfast", 0);
    av_opt_set(s.ctx->priv_data, "crf", "20", 0);
  } else if (ext == ".webm") {
    av_opt_set(s.ctx->priv_data, "deadline", "realtime", 0);
    av_opt_set(s.ctx->priv_data, "cpu-used", "8", 0);
    av_opt_set(s.ctx->priv_data, "crf", "32", 0);
    s.ctx->bit_rate = 0;
  }
  return codec;
}
}  // namespace

VideoEncoder::VideoEncoder(const std::string& path, int width, int height, int fps)
    : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.path = path;
  av_log_set_level(AV_LOG_ERROR);  // libx264's statistics are not ours to print; errors come back
  const std::string ext = extension(path);
  if (ext != ".mp4" && ext != ".webm" && ext != ".gif")
    throw VideoError(path + ": unknown video extension (.mp4, .webm or .gif)");
  if (width < 2 || height < 2 || fps <= 0)
    throw VideoError(path + ": bad video size or frame rate");
  s.tmp = path + ".tmp" + std::to_string(::getpid()) + ext;
  check(avformat_alloc_output_context2(&s.fmt, nullptr, nullptr, s.tmp.c_str()), path);
  const AVCodec* codec = open_codec(s, ext);
  s.ctx->width = width & ~1;
  s.ctx->height = height & ~1;
  s.ctx->time_base = AVRational{1, fps};
  s.ctx->framerate = AVRational{fps, 1};
  s.ctx->gop_size = 2 * fps;
  if (s.fmt->oformat->flags & AVFMT_GLOBALHEADER) s.ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  check(avcodec_open2(s.ctx, codec, nullptr), path + ": cannot open the encoder");
  s.stream = avformat_new_stream(s.fmt, nullptr);
  check(avcodec_parameters_from_context(s.stream->codecpar, s.ctx), path);
  s.stream->time_base = s.ctx->time_base;
  check(avio_open(&s.fmt->pb, s.tmp.c_str(), AVIO_FLAG_WRITE), "cannot write " + path);
  s.open_file = true;
  check(avformat_write_header(s.fmt, nullptr), path);
  s.frame = av_frame_alloc();
  s.frame->format = s.ctx->pix_fmt;
  s.frame->width = s.ctx->width;
  s.frame->height = s.ctx->height;
  check(av_frame_get_buffer(s.frame, 0), path);
  s.packet = av_packet_alloc();
}

VideoEncoder::~VideoEncoder() = default;

int VideoEncoder::width() const {
  return s_->ctx->width;
}
int VideoEncoder::height() const {
  return s_->ctx->height;
}

namespace {
// Sends a frame (nullptr: flush) and writes whatever packets come out.
void encode(VideoEncoder::State& s, AVFrame* frame) {
  check(avcodec_send_frame(s.ctx, frame), s.path + ": encoding");
  for (;;) {
    const int r = avcodec_receive_packet(s.ctx, s.packet);
    if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
    check(r, s.path + ": encoding");
    // One frame long: without a duration MP4's edit list ends at the last frame's start and
    // players drop that frame (ffprobe counted 9 of 10).
    if (s.packet->duration <= 0) s.packet->duration = 1;
    av_packet_rescale_ts(s.packet, s.ctx->time_base, s.stream->time_base);
    s.packet->stream_index = s.stream->index;
    check(av_interleaved_write_frame(s.fmt, s.packet), "cannot write " + s.path);
  }
}
}  // namespace

void VideoEncoder::add_frame(const std::uint8_t* bgra, int width, int height, int stride) {
  State& s = *s_;
  s.sws = sws_getCachedContext(s.sws, width, height, AV_PIX_FMT_BGRA, s.ctx->width, s.ctx->height,
                               s.ctx->pix_fmt, SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr,
                               nullptr);
  if (!s.sws)
    throw VideoError(s.path + ": cannot convert " + std::to_string(width) + "x" +
                     std::to_string(height) + " frames");
  check(av_frame_make_writable(s.frame), s.path);
  const std::uint8_t* src[1] = {bgra};
  const int src_stride[1] = {stride};
  sws_scale(s.sws, src, src_stride, 0, height, s.frame->data, s.frame->linesize);
  s.frame->pts = frames_++;
  encode(s, s.frame);
}

void VideoEncoder::finish() {
  State& s = *s_;
  if (s.finished) return;
  encode(s, nullptr);
  check(av_write_trailer(s.fmt), "cannot write " + s.path);
  avio_closep(&s.fmt->pb);
  s.open_file = false;
  std::error_code ec;
  std::filesystem::rename(s.tmp, s.path, ec);
  if (ec) throw VideoError("cannot write " + s.path + ": " + ec.message());
  s.finished = true;
}

}  // namespace articula
