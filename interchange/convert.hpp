#pragma once
// Reading and writing mechanisms in any supported format, chosen by the file's extension:
// .json (Articula project), .urdf, .sdf / .world (SDFormat), .xml / .mjcf (MJCF, export only).
#include <optional>
#include <string>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

enum class ExchangeFormat { Project, Urdf, Sdf, Mjcf };
std::optional<ExchangeFormat> exchange_format(const std::string& path);

struct Imported {
  MechanismSpec spec;
  std::vector<std::string> warnings;
};
// Throws ProjectError (.json), InterchangeError (the exchange formats, unknown extensions).
Imported import_mechanism(const std::string& path);
// Writes atomically (save_text). Exports prepare the mechanism first (assembly), so a mechanism
// that cannot be assembled throws SetupError. Returns the warnings (what the format drops).
std::vector<std::string> export_mechanism(const MechanismSpec& spec, const std::string& path);
// The same, as text.
std::string export_text(const MechanismSpec& spec, ExchangeFormat format,
                        std::vector<std::string>& warnings);

}  // namespace articula
