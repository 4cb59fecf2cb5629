#include "core/estimation/measurement_log.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "core/sim/runner.hpp"

namespace articula {

namespace {
struct Reader {
  const std::string& name;
  std::vector<std::string> header;

  [[noreturn]] void fail(std::size_t line, const std::string& column,
                         const std::string& problem) const {
    std::string where = name + ": line " + std::to_string(line);
    if (!column.empty()) where += ", column '" + column + "'";
    throw MeasurementError(where + ": " + problem);
  }
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// A finite number, the whole cell; otherwise the reader's error for that cell.
double number(const Reader& r, std::size_t line, std::size_t col, const std::string& cell) {
  double v = 0.0;
  const char* end = cell.data() + cell.size();
  const auto res = std::from_chars(cell.data(), end, v);
  if (res.ec != std::errc() || res.ptr != end)
    r.fail(line, r.header[col], "'" + cell + "' is not a number");
  if (!std::isfinite(v))
    r.fail(line, r.header[col],
           "'" + cell + "' is not a finite number (leave the cell empty for a missing sample)");
  return v;
}

// Header: "t" first, then known, distinct columns. Returns the model column of each.
std::vector<int> read_header(Reader& r, const std::string& line,
                             const std::vector<std::string>& columns, const std::string& unknown) {
  r.header = split(line);
  if (r.header.empty() || r.header[0] != "t")
    r.fail(1, r.header.empty() ? "" : r.header[0], "the first column must be the time 't'");
  std::map<std::string, int> index;
  for (std::size_t c = 0; c < columns.size(); ++c) index[columns[c]] = static_cast<int>(c);
  std::vector<int> model_column(r.header.size(), -1);
  std::map<std::string, std::size_t> seen;
  for (std::size_t c = 1; c < r.header.size(); ++c) {
    const std::string& h = r.header[c];
    const auto it = index.find(h);
    if (it == index.end()) r.fail(1, h, unknown);
    if (!seen.emplace(h, c).second) r.fail(1, h, "the column appears twice");
    model_column[c] = it->second;
  }
  return model_column;
}

void read_row(const Reader& r, std::size_t line, const std::vector<std::string>& cells,
              const std::vector<int>& model_column, MeasurementLog& log, Eigen::Index row) {
  if (cells.size() != r.header.size())
    r.fail(line, "",
           std::to_string(cells.size()) + " cells where the header has " +
               std::to_string(r.header.size()));
  if (cells[0].empty()) r.fail(line, "t", "the time is missing");
  const double t = number(r, line, 0, cells[0]);
  if (row > 0 && !(t > log.t[row - 1]))
    r.fail(line, "t",
           "time " + format_number(t) +
               " s does not increase (previous row: " + format_number(log.t[row - 1]) + " s)");
  log.t[row] = t;
  for (std::size_t c = 1; c < cells.size(); ++c) {
    if (cells[c].empty()) continue;
    log.values(row, model_column[c]) = number(r, line, c, cells[c]);
    log.present(row, model_column[c]) = 1.0;
  }
}
}  // namespace

MeasurementLog parse_measurements(const std::string& text, const std::string& name,
                                  const SensorModel& sensors) {
  std::string known;
  for (const std::string& k : sensors.columns()) known += (known.empty() ? "" : ", ") + k;
  return parse_columns(
      text, name, sensors.columns(),
      "no sensor of the project reads this column; the project's columns are: " +
          (known.empty() ? std::string("none (no \"sensors\" in the file)") : known));
}

MeasurementLog parse_columns(const std::string& text, const std::string& name,
                             const std::vector<std::string>& columns, const std::string& unknown) {
  Reader r{name, {}};
  std::vector<std::pair<std::size_t, std::string>> lines;  // (file line, text), blank lines out
  std::istringstream in(text);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n)
    if (!trim(line).empty()) lines.emplace_back(n, line);
  if (lines.empty()) r.fail(1, "", "empty file: expected a header starting with 't'");
  const std::vector<int> model_column = read_header(r, lines[0].second, columns, unknown);
  if (lines.size() < 2) r.fail(lines[0].first, "", "no measurements after the header");
  const auto rows = static_cast<Eigen::Index>(lines.size() - 1);
  MeasurementLog log;
  log.t = VecX::Zero(rows);
  const auto width = static_cast<Eigen::Index>(columns.size());
  log.values = MatX::Constant(rows, width, std::numeric_limits<double>::quiet_NaN());
  log.present = MatX::Zero(rows, width);
  for (Eigen::Index k = 0; k < rows; ++k) {
    const auto& [n, text_line] = lines[static_cast<std::size_t>(k) + 1];
    read_row(r, n, split(text_line), model_column, log, k);
    log.lines.push_back(n);
  }
  return log;
}

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeasurementError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

MeasurementLog read_measurements(const std::string& path, const SensorModel& sensors) {
  return parse_measurements(read_text(path), path, sensors);
}

MeasurementLog read_columns(const std::string& path, const std::vector<std::string>& columns,
                            const std::string& unknown) {
  return parse_columns(read_text(path), path, columns, unknown);
}

MeasurementWriter::MeasurementWriter(std::ostream& out, const SensorModel& sensors) : out_(out) {
  out_ << 't';
  for (const std::string& c : sensors.columns()) out_ << ',' << c;
  out_ << '\n';
}

void MeasurementWriter::row(double t, const VecX& values) {
  line_ = format_number(t);
  for (Eigen::Index i = 0; i < values.size(); ++i)
    line_.append(",").append(format_number(values[i]));
  line_ += '\n';
  out_ << line_;
}

}  // namespace articula
