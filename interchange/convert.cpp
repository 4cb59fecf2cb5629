#include "interchange/convert.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "interchange/mjcf_export.hpp"
#include "interchange/sdf.hpp"
#include "interchange/urdf.hpp"

namespace articula {

std::optional<ExchangeFormat> exchange_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".json") return ExchangeFormat::Project;
  if (ext == ".urdf") return ExchangeFormat::Urdf;
  if (ext == ".sdf" || ext == ".world") return ExchangeFormat::Sdf;
  if (ext == ".xml" || ext == ".mjcf") return ExchangeFormat::Mjcf;
  return std::nullopt;
}

namespace {
ExchangeFormat format_or_throw(const std::string& path) {
  const auto f = exchange_format(path);
  if (!f)
    throw InterchangeError(path +
                           ": unknown extension (.json, .urdf, .sdf, .world, .xml or .mjcf)");
  return *f;
}
}  // namespace

Imported import_mechanism(const std::string& path) {
  const ExchangeFormat format = format_or_throw(path);
  if (format == ExchangeFormat::Project) {
    LoadResult r = load_project(path);
    return {std::move(r.spec), std::move(r.warnings)};
  }
  if (format == ExchangeFormat::Mjcf)
    throw InterchangeError(path + ": MJCF is written, not read (import URDF or SDFormat)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InterchangeError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  Imported out;
  out.spec = format == ExchangeFormat::Urdf ? import_urdf(text.str(), path, out.warnings)
                                            : import_sdf(text.str(), path, out.warnings);
  return out;
}

std::string export_text(const MechanismSpec& spec, ExchangeFormat format,
                        std::vector<std::string>& warnings) {
  if (format == ExchangeFormat::Project) return to_text(spec);
  const Mechanism mech = prepare_project(spec);
  switch (format) {
    case ExchangeFormat::Urdf:
      return to_urdf(mech, warnings);
    case ExchangeFormat::Sdf:
      return to_sdf(mech, warnings);
    default:
      return to_mjcf(mech, warnings);
  }
}

std::vector<std::string> export_mechanism(const MechanismSpec& spec, const std::string& path) {
  std::vector<std::string> warnings;
  save_text(export_text(spec, format_or_throw(path), warnings), path);
  return warnings;
}

}  // namespace articula
